"""Every change of an alert: raised or repeated by a monitor, acknowledged, claimed, resolved,
escalated; and a table's silences. Pages and tasks call these; nothing else writes an alert.

Whom an alert reaches is its severity's: a warning goes to the monitor's own role
(definitions.DEFINITIONS), a critical alert to supervisors and compliance both. A warning not
acknowledged within PITBOSS_ALERT_ACKNOWLEDGE_MINUTES escalates to critical: its event names the
members it now reaches besides those it had reached.
"""

from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.roles import COMPLIANCE, SUPERVISOR
from core.refusals import TransitionRefused, require_reason
from rounds.models import Incident, Resettlement, Void
from tables.models import Table, TableConfiguration

from .choices import UNRESOLVED, AlertEventKind, AlertStatus, Monitor, ResolutionLink, Severity
from .definitions import CRITICAL_FACTOR, DEFINITIONS
from .models import Alert, AlertEvent, Silence
from .signals import alert_event_recorded

LINKED_RECORDS = {
    ResolutionLink.INCIDENT: Incident,
    ResolutionLink.RESETTLEMENT: Resettlement,
    ResolutionLink.VOID: Void,
    ResolutionLink.CONFIGURATION: TableConfiguration,
}


def severity_roles(monitor: str, severity: int) -> tuple[str, ...]:
    if severity >= Severity.CRITICAL:
        return (SUPERVISOR, COMPLIANCE)
    return (DEFINITIONS[monitor].role,)


def members(roles) -> list[str]:
    """The usernames of the active members of `roles`, in order."""
    return list(
        get_user_model()
        .objects.filter(is_active=True, groups__name__in=roles)
        .order_by("username")
        .values_list("username", flat=True)
        .distinct()
    )


def escalation_due_at(severity: int, now: datetime) -> datetime | None:
    """When an alert of `severity` not acknowledged escalates; None at the highest severity."""
    if severity >= Severity.CRITICAL:
        return None
    return now + timedelta(minutes=settings.PITBOSS_ALERT_ACKNOWLEDGE_MINUTES)


def severity_of(measure: Decimal, threshold: Decimal) -> int:
    return Severity.CRITICAL if measure >= threshold * CRITICAL_FACTOR else Severity.WARNING


def active_silences(now: datetime | None = None):
    now = now or timezone.now()
    return Silence.objects.filter(starts_at__lte=now, ends_at__gt=now, ended_at__isnull=True)


def silenced(table_pk: int, monitor: str, now: datetime | None = None) -> bool:
    return active_silences(now).filter(Q(monitor="") | Q(monitor=monitor), table_id=table_pk).exists()


def reaching(alerts, role: str, now: datetime | None = None):
    """Of `alerts`, those that reach `role` (a warning of one of its monitors, or any critical alert),
    their table not silenced for their monitor: what the role's home queue counts."""
    monitors = [monitor for monitor, definition in DEFINITIONS.items() if definition.role == role]
    silences = (
        active_silences(now)
        .filter(table=OuterRef("table"))
        .filter(Q(monitor="") | Q(monitor=OuterRef("monitor")))
    )
    return alerts.filter(Q(monitor__in=monitors) | Q(severity=Severity.CRITICAL)).exclude(Exists(silences))


def _event(alert: Alert, kind: str, at: datetime, by=None, note: str = "", recipients=()) -> AlertEvent:
    event = AlertEvent.objects.create(
        alert=alert, kind=kind, at=at, by=by, note=note, recipients=list(recipients)
    )
    alert_event_recorded.send(sender=AlertEvent, event=event)
    return event


def alert_raise(
    *,
    table: Table,
    monitor: str,
    measure: Decimal,
    threshold: Decimal,
    summary: str,
    subject: str = "",
    figures: dict | None = None,
    at: datetime | None = None,
) -> Alert:
    """A monitor found `measure` beyond `threshold`: a new alert, or a repeat of the table's unresolved
    one for the monitor and subject (its severity only rises)."""
    at = at or timezone.now()
    severity = severity_of(Decimal(measure), Decimal(threshold))
    values = {
        "summary": summary[:300],
        "measure": Decimal(measure).quantize(Decimal("0.0001")),
        "threshold": Decimal(threshold).quantize(Decimal("0.0001")),
        "figures": figures or {},
    }
    with transaction.atomic():
        alert = (
            Alert.objects.select_for_update()
            .filter(table=table, monitor=monitor, subject=subject, status__in=UNRESOLVED)
            .first()
        )
        if alert is None:
            try:
                with transaction.atomic():
                    alert = Alert.objects.create(
                        table=table,
                        monitor=monitor,
                        subject=subject,
                        severity=severity,
                        first_seen=at,
                        last_seen=at,
                        escalate_at=escalation_due_at(severity, at),
                        **values,
                    )
            except IntegrityError:  # another monitor run raised it first: a repeat of that one
                return alert_raise(
                    table=table,
                    monitor=monitor,
                    measure=measure,
                    threshold=threshold,
                    summary=summary,
                    subject=subject,
                    figures=figures,
                    at=at,
                )
            _event(
                alert,
                AlertEventKind.RAISED,
                at,
                note=values["summary"],
                recipients=members(severity_roles(monitor, severity)),
            )
            return alert
        for name, value in values.items():
            setattr(alert, name, value)
        alert.occurrences += 1
        alert.last_seen = max(alert.last_seen, at)
        if severity > alert.severity:
            reached = set(members(severity_roles(monitor, alert.severity)))
            alert.severity = severity
            alert.escalate_at = None
            newly = [name for name in members(severity_roles(monitor, severity)) if name not in reached]
            _event(alert, AlertEventKind.WORSENED, at, note=values["summary"], recipients=newly)
        alert.save()
        return alert


def _unresolved(alert: Alert) -> Alert:
    alert = Alert.objects.select_for_update().get(pk=alert.pk)
    if alert.status == AlertStatus.RESOLVED:
        raise TransitionRefused({"alert": f"Alert {alert.pk} is resolved already."})
    return alert


@transaction.atomic
def alert_acknowledge(*, alert: Alert, by, note: str = "") -> Alert:
    """Someone has seen it: it stops escalating."""
    alert = _unresolved(alert)
    if alert.status == AlertStatus.ACKNOWLEDGED:
        raise TransitionRefused({"alert": f"Alert {alert.pk} was acknowledged already."})
    now = timezone.now()
    alert.status = AlertStatus.ACKNOWLEDGED
    alert.acknowledged_by, alert.acknowledged_at, alert.escalate_at = by, now, None
    alert.save()
    _event(alert, AlertEventKind.ACKNOWLEDGED, now, by=by, note=note.strip())
    return alert


@transaction.atomic
def alert_claim(*, alert: Alert, by) -> Alert:
    """Someone owns it (and has seen it): taken over from whoever claimed it before."""
    alert = _unresolved(alert)
    if alert.claimed_by_id == by.pk:
        raise TransitionRefused({"alert": f"You have claimed alert {alert.pk} already."})
    now = timezone.now()
    note = f"Taken over from {alert.claimed_by.username}." if alert.claimed_by_id else ""
    if alert.status == AlertStatus.OPEN:
        alert.status = AlertStatus.ACKNOWLEDGED
        alert.acknowledged_by, alert.acknowledged_at, alert.escalate_at = by, now, None
    alert.claimed_by, alert.claimed_at = by, now
    alert.save()
    _event(alert, AlertEventKind.CLAIMED, now, by=by, note=note)
    return alert


def _linked_record(alert: Alert, link: str, ref: str):
    """The record `ref` of kind `link`, refused unless it exists and is of the alert's table."""
    if link not in ResolutionLink.values:
        raise ValidationError({"link": f"Unknown link {link!r}: one of {', '.join(ResolutionLink.values)}."})
    if link == ResolutionLink.NONE:
        if ref.strip():
            raise ValidationError({"ref": "Choose what the id names, or leave it empty."})
        return None
    model = LINKED_RECORDS[ResolutionLink(link)]
    label = ResolutionLink(link).label.lower()
    if not ref.strip().isdigit():
        raise ValidationError({"ref": f"Give the {label}'s number."})
    record = model.objects.filter(pk=int(ref)).first()
    if record is None:
        raise ValidationError({"ref": f"There is no {label} {ref.strip()}."})
    table_pk = getattr(record, "table_id", None)
    if table_pk is None and isinstance(record, (Resettlement, Void)):
        table_pk = type(record).objects.filter(pk=record.pk).values_list("round__table", flat=True).first()
    if table_pk is not None and table_pk != alert.table_id:
        raise ValidationError({"ref": f"{ResolutionLink(link).label} {record.pk} is of another table."})
    return record


@transaction.atomic
def alert_resolve(*, alert: Alert, by, note: str, link: str = ResolutionLink.NONE, ref: str = "") -> Alert:
    """It is dealt with: a note, and the record of what was done (an incident, a re-settlement, a
    void, a configuration change) when there is one."""
    note = require_note(note)
    alert = _unresolved(alert)
    record = _linked_record(alert, link, ref)
    now = timezone.now()
    if alert.status == AlertStatus.OPEN:
        alert.acknowledged_by, alert.acknowledged_at = by, now
    alert.status = AlertStatus.RESOLVED
    alert.resolved_by, alert.resolved_at, alert.escalate_at = by, now, None
    alert.resolution_note = note
    alert.resolution_link = link
    alert.resolution_ref = "" if record is None else str(record.pk)
    alert.save()
    _event(alert, AlertEventKind.RESOLVED, now, by=by, note=note)
    return alert


def require_note(note: str) -> str:
    if not note or not note.strip():
        raise ValidationError({"note": "Say what was found and done: the note is the alert's record."})
    return note.strip()


def escalate_due(now: datetime | None = None) -> list[Alert]:
    """Every open alert past its acknowledgement time, its table not silenced, escalated a severity."""
    now = now or timezone.now()
    escalated = []
    due = Alert.objects.filter(status=AlertStatus.OPEN, escalate_at__lte=now).values_list("pk", flat=True)
    for pk in list(due):
        with transaction.atomic():
            alert = Alert.objects.select_for_update().filter(pk=pk, status=AlertStatus.OPEN).first()
            if alert is None or alert.escalate_at is None or alert.escalate_at > now:
                continue
            if silenced(alert.table_id, alert.monitor, now):
                continue
            reached = set(members(severity_roles(alert.monitor, alert.severity)))
            alert.severity = min(alert.severity + 1, max(Severity.values))
            alert.escalate_at = escalation_due_at(alert.severity, now)
            alert.save(update_fields=["severity", "escalate_at"])
            newly = [
                name for name in members(severity_roles(alert.monitor, alert.severity)) if name not in reached
            ]
            minutes = settings.PITBOSS_ALERT_ACKNOWLEDGE_MINUTES
            _event(
                alert,
                AlertEventKind.ESCALATED,
                now,
                note=f"Not acknowledged within {minutes} minutes.",
                recipients=newly,
            )
            escalated.append(alert)
    return escalated


@transaction.atomic
def silence_add(*, table: Table, by, minutes: int, reason: str, monitor: str = "", starts_at=None) -> Silence:
    """Silence a table's alerts (every monitor's, or one's) for known maintenance."""
    reason = require_reason(reason)
    if monitor and monitor not in Monitor.values:
        raise ValidationError({"monitor": f"Unknown monitor {monitor!r}."})
    if not 1 <= minutes <= 24 * 60:
        raise ValidationError({"minutes": "A silence lasts from 1 minute to 24 hours."})
    starts_at = starts_at or timezone.now()
    return Silence.objects.create(
        table=table,
        monitor=monitor,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes),
        reason=reason,
        created_by=by,
    )


@transaction.atomic
def silence_end(*, silence: Silence, by) -> Silence:
    silence = Silence.objects.select_for_update().get(pk=silence.pk)
    now = timezone.now()
    if silence.ended_at is not None or silence.ends_at <= now:
        raise TransitionRefused({"silence": "This silence has ended already."})
    silence.ended_by, silence.ended_at = by, now
    silence.save(update_fields=["ended_by", "ended_at"])
    return silence
