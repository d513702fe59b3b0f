"""Played days for the chart tests: seed_demo's tables, a shoe of simulated rounds a day through the
real ingest (DLX1 every day, CLS1 on the last day only, so that its trend has one day), and the daily
job run for each day: figures only for the earlier days, as `make demo` runs them."""

import json
from contextlib import contextmanager
from datetime import date, timedelta
from io import StringIO

from django.core.management import call_command

from blackjack.simulate import simulate
from config.celery import app
from core.gaming_day import gaming_day
from demo.management.commands.demo_day import _of_the_day
from reports.models import ReportRun, RunStatus
from reports.services import report_run_start
from reports.tasks import daily_report_job
from rounds.ingest import round_ingest
from tables.models import Table
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force

LAST_DAY = date(2026, 3, 2)
EVERY_DAY, LAST_DAY_ONLY = ("DLX1",), ("CLS1",)


def days_played(days: int = 3, last: date = LAST_DAY) -> list[date]:
    """The `days` gaming days up to `last`, played; returns them, oldest first."""
    call_command("seed_demo", stdout=StringIO())
    for code in EVERY_DAY + LAST_DAY_ONLY:
        configuration_odds_compute(configuration=configuration_in_force(Table.objects.get(code=code)))
    played = [last - timedelta(days=back) for back in range(days - 1, -1, -1)]
    for number, day in enumerate(played):
        start = gaming_day(day).starts_at + timedelta(hours=2)
        for code in EVERY_DAY + (LAST_DAY_ONLY if day == last else ()):
            table = Table.objects.get(code=code)
            for document in simulate(
                configuration_in_force(table, start).rule_set,
                table=code,
                shoes=1,
                players=3,
                seed=40 + number,
                start=start,
            ):
                round_ingest(document=_of_the_day(json.loads(json.dumps(document)), day))
    return played


@contextmanager
def eager_tasks():
    """Celery tasks run where they are sent, whatever the broker (a real one on PostgreSQL runs)."""
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def days_reported(played: list[date]) -> ReportRun:
    """The job for each day, eagerly: the earlier days' figures only, the last day's in full. Returns
    the last day's run."""
    with eager_tasks():
        for day in played:
            run = report_run_start(day=day, trigger="command", figures_only=day != played[-1])
            run.refresh_from_db()
            if run.status == RunStatus.RUNNING:  # inside a test's transaction, never committed
                daily_report_job.delay(run.pk)  # what the start queues when it commits
                run.refresh_from_db()
            assert run.status == RunStatus.SUCCEEDED, run.error
    return run
