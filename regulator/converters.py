from datetime import date

from django.urls import register_converter


class DayConverter:
    """A gaming day in a path, YYYY-MM-DD: a date, or no match (404)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)  # ValueError: the path does not match

    def to_url(self, value) -> str:
        return value.isoformat() if isinstance(value, date) else str(value)


# Once, here: the page's and the API's URLconfs both import this module.
register_converter(DayConverter, "day")
