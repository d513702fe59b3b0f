"""Every write to report runs: starting the daily job for a gaming day, and recording its outcome.

The figures and PDFs themselves are written by the job's tasks (reports/tasks.py), which call
reports.daily and reports.pdf; these services only keep each run's record: who or what started
it, when, how long it took, how it ended, the checksum of its figures, and, when it succeeds, that
it supersedes the day's earlier runs (which stay as they were: `reports.records`).
"""

from datetime import date, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from config.gaming_day import last_closed_gaming_day
from outbox.services import task_send_on_commit

from .models import ReportRun, RunStatus, RunTrigger

# A run still "running" after this long lost its worker (acks_late redelivers a task, but not
# forever): the next start for its day records it as failed instead of being refused for ever.
RUN_ABANDONED_AFTER = timedelta(hours=2)
# The first key of the PostgreSQL advisory lock that serialises starts for one day (the second is
# the day); any fixed number no other code uses.
DAY_LOCK_CLASS = 6001


@transaction.atomic
def report_run_start(*, day: date, trigger: str, started_by=None, figures_only: bool = False) -> ReportRun:
    """Record a run of the daily job for a closed gaming day and queue the job once it commits.
    `figures_only`: the run stores the day's figures and draws no chart, makes no PDF (`make demo`'s
    earlier days, there for the trend of the day it reports).

    Refused (ValidationError naming `day`) for a day that has not closed yet and for a day whose
    figures a run is computing right now."""
    if trigger not in RunTrigger.values:
        raise ValidationError(
            {"trigger": f"Unknown trigger {trigger!r}: one of {', '.join(RunTrigger.values)}."}
        )
    last_closed = last_closed_gaming_day()
    if day > last_closed:
        message = (
            f"The gaming day {day.isoformat()} has not closed yet; the last closed one is {last_closed}."
        )
        raise ValidationError({"day": message})
    _lock_day(day)
    _abandoned_runs_fail(day)
    running = ReportRun.objects.filter(day=day, status=RunStatus.RUNNING).first()
    if running is not None:
        raise ValidationError(
            {"day": f"Run {running.pk} for {day.isoformat()} is still running; wait for it to finish."}
        )
    numbered = ReportRun.objects.filter(day=day).aggregate(last=Max("number"))["last"] or 0
    run = ReportRun.objects.create(
        day=day,
        number=numbered + 1,
        trigger=trigger,
        started_by=started_by,
        time_zone=settings.PITBOSS_GAMING_DAY_TIME_ZONE,
        cutoff=settings.PITBOSS_GAMING_DAY_CUTOFF,
        figures_only=figures_only,
    )
    from .tasks import daily_report_job  # the tasks call these services

    task_send_on_commit(daily_report_job, run.pk)
    return run


def report_run_tables_set(*, run_id: int, tables: int) -> None:
    ReportRun.objects.filter(pk=run_id).update(tables=tables)


def report_run_figures_seal(*, run_id: int) -> str:
    """Keep the checksum of the run's figures on it, once they are all written (before its PDFs)."""
    from .records import figures_digest

    digest = figures_digest(ReportRun.objects.get(pk=run_id))
    ReportRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(figures_sha256=digest)
    return digest


@transaction.atomic
def report_run_finish(*, run_id: int) -> bool:
    """Mark a running run succeeded, superseding the day's earlier succeeded runs (which keep their
    figures and PDFs). False when it had already ended (a failed table task)."""
    now = timezone.now()
    ended = ReportRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(
        status=RunStatus.SUCCEEDED, finished_at=now, error=""
    )
    if ended:
        run = ReportRun.objects.get(pk=run_id)
        ReportRun.objects.filter(
            day=run.day, status=RunStatus.SUCCEEDED, superseded_by__isnull=True, pk__lt=run.pk
        ).update(superseded_by=run, superseded_at=now)
    return bool(ended)


def report_run_fail(*, run_id: int, error: str) -> bool:
    """Mark a running run failed with `error`. The first failure is kept: when several table tasks
    fail, the later ones find the run already ended and change nothing (False)."""
    ended = ReportRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(
        status=RunStatus.FAILED, finished_at=timezone.now(), error=error
    )
    return bool(ended)


def _lock_day(day: date) -> None:
    """Two starts for one day at the same moment (beat and a person): the second waits here for the
    first to commit, then sees its run. SQLite writes one transaction at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [DAY_LOCK_CLASS, day.toordinal()])


def _abandoned_runs_fail(day: date) -> None:
    ReportRun.objects.filter(
        day=day, status=RunStatus.RUNNING, started_at__lt=timezone.now() - RUN_ABANDONED_AFTER
    ).update(
        status=RunStatus.FAILED,
        finished_at=timezone.now(),
        error=f"No outcome after {RUN_ABANDONED_AFTER}: its worker was lost.",
    )
