"""Template filters shared by every page: money with its currency, times in UTC with the zone shown."""

from datetime import UTC, datetime
from decimal import Decimal

from django import template
from django.utils.safestring import SafeString

from config.html import escaped, format_html
from config.table_rows import table_rows as rows_of

register = template.Library()


def money_text(amount: Decimal | None) -> str:
    """1234.5 -> "1,234.50"; None -> "—"."""
    if amount is None:
        return "—"
    return f"{Decimal(amount):,.2f}"


def utc_text(moment: datetime | None) -> str:
    if moment is None:
        return "—"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def odds_text(odds: Decimal) -> str:
    """Decimal("10") -> "10", Decimal("2.50") -> "2.5" (never "1E+1")."""
    odds = Decimal(odds)
    if odds == odds.to_integral_value():
        return str(odds.quantize(Decimal(1)))
    return format(odds.normalize(), "f")


@register.filter
def odds(value):
    return odds_text(value)


@register.filter
def money(amount, currency: str = ""):
    """{{ limit.min_stake|money:table.currency }} -> a right-aligned amount with its currency."""
    return money_html(amount, escaped(currency))


def money_html(amount, currency_html: str) -> SafeString:
    """`money` with the currency already escaped: for rows that show many amounts of one currency."""
    if amount is None:
        return SafeString('<span class="money">—</span>')
    return SafeString(
        f'<span class="money">{money_text(amount)} <span class="currency">{currency_html}</span></span>'
    )


@register.filter
def utc(moment):
    """{{ change.changed_at|utc }} -> "2026-03-01 14:05 UTC"."""
    return format_html(
        '<time datetime="{}">{}</time>', moment.isoformat() if moment else "", utc_text(moment)
    )


@register.filter
def chance(probability):
    """0.0746987 -> "7.4699 % (1 in 13.4)": a pattern's probability as a percentage and odds against."""
    if probability is None:
        return "—"
    if probability <= 0:
        return "0 %"
    return f"{probability * 100:.4f} % (1 in {1 / probability:,.1f})"


@register.filter
def pattern(name: str) -> str:
    """A side option pattern's name as a paytable writes it: "unsuited_6_7_8" -> "Unsuited 6 7 8"."""
    from tables.forms import pattern_label

    return pattern_label(name)


@register.simple_tag(takes_context=True)
def table_rows(context, table):
    """{% table_rows table as rows %}: a django-tables2 table's body rows, each a `<tr>` (see
    config/table_rows.py)."""
    return rows_of(table, context)
