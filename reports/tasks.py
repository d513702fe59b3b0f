"""Celery tasks of the daily reports.

The job for one run (one gaming day) fans out one task per table and gathers them:

    daily_report_job(run_id)
      └─ chord(group(daily_report_table(run_id, table_id) for every table),
               daily_report_finish(table_results, run_id))   totals, figures' checksum, the charts,
                                                             both PDFs, run succeeded (the day's
                                                             earlier runs superseded)

Every task can be delivered twice, in a row or at once (acks_late delivers a task again when its
worker is lost before acknowledging it; the outbox sends a message again when a process dies after
sending it): the run still ends succeeded once, with one set of figures, charts and PDFs, as the
day's current run. A task finds the run ended in a conditional UPDATE or under a lock on the run's
row (`services.report_run_lock`) and then does nothing; a table task holds that row shared, and its
table's lock (`services.report_run_table_lock`) while it replaces its rows; the finish holds the row
alone, from the totals to the run marked succeeded, in one transaction, so that a second finish
waits for the first and then finds the run ended; beat decides under the day's lock. A job delivered
twice while its run is running fans out twice: the same work twice, the result once. On a worker, a
database OperationalError is retried with exponential backoff; any other failure, or the last
retry's, marks the run failed with the error ("Table CLS1: ValueError: ..."), and the chord then
never calls the finish task. Run eagerly (no broker) there is no retry. Celery beat calls
daily_reports_when_day_closed every few minutes; it starts the run of the last closed gaming day
once.
"""

import logging
from contextlib import contextmanager
from dataclasses import dataclass

from celery import chain, chord, current_app, group, shared_task
from django.core.exceptions import ValidationError
from django.db import OperationalError, transaction

from core.gaming_day import last_closed_gaming_day
from rounds.totals import player_totals_catch_up
from tables.models import Table

from .models import ReportRun, RunStatus
from .services import (
    report_run_fail,
    report_run_figures_seal,
    report_run_finish,
    report_run_lock,
    report_run_start_by_beat,
    report_run_table_lock,
    report_run_tables_set,
)

logger = logging.getLogger(__name__)

RETRY_ON_DATABASE_ERRORS = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,  # 1 s, 2 s, 4 s, ... each with jitter, at most retry_backoff_max
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 5,
}
# Beat starts a day again after a failed run (a database restart, say), but not endlessly: after
# this many failed beat runs for one day somebody has to look, and start it by hand.
BEAT_ATTEMPTS_PER_DAY = 3


@dataclass
class _Step:
    """What a task is doing, for the run's error message ("Table DLX1: ...")."""

    name: str


def _will_retry(task, error: Exception) -> bool:
    """Whether autoretry_for will run the task again after a backoff. Run eagerly with propagation
    (no broker, and in tests) Celery raises the retry instead of running it: that is a failure."""
    if not isinstance(error, OperationalError):
        return False
    if task.request.is_eager and task.app.conf.task_eager_propagates:
        return False
    return task.request.retries < task.max_retries


@contextmanager
def _failure_recorded(task, run_id: int, step: _Step):
    try:
        yield
    except Exception as error:
        if _will_retry(task, error):
            raise
        try:
            report_run_fail(run_id=run_id, error=f"{step.name}: {type(error).__name__}: {error}")
        except Exception:
            logger.exception("Could not record the failure of daily report run %s", run_id)
        raise


def chords_possible() -> bool:
    """A chord counts its finished parts in the result backend; without one (an AMQP broker, whose
    results are not kept) the job runs its tables one after another instead. Eagerly, it needs none."""
    return bool(current_app.conf.task_always_eager or current_app.conf.result_backend)


def _run_in_progress(run_id: int) -> ReportRun | None:
    """The run, unless it has already ended: a task delivered again after the run ended does nothing.
    A first look, without a lock: each task looks again, under a lock or in a conditional UPDATE,
    before it writes."""
    run = ReportRun.objects.get(pk=run_id)
    if run.status != RunStatus.RUNNING:
        logger.info("Daily report run %s has already ended (%s); nothing to do.", run_id, run.status)
        return None
    return run


@shared_task(bind=True, **RETRY_ON_DATABASE_ERRORS)
def daily_report_job(self, run_id: int) -> int:
    """Fan the run out to one task per table; the finish task gathers them. Returns the table count,
    0 when the run had ended (the job delivered again)."""
    with _failure_recorded(self, run_id, _Step("Starting the job")):
        if _run_in_progress(run_id) is None:
            return 0
        table_ids = list(Table.objects.order_by("code").values_list("pk", flat=True))
        if not report_run_tables_set(run_id=run_id, tables=len(table_ids)):
            return 0
        finish = daily_report_finish.s(run_id)
        if not table_ids:
            finish.delay([])
        elif chords_possible():
            chord(group(daily_report_table.s(run_id, table_id) for table_id in table_ids), finish).delay()
        else:
            tables = [daily_report_table.si(run_id, table_id) for table_id in table_ids]
            chain(*tables, daily_report_finish.si([], run_id)).delay()
        return len(table_ids)


@shared_task(bind=True, **RETRY_ON_DATABASE_ERRORS)
def daily_report_table(self, run_id: int, table_id: int) -> str | None:
    """Write (or, delivered again, replace) the run's figures, summary and exposure rows of one table.
    Returns its code; None when the run had ended."""
    from .daily import table_day_compute

    step = _Step(f"Table id {table_id}")
    with _failure_recorded(self, run_id, step):
        if _run_in_progress(run_id) is None:
            return None
        player_totals_catch_up()  # before the locks: its batches commit as they go
        with transaction.atomic():
            run = report_run_lock(run_id, shared=True)
            if run is None:
                return None
            table = Table.objects.get(pk=table_id)
            step.name = f"Table {table.code}"
            report_run_table_lock(run_id=run_id, table_id=table_id)
            table_day_compute(table=table, day=run.day, run=run, caught_up=True)
        return table.code


@shared_task(bind=True, **RETRY_ON_DATABASE_ERRORS)
def daily_report_finish(self, table_codes: list, run_id: int) -> dict | None:
    """After every table: the totals per game and currency, the figures' checksum, the charts, both
    PDFs, and the run marked succeeded, all in one transaction holding the run's row. Returns the run,
    its day and its PDFs; None when the run had ended (a second delivery finds it so)."""
    from .daily import totals_compute
    from .pdf import documents_render
    from .run_charts import report_charts_draw

    step = _Step("Totals per game and currency")
    with _failure_recorded(self, run_id, step):
        if _run_in_progress(run_id) is None:
            return None
        player_totals_catch_up()  # before the lock: its batches commit as they go
        with transaction.atomic():
            run = report_run_lock(run_id)
            if run is None:
                return None
            totals_compute(day=run.day, run=run, caught_up=True)
            step.name = "Checksum of the figures"
            run.figures_sha256 = report_run_figures_seal(run_id=run_id)
            step.name = "Charts"
            report_charts_draw(run)
            step.name = "PDFs"
            documents = documents_render(run)
            report_run_finish(run_id=run_id)
        return {"run": run_id, "day": run.day.isoformat(), "pdfs": [document.path for document in documents]}


@shared_task(bind=True, **RETRY_ON_DATABASE_ERRORS)
def signed_documents_task(self, run_id: int) -> list[str]:
    """After compliance signed the run (sign_off.report_sign queues it on commit through the outbox):
    the signed edition of its PDFs, new files beside the first. Rendering takes seconds, hence a task,
    not the sign-off's request. Holds the run's row while it writes: delivered twice, in a row or at
    once, the second finds the edition made and makes none. Returns the new files."""
    from .pdf import signed_documents_render

    with transaction.atomic():
        run = ReportRun.objects.select_for_update().get(pk=run_id)
        return [document.path for document in signed_documents_render(run)]


@shared_task
def daily_reports_when_day_closed() -> int | None:
    """For Celery beat: start the run of the last closed gaming day, unless one has succeeded or is
    running (decided under the day's lock: delivered twice at once, one run). Returns the new run's
    id, or None when there was nothing to start."""
    try:
        run = report_run_start_by_beat(day=last_closed_gaming_day(), attempts=BEAT_ATTEMPTS_PER_DAY)
    except ValidationError:
        return None  # report_run_start refused the day: nothing started
    return None if run is None else run.pk
