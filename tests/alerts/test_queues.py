"""The alerts on each role's home page: those that reach it (its monitors' warnings, every critical
alert), silenced tables left out, each count the count of the list it links to; and the thresholds
awaiting compliance."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from alerts.choices import Monitor
from alerts.services import alert_raise, escalate_due, silence_add
from alerts.thresholds import threshold_propose
from tables.models import Table
from tests.rounds.corrections_support import demo, demo_user

pytestmark = pytest.mark.django_db
__all__ = ["demo"]  # the fixture, used by name


def home_queues(client, username: str) -> dict:
    client.force_login(demo_user(username))
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return {queue.key: queue for queue in response.context["queues"]}


def raised(code: str, monitor: str, measure: str, threshold: str, subject: str = ""):
    return alert_raise(
        table=Table.objects.get(code=code),
        monitor=monitor,
        subject=subject,
        measure=Decimal(measure),
        threshold=Decimal(threshold),
        summary=f"{monitor} at {code}",
    )


def listed(client, url: str) -> int:
    response = client.get(url)
    assert response.status_code == 200
    return len(response.context["table"].rows)


def test_each_role_sees_the_alerts_that_reach_it(client, demo):
    silent = raised("BND1", Monitor.SILENT_TABLE, "12", "10")  # a supervisors' warning
    drift = raised("DLX1", Monitor.RTP_DRIFT, "200", "190", subject="main")  # compliance's
    late = raised("CLS1", Monitor.INGEST_BEHIND, "600", "120")  # critical: both
    supervisors = home_queues(client, "supervisor")["alerts-supervisor"]
    assert supervisors.count == 2
    assert [item.url for item in supervisors.items] == [
        reverse("alerts:alert_detail", args=[late.pk]),
        reverse("alerts:alert_detail", args=[silent.pk]),
    ]  # the critical one first
    assert supervisors.items[0].label == "CLS1 · Ingest behind"
    assert listed(client, supervisors.url) == 2
    compliance = home_queues(client, "compliance")["alerts-compliance"]
    assert compliance.count == 2
    assert {item.url for item in compliance.items} == {
        reverse("alerts:alert_detail", args=[late.pk]),
        reverse("alerts:alert_detail", args=[drift.pk]),
    }
    assert compliance.items[-1].label == "DLX1 · RTP drift · main"
    assert listed(client, compliance.url) == 2
    assert "alerts-supervisor" not in home_queues(client, "customer-service")
    # Escalated, the drift warning reaches the supervisors too.
    escalate_due(timezone.now() + timedelta(hours=1))
    assert home_queues(client, "supervisor")["alerts-supervisor"].count == 3
    # A silenced table's alerts leave the queues (and the lists they link to).
    silence_add(table=silent.table, by=demo_user("supervisor"), minutes=30, reason="Studio lights replaced")
    supervisors = home_queues(client, "supervisor")["alerts-supervisor"]
    assert supervisors.count == 2
    assert listed(client, supervisors.url) == 2


def test_compliance_sees_the_thresholds_awaiting_approval(client, demo):
    threshold_propose(
        monitor=Monitor.SILENT_TABLE,
        value="20",
        reason="Long shuffles",
        by=demo_user("supervisor"),
        table=Table.objects.get(code="BND1"),
    )
    queue = home_queues(client, "compliance")["thresholds"]
    assert queue.count == 1
    assert (queue.items[0].label, queue.items[0].note) == ("BND1 · Open but silent", "10.00 → 20.00")
    assert "thresholds" not in home_queues(client, "supervisor")
