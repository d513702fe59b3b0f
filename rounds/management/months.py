"""How the management commands read a month typed on the command line."""

from datetime import date

from django.core.management.base import CommandError


def month_argument(text: str) -> date:
    """`2026-03` as the first day of that month; anything else a CommandError saying how to write it."""
    try:
        year, month = (int(part) for part in text.split("-"))
        return date(year, month, 1)
    except ValueError:
        raise CommandError(f"{text!r} is not a month: write it YYYY-MM, as 2026-03.") from None
