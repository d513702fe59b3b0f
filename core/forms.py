"""Putting a service's ValidationError onto the form that called it, next to the right field."""

from django import forms
from django.core.exceptions import ValidationError

from blackjack.amounts import AMOUNT_RULE, amount_of


def add_service_errors(
    form: forms.Form, error: ValidationError, aliases: dict[str, str] | None = None
) -> None:
    """Show each message of `error` next to its field, or above the form when no field matches.

    Services key their errors by field name, sometimes dotted (`rules.side_options.pair.max_round`);
    `aliases` maps such keys, or a prefix of them, to a form field name.
    """
    aliases = aliases or {}
    messages = error.message_dict if hasattr(error, "error_dict") else {"__all__": error.messages}
    for key, texts in messages.items():
        field = _field_for(form, key, aliases)
        for text in texts:
            form.add_error(field, text)


def _field_for(form: forms.Form, key: str, aliases: dict[str, str]) -> str | None:
    parts = key.split(".")
    while parts:
        name = ".".join(parts)
        if name in aliases and aliases[name] in form.fields:
            return aliases[name]
        if name in form.fields:
            return name
        parts.pop()
    return None


# A reason kept in a model's history (django-simple-history's change reason) holds 100 characters.
HISTORY_REASON_LENGTH = 100


class ReasonField(forms.CharField):
    """Every change says why; kept in the history beside it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 2}))
        kwargs.setdefault("help_text", "Kept in the history with your name.")
        kwargs.setdefault("error_messages", {"required": "Say why: every change is kept with its reason."})
        super().__init__(**kwargs)


class StakeField(forms.DecimalField):
    """An amount of money as a round document writes one (blackjack.amounts): "10", "10.5",
    "10.00". Django's DecimalField would also read "1e3", "5_0", "+5.00", " 5.00" and other scripts'
    digits; those are refused here, next to the field."""

    default_error_messages = {"invalid": f"Enter an amount: {AMOUNT_RULE}."}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("widget", forms.NumberInput(attrs={"step": "0.01", "class": "number"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            return amount_of(value)
        except (ValueError, TypeError):
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None


class IsoDateInput(forms.DateInput):
    """A date typed as YYYY-MM-DD, the way every page writes one. A browser's own date input shows
    the date in its locale's order (mm/dd/yyyy in en-US): not used."""

    input_type = "text"

    def __init__(self, attrs=None):
        defaults = {"placeholder": "YYYY-MM-DD", "pattern": r"\d{4}-\d{2}-\d{2}", "inputmode": "numeric"}
        super().__init__(attrs={**defaults, **(attrs or {})}, format="%Y-%m-%d")
