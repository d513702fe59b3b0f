"""The transactional outbox: a task follows its change exactly when the change commits, and a broker
outage delays it without failing the change (issue 15: creating a table with the broker down used to
answer 500 after 19 s, with the table stored, and the client's retry then got "code already taken")."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone

from outbox.models import OutboxMessage
from outbox.services import outbox_drain
from tables.models import ConfigurationOdds, Table
from tests.factories import table, user

# A port nothing listens on: the broker is "down".
UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"
PORTAL_POST = """
import json, time
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

client = Client()
client.force_login(get_user_model().objects.get(username="supervisor-user"))
started = time.perf_counter()
response = client.post(reverse("tables:table_create"), {
    "code": "NEW1", "name": "New table", "game": "classic", "currency": "EUR", "studio": "Studio B",
    "dealer": "Ana", "reason": "A new studio table",
})
print(json.dumps({"status": response.status_code, "seconds": time.perf_counter() - started}))
"""


@pytest.mark.django_db
def test_a_rolled_back_change_leaves_no_task_behind(django_capture_on_commit_callbacks):
    supervisor = user("supervisor")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            table("DLX1")
            raise RuntimeError("the change fails after its task was queued")
    assert callbacks == []
    assert not OutboxMessage.objects.exists()
    assert not Table.objects.exists() and supervisor.pk


@pytest.mark.django_db
def test_a_committed_change_sends_its_task_once(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = table("CLS1")
    message = OutboxMessage.objects.get()
    assert message.task == "tables.tasks.configuration_odds"
    assert message.args == [created.configurations.get().pk]
    assert message.sent_at is not None and message.attempts == 1 and message.last_error == ""
    assert ConfigurationOdds.objects.filter(configuration__table=created).exists()
    # Nothing is left for the drain, so nothing runs twice.
    OutboxMessage.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert outbox_drain() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_broker_outage_delays_the_odds_and_never_fails_the_change():
    user("supervisor")  # committed: the portal in the other process signs in as this user
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": _this_test_database_url(),
        "CELERY_BROKER_URL": UNREACHABLE_BROKER,
        "ALLOWED_HOSTS": "testserver",
        "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
    }
    finished = subprocess.run(
        [sys.executable, "-c", PORTAL_POST], env=environment, capture_output=True, text=True, timeout=120
    )
    assert finished.returncode == 0, finished.stderr
    answer = json.loads(finished.stdout.strip().splitlines()[-1])
    assert answer["status"] == 302, answer  # the table page, not a 500
    print(f"table created with the broker down in {answer['seconds']:.1f} s")

    created = Table.objects.get(code="NEW1")
    message = OutboxMessage.objects.get()
    assert message.sent_at is None and message.attempts == 1
    assert "111" in message.last_error or "refused" in message.last_error.lower()
    assert not ConfigurationOdds.objects.filter(configuration__table=created).exists()

    # The broker is back (here: Celery runs eagerly): the beat's drain sends it, once.
    assert outbox_drain() == 0  # younger than DRAIN_AFTER: left to its own commit's send
    OutboxMessage.objects.update(created_at=timezone.now() - timedelta(minutes=1))
    assert outbox_drain() == 1
    assert outbox_drain() == 0
    message.refresh_from_db()
    assert message.sent_at is not None and message.attempts == 2
    assert ConfigurationOdds.objects.filter(configuration__table=created).exists()


def _this_test_database_url() -> str:
    settings = connection.settings_dict
    host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    return f"postgres://{settings['USER']}{password}@{host}:{port}/{settings['NAME']}"
