"""Filters every app's filtersets share (pages, API lists and CSV exports alike)."""

from datetime import UTC, datetime

import django_filters
from django import forms
from django_filters.fields import IsoDateTimeField

MAX_KEY = 2**63 - 1  # the largest id a database key holds (a 64-bit integer)


def positive_number(text: str | None, maximum: int = MAX_KEY) -> int | None:
    """A whole number from 1 to `maximum` written in ASCII digits, as a query names a row; else
    None. (str.isdigit() alone takes '²' and '①', which int() refuses: a server error.)"""
    if text and text.isascii() and text.isdigit() and 0 < int(text) <= maximum:
        return int(text)
    return None


def in_utc(moment: datetime) -> datetime | None:
    """An aware `moment` of a query in UTC, as the database should see it (PostgreSQL refuses an
    offset past 15:59, which Python allows); None when it is no date in UTC (0001-01-01T00:00+01:00)."""
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        return None


class UtcDateTimeField(IsoDateTimeField):
    """An ISO 8601 date and time, converted to UTC here: the database then never sees an offset
    it cannot take (PostgreSQL refuses +22:35, which Python allows), and a moment that is no
    date in UTC (0001-01-01T00:00+01:00) is refused, naming the field, instead of a server error.

    A time typed without an offset (2026-03-01T15:05) is read in the active time zone, as Django's
    DateTimeField reads one: on a page the user's (accounts.middleware.user_time_zone), in the API
    UTC. One the clocks of that zone skip or show twice is refused, naming the field and the zone."""

    def to_python(self, value):
        value = super().to_python(value)
        if value is None:
            return None
        moment = in_utc(value)
        if moment is None:
            raise forms.ValidationError(
                "Enter a date and time within the years 1 to 9999 in UTC.", code="invalid"
            )
        return moment


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcDateTimeField
