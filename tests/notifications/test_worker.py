"""Deliveries on a real Celery worker (Redis broker, PostgreSQL), each its own task on the
notifications queue: a slow receiver and a failing one never keep the others waiting."""

from decimal import Decimal

import pytest

from accounts.roles import SUPERVISOR
from accounts.services import user_create
from alerts.choices import Monitor
from alerts.services import alert_raise
from config.celery import app
from notifications.choices import DeliveryStatus
from notifications.models import Delivery
from notifications.services import endpoint_create
from tests.factories import table
from tests.notifications.support import (
    SLOW_SECONDS,
    mail_settings,
    smtp_server,
    wait_for,
    webhook_receiver,
)
from tests.second_factor_support import enrolled_if_required

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]
# Longer than the good deliveries take, shorter than the slow receiver's answer.
TIMEOUT_SECONDS = SLOW_SECONDS - 1


@pytest.fixture(scope="module")
def peers(tmp_path_factory):
    folder = tmp_path_factory.mktemp("peers")
    with smtp_server(folder) as smtp, webhook_receiver(folder / "receiver") as receiver:
        yield smtp, receiver


@pytest.fixture
def worker(settings, peers):
    from celery.contrib.testing import tasks  # noqa: F401  (registers celery.ping)
    from celery.contrib.testing.worker import start_worker

    mail_settings(settings, peers[0])
    settings.PITBOSS_WEBHOOK_TIMEOUT_SECONDS = TIMEOUT_SECONDS
    assert app.conf.task_always_eager is False
    app.control.purge()
    with start_worker(
        app, pool="threads", concurrency=4, perform_ping_check=True, ping_task_timeout=20, shutdown_timeout=30
    ):
        yield


def test_a_slow_and_a_failing_receiver_keep_no_other_delivery_waiting(worker, peers):
    smtp, receiver = peers
    cls1 = table("CLS1")
    owner = enrolled_if_required(
        user_create(username="sam", password="pw-sam", role=SUPERVISOR, email="sam@casino.example")
    )
    endpoints = {}
    for name, mode in (("slow", "slow"), ("failing", "failing"), ("good", "ok")):
        endpoints[name], secret = endpoint_create(owner=owner, name=name, url=receiver.url(mode, name))
        receiver.trust(name, secret)
    alert_raise(  # commits: its deliveries' tasks go to the broker
        table=cls1,
        monitor=Monitor.INGEST_BEHIND,
        measure=Decimal(150),
        threshold=Decimal(120),
        summary="Round R-9 arrived 150 s after it ended.",
    )
    slow = Delivery.objects.get(endpoint=endpoints["slow"])
    # The email and the good endpoint's body arrive while the slow receiver still keeps its delivery.
    wait_for(lambda: smtp.to("sam@casino.example"), timeout=TIMEOUT_SECONDS)
    wait_for(lambda: receiver.bodies("good"), timeout=TIMEOUT_SECONDS)
    wait_for(lambda: Delivery.objects.get(endpoint=endpoints["failing"]).status == DeliveryStatus.RETRYING)
    # The slow delivery may be the last the worker's threads take up (CI's busy machine): its body
    # comes, and it waits for the answer while the others are done.
    wait_for(lambda: receiver.bodies("slow"), timeout=TIMEOUT_SECONDS)
    slow.refresh_from_db()
    assert (slow.status, slow.attempts) == (DeliveryStatus.PENDING, 1)
    # Then the slow one times out, and is retried later.
    wait_for(lambda: Delivery.objects.get(pk=slow.pk).status == DeliveryStatus.RETRYING)
    slow.refresh_from_db()
    assert "timed out" in slow.last_error
    assert set(Delivery.objects.exclude(pk=slow.pk).values_list("endpoint__name", "status")) == {
        (None, DeliveryStatus.SENT),
        ("good", DeliveryStatus.SENT),
        ("failing", DeliveryStatus.RETRYING),
    }
