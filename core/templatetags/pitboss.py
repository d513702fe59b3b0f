"""Template filters shared by every page: money with its currency, bet kinds by their labels, times in
the user's time zone with UTC on hover. The markup is in templates/components/."""

from datetime import UTC, datetime
from decimal import Decimal

from django import template
from django.template.loader import get_template
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.text import format_lazy

from blackjack.rules import kind_label, pattern_label
from core import money as amounts

register = template.Library()

TIME_TEMPLATE = "components/time.html"
LOCAL_TIME_FORMAT = "%Y-%m-%d %H:%M %Z"  # the zone's abbreviation, or its offset where it has none


@register.filter
def utc_text(moment: datetime | None) -> str:
    """{{ round.reviewed_at|utc_text }} -> "2026-03-01 14:05 UTC", as plain text (a title)."""
    if not moment:
        return "—"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


@register.filter
def local_time_text(moment: datetime | None) -> str:
    """{{ round.reviewed_at|local_time_text }} -> "2026-03-01 15:05 CET", as plain text: in the time
    zone active for the request (the user's: accounts.middleware.user_time_zone), with its abbreviation,
    or its offset ("+04") where the zone has none."""
    if not moment:
        return "—"
    return timezone.localtime(moment).strftime(LOCAL_TIME_FORMAT)


@register.filter
def local_time(moment):
    """{{ change.changed_at|local_time }} -> "2026-03-01 15:05 CET" in components/time.html: the time
    in the request's zone, its ISO 8601 form with offset for machines, UTC on hover."""
    if not moment:
        return get_template(TIME_TEMPLATE).render({"iso": "", "text": "—", "utc": ""})
    local = timezone.localtime(moment)
    context = {"iso": local.isoformat(), "text": local.strftime(LOCAL_TIME_FORMAT), "utc": utc_text(moment)}
    return get_template(TIME_TEMPLATE).render(context)


def zoned_label(text: str):
    """A form label naming the time zone a typed time is read in, when shown: "Opened from
    (Europe/Malta)" on a page, "(UTC)" in the API, which reads times in UTC."""
    return format_lazy("{} ({})", text, lazy(timezone.get_current_timezone_name, str)())


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
    """{{ limit.min_stake|money:table.currency }} -> "2,500.00 EUR" in components/money.html."""
    return amounts.money(amount, currency)


@register.filter
def money_text(amount) -> str:
    """{{ amount|money_text }} -> "2,500.00": the amount alone, as core/money.py reads it."""
    return amounts.money_text(amount)


@register.filter
def bet_kind(kind: str) -> str:
    """{{ bet.kind|bet_kind }} -> "21+3": a bet kind by its label."""
    return kind_label(kind)


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
    return pattern_label(name)


@register.filter
def thousands(number) -> str:
    """A count with thousands separators, whatever the locale: 12345 -> "12,345"; None -> "—"."""
    if number is None or number == "":
        return "—"
    return f"{int(number):,}"
