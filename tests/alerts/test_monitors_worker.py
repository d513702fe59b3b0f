"""The monitors and the escalation on a real Celery worker, through the Redis broker, against
PostgreSQL (as in CI and production, where beat sends them each minute)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from alerts.choices import AlertEventKind, Monitor, Severity
from alerts.models import Alert
from alerts.tasks import alerts_escalate_task, monitors_run_task
from config.celery import app
from tables.models import Table
from tests.alerts.support import deal
from tests.rounds.corrections_support import demo

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]
__all__ = ["demo"]  # the fixture, used by name
TIMEOUT = 60


@pytest.fixture
def worker(demo):
    from celery.contrib.testing import tasks  # noqa: F401  (registers celery.ping)
    from celery.contrib.testing.worker import start_worker

    assert app.conf.task_always_eager is False
    app.control.purge()
    with start_worker(app, perform_ping_check=True, ping_task_timeout=20, shutdown_timeout=30):
        yield


def test_the_worker_runs_the_monitors_and_escalates(worker, settings):
    # BND1 dealt until 12 minutes ago (a warning: under twice the 10 minutes); every demo table is
    # Open and silent.
    deal("BND1", "WORKER", 5, ending=timezone.now() - timedelta(minutes=12))
    open_tables = Table.objects.filter(status="open").count()
    assert monitors_run_task.delay().get(timeout=TIMEOUT) == open_tables
    assert monitors_run_task.delay().get(timeout=TIMEOUT) == open_tables
    silent = Alert.objects.filter(monitor=Monitor.SILENT_TABLE)
    assert silent.count() == open_tables  # repeats add to each table's one alert
    assert {alert.occurrences for alert in silent} == {2}
    # Nobody acknowledged: once due, the worker escalates the warnings.
    warnings = silent.filter(severity=Severity.WARNING)
    assert warnings.exists()
    warnings.update(escalate_at=timezone.now() - timedelta(seconds=1))
    escalated = warnings.count()
    assert alerts_escalate_task.delay().get(timeout=TIMEOUT) == escalated
    assert Alert.objects.filter(events__kind=AlertEventKind.ESCALATED).count() == escalated
    assert not silent.filter(severity=Severity.WARNING).exists()
