"""The daily job's charts on a real Celery worker, through the Redis broker, against PostgreSQL (as
in CI): the finish task draws the run's charts once, before its PDFs, and stores them with the run; a
run of figures only draws none."""

import pytest

from config.celery import app
from reports.models import ChartSubject, ReportChart, ReportDocument, RunStatus
from reports.services import report_run_start
from tests.reports.chart_support import days_played
from tests.reports.test_jobs_worker import finished

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def played_days_on_a_worker(settings, tmp_path):
    """Two played days, committed, and a worker in a thread of this process taking the broker's tasks."""
    from celery.contrib.testing import tasks  # noqa: F401  (registers celery.ping)
    from celery.contrib.testing.worker import start_worker

    settings.PITBOSS_REPORTS_DIR = tmp_path
    assert app.conf.task_always_eager is False
    played = days_played(2)
    app.control.purge()  # seed_demo's odds tasks: the played tables have theirs already
    with start_worker(app, perform_ping_check=True, ping_task_timeout=20, shutdown_timeout=30):
        yield played


def test_the_worker_stores_each_runs_charts_and_embeds_them_in_its_pdfs(played_days_on_a_worker):
    earlier, day = played_days_on_a_worker
    first = finished(report_run_start(day=earlier, trigger="command", figures_only=True))
    assert first.status == RunStatus.SUCCEEDED, first.error
    assert not ReportChart.objects.filter(run=first) and not ReportDocument.objects.filter(run=first)

    run = finished(report_run_start(day=day, trigger="command"))
    assert run.status == RunStatus.SUCCEEDED, run.error
    trend = ReportChart.objects.get(
        run=run, subject=ChartSubject.TREND, table__code="DLX1", kind="main", window_days=30
    )
    assert trend.days == 2 and trend.drawn and trend.svg.startswith("<?xml")
    assert ReportChart.objects.filter(run=run, subject=ChartSubject.HITS).exists()
    assert ReportDocument.objects.filter(run=run).count() == 2
