"""Celery tasks of round history."""

from celery import shared_task

from .totals import player_totals_catch_up


@shared_task
def player_totals_catch_up_task() -> int:
    """For Celery beat: add the rounds stored since the last run to the players' day totals."""
    return player_totals_catch_up()
