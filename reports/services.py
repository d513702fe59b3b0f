"""Every write to report runs: starting the daily job for a gaming day, and recording its outcome.

The figures and PDFs themselves are written by the job's tasks (reports/tasks.py), which call
reports.daily and reports.pdf; these services only keep each run's record: who or what started
it, when, how long it took, how it ended, the checksum of its figures, and, when it succeeds, that
it supersedes the day's earlier runs (which stay as they were: `reports.records`); and the locks that
make each task of the job safe to deliver twice, in a row or at once (`report_run_lock`,
`report_run_table_lock`).
"""

import logging
from datetime import date, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from core.gaming_day import last_closed_gaming_day
from core.templatetags.pitboss import local_time_text
from outbox.services import task_send_on_commit

from .models import ReportRun, RunStatus, RunTrigger
from .sign_off import signed_run_of

logger = logging.getLogger(__name__)

# A run still "running" after this long lost its worker (acks_late redelivers a task, but not
# forever): the next start for its day records it as failed instead of being refused for ever.
RUN_ABANDONED_AFTER = timedelta(hours=2)
# The first key of the PostgreSQL advisory lock that serialises starts for one day (the second is
# the day); any fixed number no other code uses.
DAY_LOCK_CLASS = 6001


@transaction.atomic
def report_run_start(
    *, day: date, trigger: str, started_by=None, figures_only: bool = False, reason: str = ""
) -> ReportRun:
    """Record a run of the daily job for a closed gaming day and queue the job once it commits.
    `figures_only`: the run stores the day's figures and draws no chart, makes no PDF (`make demo`'s
    earlier days, there for the trend of the day it reports). `reason`: why the day is run again,
    kept on the run.

    Refused (ValidationError naming `day`) for a day that has not closed yet and for a day whose
    figures a run is computing right now; naming `reason` for a day compliance signed a run of,
    without one."""
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
    reason = (reason or "").strip()
    signed = signed_run_of(day)
    if signed is not None and not reason:
        sign_off = signed.sign_off
        raise ValidationError(
            {
                "reason": f"Run {signed.pk} of {day.isoformat()} was signed by {sign_off.signed_by} at "
                f"{local_time_text(sign_off.signed_at)}: say why the day is run again."
            }
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
        reason=reason,
    )
    from .tasks import daily_report_job  # the tasks call these services

    task_send_on_commit(daily_report_job, run.pk)
    return run


@transaction.atomic
def report_run_start_by_beat(*, day: date, attempts: int) -> ReportRun | None:
    """Celery beat's start of a closed day's run, decided under the day's lock, so that beat's task
    delivered twice at once starts one run: None when the day has a run that succeeded (a signed run
    among them: beat never needs a reason) or is running,
    or when `attempts` of the runs beat started for it failed (somebody has to look)."""
    _lock_day(day)
    runs = ReportRun.objects.filter(day=day)
    if runs.filter(status__in=[RunStatus.SUCCEEDED, RunStatus.RUNNING]).exists():
        return None
    if runs.filter(trigger=RunTrigger.BEAT, status=RunStatus.FAILED).count() >= attempts:
        logger.warning("Daily report for %s failed %s times; beat leaves it.", day, attempts)
        return None
    return report_run_start(day=day, trigger=RunTrigger.BEAT)


def report_run_tables_set(*, run_id: int, tables: int) -> bool:
    """Keep the number of tables the job fans out to on a running run. False once the run has ended
    (the job delivered again): it is left as it was, and there is nothing to fan out."""
    return bool(ReportRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(tables=tables))


def report_run_lock(run_id: int, *, shared: bool = False) -> ReportRun | None:
    """Lock the run's row until the current transaction ends; return the run while it is running, None
    once it has ended (a task delivered again, or a second delivery that waited here for the first).

    The finish locks it alone (FOR UPDATE): of two deliveries at once, the second waits here until the
    first has committed, then finds the run ended. Table tasks lock it `shared` (FOR SHARE): any number
    of them at once, but none beside the finish, so that no table's rows change while the finish reads
    them, nor after the run has ended. SQLite writes one transaction at a time anyway."""
    if transaction.get_autocommit():
        raise TransactionManagementError("report_run_lock holds its lock until the transaction ends.")
    runs = ReportRun.objects.filter(pk=run_id)
    if not shared:
        runs = runs.select_for_update()
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            table = connection.ops.quote_name(ReportRun._meta.db_table)
            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR SHARE", [run_id])
    run = runs.get()
    if run.status != RunStatus.RUNNING:
        logger.info("Daily report run %s has already ended (%s); nothing to do.", run_id, run.status)
        return None
    return run


def report_run_table_lock(*, run_id: int, table_id: int) -> None:
    """Wait until no other task is writing the run's rows of the table, and hold that until the current
    transaction ends: a table task delivered twice at once writes its rows once, then replaces them
    with the same (PostgreSQL advisory lock, one bigint key: the run's id in its high 32 bits, the
    table's in the low; `_lock_day`'s two-key locks are a space of their own)."""
    if transaction.get_autocommit():
        raise TransactionManagementError("report_run_table_lock holds its lock until the transaction ends.")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [run_id << 32 | table_id])


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
