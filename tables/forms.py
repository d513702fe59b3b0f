"""The forms of the table pages. They only read input; the services in services.py write."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from blackjack.rules import (
    AUTO_PLAY_POLICIES,
    MAX_ODDS,
    MAX_ROUND_BOUND,
    SHEET_SEATS,
    SIDE_OPTION_PATTERNS,
    STRATEGY_ACTIONS,
    STRATEGY_HANDS,
    STRATEGY_UPCARDS,
    RuleError,
    RuleSet,
    kind_label,
    pattern_label,
    preset,
)
from core.forms import HISTORY_REASON_LENGTH, IsoDateInput, ReasonField, add_service_errors
from core.templatetags.pitboss import odds_text, zoned_label

from .choices import AUTO_PLAY_LABELS, Currency, Game, TableStatus
from .models import table_code_validator
from .services import table_code_taken

DEALER_HELP = "Who deals at the table: the Deluxe and Boundless rule sheets call them the facilitator."


class TableCreateForm(forms.Form):
    code = forms.CharField(
        max_length=16,
        validators=[table_code_validator],
        help_text="2 to 16 capital letters and digits, such as DLX1.",
    )
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=Game.choices)
    currency = forms.ChoiceField(choices=Currency.choices)
    studio = forms.CharField(max_length=100)
    dealer = forms.CharField(label="Dealer on duty", help_text=DEALER_HELP, max_length=100, required=False)

    def clean_code(self):
        code = self.cleaned_data["code"]
        if taken := table_code_taken(code):
            raise ValidationError(taken)
        return code


class TableUpdateForm(forms.Form):
    name = forms.CharField(max_length=100)
    studio = forms.CharField(max_length=100)
    dealer = forms.CharField(label="Dealer on duty", help_text=DEALER_HELP, max_length=100, required=False)
    reason = ReasonField(max_length=HISTORY_REASON_LENGTH)


class TableStatusForm(forms.Form):
    status = forms.ChoiceField(choices=TableStatus.choices, widget=forms.RadioSelect)
    reason = ReasonField(help_text="Kept in the game availability log with your name.")


class ConfigurationForm(forms.Form):
    """Built from the table's last approved rules: what a supervisor may change of the game's preset.

    Fields: `seats` (seated games), `auto_play`, per side option of the preset `<kind>__offered`,
    `<kind>__max_round` and `<kind>__<pattern>` (odds, "N to 1"; empty: the pattern does not pay),
    `strategy_overrides` (the multi-player game), `valid_from`, `reason`, and `seen_version` (hidden:
    the table's latest version when the form was opened; a change made since refuses the proposal).
    Every error shows at once: the engine checks the rules even when another field is wrong.
    """

    seen_version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    max_odds = f"{MAX_ODDS:,}"  # for the page: a paytable line pays at most this "to 1"

    def __init__(self, *args, table, rule_set: RuleSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.rule_set = rule_set
        self.side_option_kinds = [option.kind for option in preset(table.game).side_options]
        if rule_set.seats is not None:
            most = SHEET_SEATS.get(table.game)
            self.fields["seats"] = forms.IntegerField(
                initial=rule_set.seats,
                help_text=f"Seats at the table: 1 to {most}, as the rule sheet allows.",
            )
        self.fields["auto_play"] = forms.ChoiceField(
            label="Auto-play",
            choices=[(policy, AUTO_PLAY_LABELS.get(policy, policy)) for policy in AUTO_PLAY_POLICIES],
            initial=rule_set.auto_play,
            help_text="How a hand is played when the player does not decide in time.",
        )
        for kind in self.side_option_kinds:
            current = rule_set.side_option(kind)
            shown = current or preset(table.game).side_option(kind)
            self.fields[f"{kind}__offered"] = forms.BooleanField(
                label=f"Offer {kind_label(kind)}",
                required=False,
                initial=current is not None,
            )
            self.fields[f"{kind}__max_round"] = forms.IntegerField(
                label="Max round",
                required=False,
                initial=shown.max_round,
                help_text=f"1 to {MAX_ROUND_BOUND}; empty: no limit.",
            )
            for pattern in SIDE_OPTION_PATTERNS[kind]:
                odds = shown.odds(pattern)
                self.fields[f"{kind}__{pattern}"] = forms.DecimalField(
                    label=pattern_label(pattern),
                    required=False,
                    initial=None if odds is None else odds_text(odds),
                    widget=forms.NumberInput(attrs={"step": "any", "class": "odds"}),
                )
        if table.game == Game.MULTIPLAYER:
            self.fields["strategy_overrides"] = forms.CharField(
                label="Strategy-table changes",
                required=False,
                widget=forms.Textarea(attrs={"rows": 4, "class": "mono"}),
                initial="\n".join(" ".join(entry) for entry in rule_set.strategy_overrides),
                help_text="One change a line: hand, facilitator's card, action — e.g. “hard16 T stand”. "
                "Hands hard4–hard20, soft12–soft20, pair2–pairA; cards 2–9, T, A; "
                f"actions {', '.join(STRATEGY_ACTIONS)}.",
            )
        self.fields["valid_from"] = forms.DateTimeField(
            label=zoned_label("In force from"),
            required=False,
            widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            help_text="Empty: as soon as a second supervisor approves it; a time that has passed by then "
            "becomes the moment of approval. Never in the past.",
        )
        self.fields["reason"] = ReasonField()
        self.fields["rtp_fall_reason"] = forms.CharField(
            label="If an RTP falls past the guardrail: why",
            required=False,
            widget=forms.Textarea(attrs={"rows": 2}),
            help_text=FALL_REASON_HELP,
        )

    def side_option_groups(self):
        """For the template: each side option with its offered box, max round and odds fields."""
        for kind in self.side_option_kinds:
            yield {
                "kind": kind,
                "label": kind_label(kind),
                "offered": self[f"{kind}__offered"],
                "max_round": self[f"{kind}__max_round"],
                "odds": [self[f"{kind}__{pattern}"] for pattern in SIDE_OPTION_PATTERNS[kind]],
            }

    def clean_strategy_overrides(self):
        text = self.cleaned_data.get("strategy_overrides") or ""
        table: dict[str, dict[str, str]] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            words = line.split()
            if not words:
                continue
            if len(words) != 3:
                raise forms.ValidationError(
                    f"Line {number}: “{line.strip()}” is not hand, facilitator's card and action."
                )
            hand, up, action = words[0].lower(), words[1].upper(), words[2].lower()
            if hand not in STRATEGY_HANDS:
                raise forms.ValidationError(f"Line {number}: unknown hand “{words[0]}”.")
            if up not in STRATEGY_UPCARDS:
                raise forms.ValidationError(f"Line {number}: unknown facilitator's card “{words[1]}”.")
            if up in table.get(hand, {}):
                raise forms.ValidationError(f"Line {number}: {hand} against {up} is changed twice.")
            table.setdefault(hand, {})[up] = action
        return table

    def clean(self):
        """Check the rules with the engine now, every problem of them, beside any other field's error (a
        field in error counts with the value it had, so that it is not reported twice)."""
        data = super().clean()
        try:
            self.rule_set.with_changes(self.changes())
        except RuleError as error:
            found: dict[str, list[str]] = {}
            for problem in error.problems:
                found.setdefault(f"rules.{problem.field}", []).append(problem.message)
            add_service_errors(self, ValidationError(found), self.error_aliases())
        return data

    def clean_valid_from(self):
        valid_from = self.cleaned_data.get("valid_from")
        if valid_from is not None and valid_from < timezone.now():
            raise forms.ValidationError(
                "A new version cannot start in the past: choose a later time, or none."
            )
        return valid_from

    def value(self, name: str):
        """The field's cleaned value; for a field in error, the value the form started with."""
        if name in self.errors:
            return self.fields[name].initial
        return self.cleaned_data.get(name)

    def changes(self) -> dict:
        """The changes in RuleSet.to_dict form, for `configuration_propose`."""
        changes: dict = {"auto_play": self.value("auto_play")}
        if "seats" in self.fields:
            changes["seats"] = self.value("seats")
        side_options = {}
        for kind in self.side_option_kinds:
            if not self.value(f"{kind}__offered"):
                side_options[kind] = None
                continue
            paytable = {
                pattern: str(odds)
                for pattern in SIDE_OPTION_PATTERNS[kind]
                if (odds := self.value(f"{kind}__{pattern}")) not in (None, "")
            }
            side_options[kind] = {"paytable": paytable, "max_round": self.value(f"{kind}__max_round")}
        if side_options:
            changes["side_options"] = side_options
        if "strategy_overrides" in self.fields:
            if "strategy_overrides" in self.errors:
                changes["strategy_overrides"] = self.rule_set.to_dict()["strategy_overrides"]
            else:
                changes["strategy_overrides"] = self.cleaned_data.get("strategy_overrides", {})
        return changes

    def error_aliases(self) -> dict[str, str]:
        """Service error keys (`rules.side_options.pair.paytable.mixed_pair`) -> this form's fields."""
        aliases = {"rules.seats": "seats", "rules.auto_play": "auto_play"}
        aliases["rules.strategy_overrides"] = "strategy_overrides"
        for kind in self.side_option_kinds:
            where = f"rules.side_options.{kind}"
            aliases[where] = f"{kind}__offered"
            aliases[f"{where}.max_round"] = f"{kind}__max_round"
            for pattern in SIDE_OPTION_PATTERNS[kind]:
                aliases[f"{where}.paytable.{pattern}"] = f"{kind}__{pattern}"
        return aliases


FALL_REASON_HELP = (
    "A change that takes a bet kind's maximum RTP below the floor, or down by more than a point, needs "
    "your reason and a compliance officer's approval before a supervisor's. You can write it later on "
    "the proposal."
)


class FallReasonForm(forms.Form):
    """The proposer's reason for a fall of an RTP past the guardrail (tables.guardrail)."""

    rtp_fall_reason = forms.CharField(
        label="Why the RTP falls",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Compliance reads it before approving; kept with the version.",
    )


class ConfigurationDecisionForm(forms.Form):
    """Approve or reject the proposed version shown (`version`: the one the page showed)."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    comment = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Kept with the decision, with your name; required to reject.",
    )


class PublishedRtpForm(forms.Form):
    """Compliance enters the operator's published RTP of a bet kind the version offers (`kinds`). The
    service (tables.published.published_rtp_enter) decides: a kind the version offers, a figure above 0
    and at most 100, a document already published."""

    kind = forms.ChoiceField(label="Bet kind")
    # Any number of two places: the service says what an RTP takes (above 0, at most 100).
    rtp = forms.DecimalField(
        label="Published RTP (%)",
        max_digits=5,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"step": "0.01", "class": "number"}),
        help_text="As the document states it, such as 99.46.",
    )
    source_document = forms.CharField(
        label="Published in", max_length=200, help_text="The document that states it: its title and edition."
    )
    source_url = forms.URLField(
        label="Address", max_length=500, required=False, assume_scheme="https", help_text="Optional."
    )
    published_on = forms.DateField(
        label="Published on", widget=IsoDateInput(), help_text="The document's date (YYYY-MM-DD)."
    )

    def __init__(self, *args, kinds: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(kind, kind_label(kind)) for kind in kinds]
