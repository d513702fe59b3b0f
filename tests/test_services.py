"""The outside services really are there when configured: CI always runs these."""

import subprocess

import pytest
import redis
from django.conf import settings
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


@pytest.mark.redis
def test_the_broker_is_a_redis_that_answers():
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=5)
    assert client.ping() is True


@pytest.mark.redis
@pytest.mark.celery_worker
def test_a_real_worker_runs_a_task_through_the_broker():
    from celery.contrib.testing import tasks  # noqa: F401  (registers celery.ping)
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    assert app.conf.task_always_eager is False
    with start_worker(app, perform_ping_check=True, ping_task_timeout=20):
        pass  # start_worker sends celery.ping through the broker and waits for "pong".


@pytest.mark.browser
def test_chromium_runs():
    result = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "Chromium" in result.stdout
