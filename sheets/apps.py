from django.apps import AppConfig


class SheetsConfig(AppConfig):
    """The players' rule sheets: made from a table's configuration, limits and odds (above tables and
    limits; nothing below imports it)."""

    name = "sheets"
    verbose_name = "Rule sheets"
