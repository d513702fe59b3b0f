"""The daily job on a real Celery worker, through the Redis broker, against PostgreSQL (as in CI):
the chord fans out per table and gathers, running the day twice gives the second run the same rows
as the first (which it supersedes, keeping them), and a
database error is retried with backoff (the worker runs in a thread of this process, so the tests'
monkeypatching reaches its tasks)."""

import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import OperationalError

import reports.daily
from config.celery import app
from reports.models import ReportDocument, ReportRun, RunStatus
from reports.services import report_run_start
from reports.tasks import daily_report_table
from tests.reports.test_jobs import DAY, demo_day_ingest, stored_rows

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]
RUN_TIMEOUT = 180


def finished(run: ReportRun) -> ReportRun:
    deadline = time.monotonic() + RUN_TIMEOUT
    while run.status == RunStatus.RUNNING and time.monotonic() < deadline:
        time.sleep(0.2)
        run.refresh_from_db()
    return run


@pytest.fixture
def played_day_on_a_worker(settings, tmp_path):
    """The played day, committed, and a worker in a thread of this process taking the broker's tasks."""
    from celery.contrib.testing import tasks  # noqa: F401  (registers celery.ping)
    from celery.contrib.testing.worker import start_worker

    settings.PITBOSS_REPORTS_DIR = tmp_path
    assert app.conf.task_always_eager is False
    assert demo_day_ingest() > 0
    # seed_demo queued each new configuration's odds when it committed; the tables played here have
    # theirs already (demo_day_ingest), so the worker starts on an empty queue (this test process's
    # own: tests/conftest.py).
    app.control.purge()
    with start_worker(app, perform_ping_check=True, ping_task_timeout=20, shutdown_timeout=30):
        yield DAY


def test_the_job_on_a_real_worker_twice_gives_the_same_rows_for_each_run(played_day_on_a_worker):
    first = finished(report_run_start(day=played_day_on_a_worker, trigger="command"))
    assert first.status == RunStatus.SUCCEEDED, first.error
    assert first.tables == 4 and first.seconds > 0
    rows = stored_rows(first)
    assert rows["DailyFigures"] and rows["DailyTableSummary"] and rows["DailyExposure"]
    pages = dict(ReportDocument.objects.filter(run=first).values_list("kind", "pages"))

    # The second time as an operator would: manage.py report waits for the worker's outcome.
    out = StringIO()
    call_command(
        "report", "daily", "--date", played_day_on_a_worker.isoformat(), "--timeout", "180", stdout=out
    )
    second = ReportRun.objects.latest("pk")
    assert second.status == RunStatus.SUCCEEDED, second.error
    assert f"Run {second.pk} succeeded in {second.seconds:.1f} s (4 tables)." in out.getvalue()
    assert stored_rows(second) == rows == stored_rows(first)
    assert dict(ReportDocument.objects.filter(run=second).values_list("kind", "pages")) == pages
    assert set(ReportDocument.objects.values_list("run", flat=True)) == {first.pk, second.pk}
    first.refresh_from_db()
    assert first.superseded_by == second and first.figures_sha256 == second.figures_sha256


def test_a_database_error_is_retried_with_backoff_and_the_run_then_succeeds(
    played_day_on_a_worker, monkeypatch
):
    real = reports.daily.table_day_compute
    attempts = []

    def table_day_compute(*, table, day, run, **options):
        attempts.append(table.code)
        if table.code == "CLS1" and attempts.count("CLS1") < 3:
            raise OperationalError("server closed the connection unexpectedly")
        real(table=table, day=day, run=run, **options)

    monkeypatch.setattr(reports.daily, "table_day_compute", table_day_compute)
    run = finished(report_run_start(day=played_day_on_a_worker, trigger="command"))
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert attempts.count("CLS1") == 3 and attempts.count("DLX1") == 1


def test_a_database_error_that_lasts_fails_the_run_after_the_last_retry(played_day_on_a_worker, monkeypatch):
    attempts = []

    def table_day_compute(*, table, day, run, **options):
        attempts.append(table.code)
        if table.code == "CLS1":
            raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(reports.daily, "table_day_compute", table_day_compute)
    monkeypatch.setattr(daily_report_table, "max_retries", 2)  # backoffs of up to 1 s and 2 s
    run = finished(report_run_start(day=played_day_on_a_worker, trigger="command"))
    assert run.status == RunStatus.FAILED
    assert run.error == "Table CLS1: OperationalError: the database system is shutting down"
    assert attempts.count("CLS1") == 3
    assert not ReportDocument.objects.exists()
