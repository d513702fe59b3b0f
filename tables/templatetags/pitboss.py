"""Template filters shared by every page: money with its currency, bet kinds by their labels, times in
UTC with the zone shown."""

from datetime import UTC, datetime
from decimal import Decimal

from django import template

from config.html import format_html
from config.money import money as money_markup
from config.table_rows import table_rows as rows_of
from rounds.engine.rules import kind_label

register = template.Library()


def utc_text(moment: datetime | None) -> str:
    if moment is None:
        return "—"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def odds_text(odds: Decimal) -> str:
    """Decimal("10") -> "10", Decimal("2.50") -> "2.5" (never "1E+1"), whatever its size: a version
    stored before the bounds may hold odds like 1E+308."""
    text = format(Decimal(odds), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


@register.filter
def odds(value):
    return odds_text(value)


@register.filter
def money(amount, currency: str = ""):
    """{{ limit.min_stake|money:table.currency }} -> "2,500.00 EUR" as config/money.py shows money."""
    return money_markup(amount, currency)


@register.filter
def bet_kind(kind: str) -> str:
    """{{ bet.kind|bet_kind }} -> "21+3": a bet kind by its label."""
    return kind_label(kind)


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
