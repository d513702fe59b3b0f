"""{{ change.value|threshold_number }} -> "10,000": a threshold or a measure as the alerts' pages show it."""

from django import template

from alerts.tables import number_text

register = template.Library()


@register.filter
def threshold_number(value) -> str:
    return "—" if value is None else number_text(value)
