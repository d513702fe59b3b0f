"""Webhooks to a real receiver on loopback (receiver.py) that verifies each signature: a delivery
verified and stored; a rotated secret signing beside the new one through its grace period only;
a failing receiver retried with backoff, given up after the last attempt, and retried by hand."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.roles import SUPERVISOR
from accounts.services import user_create
from alerts.choices import Monitor, Severity
from alerts.services import alert_raise
from core.refusals import TransitionRefused
from notifications.choices import Channel, DeliveryStatus
from notifications.models import Delivery
from notifications.services import (
    ATTEMPTS,
    BACKOFF_MINUTES,
    delivery_retry,
    endpoint_create,
    endpoint_deactivate,
    endpoint_rotate,
    retries_due,
    send_test,
    signing_secrets,
)
from notifications.tasks import deliveries_retry_task
from tables.models import Table
from tests.factories import table
from tests.notifications.support import WEBHOOK_TIMEOUT_SECONDS, webhook_receiver
from tests.second_factor_support import enrolled_if_required

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def receiver(tmp_path_factory):
    with webhook_receiver(tmp_path_factory.mktemp("receiver")) as running:
        yield running


@pytest.fixture(autouse=True)
def webhooks_on(settings):
    settings.PITBOSS_NOTIFICATIONS = True
    settings.PITBOSS_BASE_URL = "https://pitboss.tests.example"
    settings.PITBOSS_WEBHOOK_TIMEOUT_SECONDS = WEBHOOK_TIMEOUT_SECONDS


@pytest.fixture
def owner(db):
    table("CLS1")
    return enrolled_if_required(
        user_create(username="sam", password="pw-sam", role=SUPERVISOR, email="sam@casino.example")
    )


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run `change()`, then what its transaction's commit sends (tasks run eagerly here)."""

    def run(change, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return change(*args, **kwargs)

    return run


def hook(receiver, owner, name: str, mode: str = "ok", **choices):
    endpoint, secret = endpoint_create(owner=owner, name=name, url=receiver.url(mode, name), **choices)
    receiver.trust(name, secret)
    return endpoint, secret


def raise_ingest_behind(committed, measure=150):
    return committed(
        alert_raise,
        table=Table.objects.get(code="CLS1"),
        monitor=Monitor.INGEST_BEHIND,
        measure=Decimal(measure),
        threshold=Decimal(120),
        summary=f"Round R-9 arrived {measure} s after it ended.",
        figures={"round": "R-9", "seconds": measure},
    )


def webhook_deliveries(endpoint):
    return Delivery.objects.filter(endpoint=endpoint, channel=Channel.WEBHOOK)


def test_an_alert_is_posted_signed_and_verified(receiver, owner, committed):
    endpoint, secret = hook(receiver, owner, "good")
    critical_only, _ = hook(receiver, owner, "critical", severity=Severity.CRITICAL)
    elsewhere, _ = hook(receiver, owner, "elsewhere", tables=[table("DLX1")])
    assert len(secret) == 64 and endpoint.secret == secret
    alert = raise_ingest_behind(committed)
    (body,) = receiver.bodies("good")
    (delivery,) = webhook_deliveries(endpoint)
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 1) and delivery.sent_at
    assert body["type"] == "alert.raised" and body["id"] == delivery.pk
    assert body["alert"] | {"first_seen": "", "last_seen": ""} == {
        "id": alert.pk,
        "table": "CLS1",
        "monitor": "ingest_behind",
        "monitor_label": "Ingest behind",
        "subject": "",
        "severity": "warning",
        "status": "open",
        "summary": "Round R-9 arrived 150 s after it ended.",
        "measure": "150.0000",
        "threshold": "120.0000",
        "first_seen": "",
        "last_seen": "",
        "occurrences": 1,
        "figures": {"round": "R-9", "seconds": 150},
        "url": f"https://pitboss.tests.example/alerts/{alert.pk}/",
    }
    assert not webhook_deliveries(critical_only).exists() and not webhook_deliveries(elsewhere).exists()
    # Worse: an endpoint follows the alert's severity, and the critical-only one hears of it now.
    raise_ingest_behind(committed, measure=400)
    assert [body["type"] for body in receiver.bodies("good")] == ["alert.raised", "alert.worsened"]
    assert [body["alert"]["severity"] for body in receiver.bodies("critical")] == ["critical"]
    assert receiver.refused("good") == 0
    # Deactivated, it is sent nothing more.
    endpoint_deactivate(endpoint=endpoint, by=owner)
    committed(send_test, user=owner)
    assert len(receiver.bodies("good")) == 2
    with pytest.raises(TransitionRefused):
        endpoint_rotate(endpoint=endpoint, by=owner)


def test_an_endpoint_is_checked(owner):
    with pytest.raises(ValidationError) as refused:
        endpoint_create(owner=owner, name="x", url="ftp://example.com/")
    assert "url" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        endpoint_create(owner=owner, name="x", url="https://example.com/", monitors=["nope"])
    assert "monitors" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        endpoint_create(owner=owner, name=" ", url="https://example.com/")
    assert "name" in refused.value.message_dict


def test_a_rotated_secret_signs_beside_the_new_one_for_its_grace_period(receiver, owner, committed, settings):
    settings.PITBOSS_WEBHOOK_SECRET_GRACE_HOURS = 24
    endpoint, old = hook(receiver, owner, "rotated")
    new = endpoint_rotate(endpoint=endpoint, by=owner)
    endpoint.refresh_from_db()
    assert new != old and len(new) == 64
    assert endpoint.previous_valid_until - timezone.now() > timedelta(hours=23, minutes=59)
    assert signing_secrets(endpoint, timezone.now()) == [new, old]
    # The receiver still knows only the old secret: during the grace period, the body verifies.
    committed(send_test, user=owner)
    assert [body["type"] for body in receiver.bodies("rotated")] == ["test"]
    # After it, the old secret signs nothing: refused (401) until the receiver takes the new one.
    endpoint.previous_valid_until = timezone.now() - timedelta(seconds=1)
    endpoint.save(update_fields=["previous_valid_until"])
    assert signing_secrets(endpoint, timezone.now()) == [new]
    committed(send_test, user=owner)
    assert receiver.refused("rotated") == 1
    refused = webhook_deliveries(endpoint).get(status=DeliveryStatus.RETRYING)
    assert "401" in refused.last_error
    receiver.trust("rotated", new)
    Delivery.objects.filter(pk=refused.pk).update(next_attempt_at=timezone.now())
    committed(retries_due)
    refused.refresh_from_db()
    assert refused.status == DeliveryStatus.SENT
    assert [body["type"] for body in receiver.bodies("rotated")] == ["test", "test"]


def test_a_failing_receiver_is_retried_with_backoff_then_given_up_then_retried_by_hand(
    receiver, owner, committed
):
    endpoint, _ = hook(receiver, owner, "down")
    receiver.down("down")
    raise_ingest_behind(committed)
    (delivery,) = webhook_deliveries(endpoint)
    waits = []
    for attempt in range(1, ATTEMPTS + 1):
        delivery.refresh_from_db()
        assert delivery.attempts == attempt and "503" in delivery.last_error
        if attempt == ATTEMPTS:
            break
        assert delivery.status == DeliveryStatus.RETRYING
        waits.append(round((delivery.next_attempt_at - timezone.now()).total_seconds() / 60))
        # Not due yet: the retry task leaves it.
        assert committed(deliveries_retry_task) == 0
        Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
        assert committed(deliveries_retry_task) == 1
    assert waits == list(BACKOFF_MINUTES) == [1, 2, 4, 8, 16]
    assert (delivery.status, delivery.next_attempt_at) == (DeliveryStatus.FAILED, None)
    assert committed(deliveries_retry_task) == 0
    # The receiver is back: retried by hand, it goes.
    receiver.down("down", False)
    committed(delivery_retry, delivery=delivery, by=owner)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, ATTEMPTS + 1)
    assert delivery.last_error == ""
    assert len(receiver.bodies("down")) == ATTEMPTS + 1  # each attempt's signature verified
    with pytest.raises(TransitionRefused) as refused:
        delivery_retry(delivery=delivery, by=owner)
    assert "delivery" in refused.value.message_dict
