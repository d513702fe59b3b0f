"""The forms of the alerts' pages. They read what was typed; the services (services.py, thresholds.py,
faults.py) decide and refuse, and the pages show their refusals on these forms."""

from django import forms

from core.forms import ReasonField
from core.templatetags.pitboss import zoned_label
from tables.choices import Game
from tables.models import Table

from .choices import Monitor, ResolutionLink
from .definitions import DEFINITIONS


def moment_input():
    """A moment typed in the user's time zone, as the browser's own picker writes it."""
    return forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def tables_by_code():
    return Table.objects.order_by("code")


class AcknowledgeForm(forms.Form):
    note = forms.CharField(
        label="Note",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Optional: what you have seen. It stops the alert escalating.",
    )


class ClaimForm(forms.Form):
    """No field: the claim is the user's."""


class ResolveForm(forms.Form):
    # Not required here: the service refuses an empty note, with its own words.
    note = forms.CharField(
        label="What was found and done",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="The alert's record, kept with your name.",
    )
    link = forms.ChoiceField(
        label="Recorded in", choices=ResolutionLink.choices, initial=ResolutionLink.NONE, required=False
    )
    ref = forms.CharField(
        label="Its number",
        required=False,
        max_length=64,
        help_text="The incident's, re-settlement's or void's number, or the configuration's version, "
        "at this alert's table.",
    )

    def clean_link(self):
        return self.cleaned_data["link"] or ResolutionLink.NONE


class MarkReportableForm(forms.Form):
    what_happened = forms.CharField(
        label="What happened",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="The confirmed fault, as the regulator's key-event report reads it.",
    )
    affected_from = forms.DateTimeField(label=zoned_label("Affected from"), widget=moment_input())
    affected_to = forms.DateTimeField(label=zoned_label("Affected to"), widget=moment_input())


class SilenceForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), to_field_name="code")
    monitor = forms.ChoiceField(
        choices=[("", "All monitors"), *Monitor.choices], required=False, help_text="Empty: every monitor."
    )
    minutes = forms.IntegerField(initial=60, help_text="From 1 minute to 1,440 (24 hours), from now.")
    reason = ReasonField(label="Why", help_text="The maintenance, kept with the silence and your name.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = tables_by_code()


class SilenceEndForm(forms.Form):
    """No field: ending is the user's."""


def monitor_choices():
    return [(monitor.value, f"{d.label} ({d.unit})") for monitor, d in DEFINITIONS.items()]


class ThresholdProposeForm(forms.Form):
    monitor = forms.ChoiceField(choices=monitor_choices)
    game = forms.ChoiceField(
        choices=[("", "—"), *Game.choices], required=False, help_text="Every table of the game…"
    )
    table = forms.ModelChoiceField(
        queryset=Table.objects.none(), to_field_name="code", required=False, help_text="…or one table."
    )
    # Any number: the service says what a monitor takes (its minimum, two places).
    value = forms.DecimalField(label="New threshold")
    reason = ReasonField(label="Why")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = tables_by_code()


class ThresholdDecisionForm(forms.Form):
    note = forms.CharField(
        label="Note",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Kept with the decision; needed to refuse.",
    )
