"""Celery tasks of round history."""

from celery import shared_task

from .totals import player_totals_catch_up


@shared_task
def player_totals_catch_up_task() -> int:
    """For Celery beat: add the rounds stored since the last run to the players' day totals."""
    return player_totals_catch_up()


@shared_task
def partitions_ahead_task() -> list[str]:
    """For Celery beat: this month's and the next months' partitions of round history, created
    where missing (PostgreSQL; nothing elsewhere). Returns the names of those created."""
    from django.db import connection
    from django.utils import timezone

    from .partitions import partitions_ahead

    if connection.vendor != "postgresql":
        return []
    return partitions_ahead(timezone.localdate())
