"""Tasks timed and failures counted (core/task_metrics.py) on a real Celery worker, through the Redis
broker, against PostgreSQL; read from /metrics, with the heartbeat's age it recorded."""

import time

import pytest
from django.test import Client

from config.celery import app
from outbox.models import WorkerBeat
from outbox.tasks import worker_beat_task
from tests.metrics.support import samples, value

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]
TIMEOUT = 60
TASK = "outbox.tasks.worker_beat_task"


@pytest.fixture
def worker():
    from celery.contrib.testing import tasks  # noqa: F401  (registers celery.ping)
    from celery.contrib.testing.worker import start_worker

    assert app.conf.task_always_eager is False
    app.control.purge()
    with start_worker(app, perform_ping_check=True, ping_task_timeout=20, shutdown_timeout=30):
        yield


def scrape() -> dict:
    response = Client(REMOTE_ADDR="127.0.0.1").get("/metrics")
    assert response.status_code == 200
    return samples(response.content.decode())


def scraped_once(name: str, reached: float, **labels) -> dict:
    """The scrape once `name` has reached `reached`: the task's end is signalled after its result is
    stored, so the caller may see the result first."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        scraped = scrape()
        if value(scraped, name, **labels) >= reached or time.monotonic() > deadline:
            return scraped
        time.sleep(0.05)


def test_a_task_that_runs_and_one_that_fails_on_the_worker(worker):
    before = scrape()
    ran_before = value(before, "pitboss_task_duration_seconds_count", task=TASK)
    failed_before = value(before, "pitboss_task_failures_total", task=TASK)

    worker_beat_task.apply_async(args=["celery"], ignore_result=False).get(timeout=TIMEOUT)
    assert WorkerBeat.objects.filter(queue="celery").exists()
    # A queue Celery does not know: the task refuses it.
    failed = worker_beat_task.apply_async(args=["no-such-queue"], ignore_result=False)
    with pytest.raises(ValueError, match="no-such-queue"):
        failed.get(timeout=TIMEOUT)

    after = scraped_once("pitboss_task_duration_seconds_count", ran_before + 2, task=TASK)
    assert value(after, "pitboss_task_duration_seconds_count", task=TASK) == ran_before + 2
    assert value(after, "pitboss_task_duration_seconds_sum", task=TASK) > value(
        before, "pitboss_task_duration_seconds_sum", task=TASK
    )
    assert value(after, "pitboss_task_failures_total", task=TASK) == failed_before + 1
    assert 0 <= value(after, "pitboss_worker_last_beat_age_seconds", queue="celery") < 300
