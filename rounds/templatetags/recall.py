"""Small filters of the round pages: differences of amounts, signed and with the currency."""

from decimal import Decimal

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def subtract(value, other):
    """{{ computed|subtract:reported }}; None when either is missing."""
    if value is None or other is None:
        return None
    return Decimal(value) - Decimal(other)


@register.filter
def signed_money(amount, currency: str = ""):
    """+10.00 EUR, −2.50 EUR, or 0.00 EUR; "—" when there is nothing to compare."""
    if amount is None:
        return mark_safe('<span class="money subtle">—</span>')
    amount = Decimal(amount)
    text = f"{amount:+,.2f}".replace("-", "−") if amount else f"{amount:,.2f}"
    return format_html('<span class="money">{} <span class="currency">{}</span></span>', text, currency)
