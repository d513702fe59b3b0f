"""What a delivery says: the email's subject and body, the webhook's JSON body. Only the alert, its
table, its figures and a link: a player appears by id alone (the figures hold ids, never names)."""

import json
from zoneinfo import ZoneInfo

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from alerts.choices import AlertEventKind, Severity
from alerts.models import Alert

from .models import Delivery

TEST_TYPE = "test"


def alert_url(alert: Alert) -> str:
    return settings.PITBOSS_BASE_URL + reverse("alerts:alert_detail", args=[alert.pk])


def alert_fields(alert: Alert) -> dict:
    return {
        "id": alert.pk,
        "table": alert.table.code,
        "monitor": alert.monitor,
        "monitor_label": alert.get_monitor_display(),
        "subject": alert.subject,
        "severity": Severity(alert.severity).name.lower(),
        "status": alert.status,
        "summary": alert.summary,
        "measure": str(alert.measure),
        "threshold": str(alert.threshold),
        "first_seen": alert.first_seen.isoformat(),
        "last_seen": alert.last_seen.isoformat(),
        "occurrences": alert.occurrences,
        "figures": alert.figures,
        "url": alert_url(alert),
    }


def event_type(delivery: Delivery) -> str:
    return f"alert.{delivery.event.kind}" if delivery.event_id else TEST_TYPE


def subject(delivery: Delivery) -> str:
    if not delivery.event_id:
        return "[Pitboss] Test message"
    alert = delivery.event.alert
    text = f"[Pitboss] {alert.get_severity_display()} · {alert.get_monitor_display()} at {alert.table.code}"
    if delivery.event.kind == AlertEventKind.ESCALATED:
        text += " (escalated)"
    return text


def _local(moment) -> str:
    zone = ZoneInfo(settings.PITBOSS_GAMING_DAY_TIME_ZONE)
    return timezone.localtime(moment, zone).strftime("%Y-%m-%d %H:%M:%S %Z")


def email_body(delivery: Delivery) -> str:
    if not delivery.event_id:
        return render_to_string("notifications/test_email.txt", {"base_url": settings.PITBOSS_BASE_URL})
    event, alert = delivery.event, delivery.event.alert
    return render_to_string(
        "notifications/alert_email.txt",
        {
            "kind": event.kind,
            "alert": alert,
            "url": alert_url(alert),
            "first_seen": _local(alert.first_seen),
            "last_seen": _local(alert.last_seen),
            "figures": sorted(alert.figures.items()),
            "base_url": settings.PITBOSS_BASE_URL,
        },
    )


def webhook_body(delivery: Delivery) -> bytes:
    body = {"type": event_type(delivery), "id": delivery.pk}
    if delivery.event_id:
        body |= {"at": delivery.event.at.isoformat(), "alert": alert_fields(delivery.event.alert)}
    else:
        body |= {"at": delivery.created_at.isoformat(), "alert": None}
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
