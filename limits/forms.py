"""The forms of the player and limit pages. They only read input; the services write."""

from django import forms

from blackjack.document import ID_CHARACTERS, MAX_ID_LENGTH
from core.forms import HISTORY_REASON_LENGTH, ReasonField, StakeField
from tables.choices import Currency, Game
from tables.models import Table

from .choices import AccountType, BetKind, PlayerStatus
from .models import validate_player_id
from .services import amount_check, player_id_taken, stake_range_check


class PlayerCreateForm(forms.Form):
    external_id = forms.CharField(
        label="Player id",
        max_length=MAX_ID_LENGTH,
        validators=[validate_player_id],
        help_text=f"As the game server sends it: the characters {ID_CHARACTERS}.",
    )
    display_name = forms.CharField(max_length=100, required=False)
    account_type = forms.ChoiceField(choices=AccountType.choices, initial=AccountType.REAL)
    currency = forms.ChoiceField(choices=Currency.choices)
    status = forms.ChoiceField(choices=PlayerStatus.choices, initial=PlayerStatus.ACTIVE)

    def clean_external_id(self):
        external_id = self.cleaned_data["external_id"]
        if taken := player_id_taken(external_id):
            raise forms.ValidationError(taken)
        return external_id


class PlayerUpdateForm(forms.Form):
    display_name = forms.CharField(max_length=100, required=False)
    account_type = forms.ChoiceField(choices=AccountType.choices)
    status = forms.ChoiceField(choices=PlayerStatus.choices)
    reason = ReasonField(max_length=HISTORY_REASON_LENGTH)


class StakeRangeForm(forms.Form):
    """A form of a minimum and a maximum stake, checked by the services' rules (amount_check, then
    stake_range_check) with the form's other errors, not only once they are mended."""

    def clean(self):
        data = super().clean()
        amounts = ("min_stake", "max_stake")
        for name in amounts:  # a missing amount: its field says so
            try:
                amount_check(name, data.get(name), required=False)
            except forms.ValidationError as error:
                self.add_error(None, error)
        if not any(self.has_error(name) for name in amounts):
            try:
                stake_range_check(data.get("min_stake"), data.get("max_stake"))
            except forms.ValidationError as error:
                self.add_error(None, error)
        return data


class TableLimitForm(StakeRangeForm):
    # Changing the kind reloads the page with ?kind=<kind>, which fills the form with that kind's
    # current limit (static/js/reload-on-change.js; without it, the links beside the form).
    kind = forms.ChoiceField(
        label="Bet kind",
        widget=forms.Select(attrs={"data-reload-query": "kind"}),
        help_text="Choosing a kind shows its current limit.",
    )
    min_stake = StakeField(label="Minimum stake")
    max_stake = StakeField(label="Maximum stake")
    reason = ReasonField(max_length=HISTORY_REASON_LENGTH)

    def __init__(self, *args, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kinds


SCOPE_FIELDS = ("kind", "table", "game")


class PersonalLimitScopeForm(forms.Form):
    """Which limit to look at and change: a bet kind or all, a table or a game or every table. On
    the personal-limit page its selects are in the form that saves, so the scope saved is the one
    they show."""

    kind = forms.ChoiceField(label="Bet kind", choices=[("", "All kinds")] + BetKind.choices, required=False)
    table = forms.ModelChoiceField(
        queryset=Table.objects.none(), required=False, empty_label="Every table", to_field_name="code"
    )
    game = forms.ChoiceField(choices=[("", "Every game")] + Game.choices, required=False)

    def __init__(self, *args, player, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = Table.objects.filter(currency=player.currency).order_by("code")

    def clean(self):
        data = super().clean()
        if data.get("table") and data.get("game"):
            self.add_error("game", "A personal limit is for one table or for one game, not both.")
        return data

    def scope(self) -> dict:
        """The scope chosen, as `personal_limit_set` takes it (call after is_valid())."""
        return {name: self.cleaned_data[name] for name in SCOPE_FIELDS}


def scope_values(scope: dict) -> dict:
    """A scope as the values of its form fields: kind, table code, game."""
    table = scope["table"]
    return {"kind": scope["kind"], "table": table.code if table else "", "game": scope["game"]}


class PersonalLimitForm(StakeRangeForm):
    """The new range. `seen_*` is the scope the page showed, and `seen_setting` the latest setting
    of it the agent saw: the range is saved only for that scope, and only while it is the latest."""

    seen_kind = forms.CharField(required=False, widget=forms.HiddenInput)
    seen_table = forms.CharField(required=False, widget=forms.HiddenInput)
    seen_game = forms.CharField(required=False, widget=forms.HiddenInput)
    seen_setting = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    min_stake = StakeField(label="Minimum stake", required=False, help_text="Empty: the table's minimum.")
    max_stake = StakeField(
        label="Maximum stake",
        required=False,
        help_text="Empty: the table's maximum. A higher maximum takes effect 24 hours later.",
    )
    reason = ReasonField()

    def seen_scope_values(self) -> dict:
        """The scope the page showed, as the values of the scope form's fields."""
        return {name: self.data.get(f"seen_{name}", "") for name in SCOPE_FIELDS}

    def limit_data(self) -> dict:
        """What `personal_limit_set` takes from this form (call after is_valid())."""
        names = ("seen_setting", "min_stake", "max_stake", "reason")
        return {name: self.cleaned_data[name] for name in names}
