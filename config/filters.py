"""Filters every app's filtersets share (pages, API lists and CSV exports alike)."""

from datetime import UTC

import django_filters
from django import forms
from django_filters.fields import IsoDateTimeField


class UtcDateTimeField(IsoDateTimeField):
    """An ISO 8601 date and time, converted to UTC here: the database then never sees an offset
    it cannot take (PostgreSQL refuses +22:35, which Python allows), and a moment that is no
    date in UTC (0001-01-01T00:00+01:00) is refused, naming the field, instead of a server error."""

    def to_python(self, value):
        value = super().to_python(value)
        if value is None:
            return None
        try:
            return value.astimezone(UTC)
        except OverflowError:
            raise forms.ValidationError(
                "Enter a date and time within the years 1 to 9999 in UTC.", code="invalid"
            ) from None


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcDateTimeField
