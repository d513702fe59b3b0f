"""The forms of the notifications' pages. They read what was typed; the services (services.py) decide
and refuse, and the pages show their refusals on these forms."""

from django import forms

from alerts.choices import Severity
from alerts.definitions import DEFINITIONS
from tables.models import Table


def monitor_choices():
    return [(monitor.value, definition.label) for monitor, definition in DEFINITIONS.items()]


class ChoicesForm(forms.Form):
    """What a subscriber hears of: tables and monitors (none chosen: every one), the least severity."""

    tables = forms.ModelMultipleChoiceField(
        queryset=Table.objects.none(),
        to_field_name="code",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every table.",
    )
    # Any value: the service refuses a monitor it does not know, with its own words.
    monitors = forms.MultipleChoiceField(
        choices=monitor_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every monitor.",
    )
    severity = forms.TypedChoiceField(
        label="At least",
        choices=Severity.choices,
        coerce=int,
        initial=Severity.WARNING,
        help_text="Warning: warnings and critical alerts; Critical: critical alerts only.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tables"].queryset = Table.objects.order_by("code")

    def clean_monitors(self):
        return list(self.cleaned_data["monitors"])


class SubscriptionForm(ChoicesForm):
    by_email = forms.BooleanField(label="Send me alerts by email", required=False)
    email = forms.EmailField(
        label="Email address", required=False, help_text="Blank: your account's address."
    )
    field_order = ["by_email", "email", "tables", "monitors", "severity"]


class EndpointForm(ChoicesForm):
    name = forms.CharField(max_length=100, help_text="Who receives it, as you will recognise it.")
    url = forms.CharField(
        label="URL",
        max_length=500,
        help_text="Where each alert is POSTed, signed (https in production).",
        widget=forms.URLInput,
    )
    field_order = ["name", "url", "tables", "monitors", "severity"]


class ConfirmForm(forms.Form):
    """No field: a button (send a test, rotate, deactivate, retry) whose doer is the user."""
