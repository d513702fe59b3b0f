"""Reads about tables that more than one place needs."""

from datetime import datetime

from django.utils import timezone

from .models import Table, TableConfiguration


def configuration_in_force(table: Table, at: datetime | None = None) -> TableConfiguration | None:
    """The configuration version a round played at `at` (default: now) is checked against."""
    at = at or timezone.now()
    return table.configurations.filter(valid_from__lte=at).order_by("-valid_from").first()


def pending_configurations(table: Table):
    return table.configurations.filter(valid_from__gt=timezone.now()).order_by("valid_from")
