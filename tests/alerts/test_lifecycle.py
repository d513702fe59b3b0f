"""An alert's life: raised, repeated, acknowledged, claimed, resolved with a link; escalated on a
frozen clock when nobody acknowledges it; a table's silence; thresholds and their approval; a fault
marked reportable."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from freezegun import freeze_time

from accounts.roles import COMPLIANCE, SUPERVISOR
from alerts.choices import AlertEventKind, AlertStatus, Monitor, ResolutionLink, Severity, ThresholdStatus
from alerts.faults import fault_mark
from alerts.models import Alert, Threshold
from alerts.services import (
    alert_acknowledge,
    alert_claim,
    alert_raise,
    alert_resolve,
    escalate_due,
    members,
    silence_add,
    silence_end,
)
from alerts.thresholds import threshold_decide, threshold_in_force, threshold_propose
from core.refusals import OwnDecisionRefused, TransitionRefused
from rounds.models import Bet
from rounds.services import incident_open
from tables.models import Table
from tests.alerts.support import deal
from tests.rounds.corrections_support import demo, demo_user

pytestmark = pytest.mark.django_db
__all__ = ["demo"]  # the fixture, used by name
T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def drift_alert(table: str = "BND1", measure: str = "12", at: datetime = T0) -> Alert:
    return alert_raise(
        table=Table.objects.get(code=table),
        monitor=Monitor.RTP_DRIFT,
        subject="main",
        measure=Decimal(measure),
        threshold=Decimal("10"),
        summary=f"CUSUM {measure} over 10",
        figures={"round": "R-1"},
        at=at,
    )


def test_a_repeat_adds_to_the_unresolved_alert(demo):
    first = drift_alert()
    again = drift_alert(measure="13", at=T0 + timedelta(minutes=5))
    assert again.pk == first.pk
    assert (again.occurrences, again.first_seen, again.last_seen) == (2, T0, T0 + timedelta(minutes=5))
    assert again.severity == Severity.WARNING
    assert [event.kind for event in again.events.all()] == [AlertEventKind.RAISED]
    # Worse: the severity rises (never falls), and those it now reaches are named.
    worse = drift_alert(measure="25", at=T0 + timedelta(minutes=6))
    assert worse.severity == Severity.CRITICAL
    worsened = worse.events.get(kind=AlertEventKind.WORSENED)
    assert worsened.recipients == [
        name for name in members([SUPERVISOR, COMPLIANCE]) if name not in members([COMPLIANCE])
    ]
    assert drift_alert(measure="11", at=T0 + timedelta(minutes=7)).severity == Severity.CRITICAL
    # Another bet kind, or another table: alerts of their own.
    assert drift_alert(table="DLX1").pk != first.pk
    assert Alert.objects.count() == 2


def test_the_database_keeps_one_unresolved_alert_per_table_monitor_and_subject(demo):
    alert = drift_alert()
    with pytest.raises(IntegrityError), transaction.atomic():
        Alert.objects.create(
            table=alert.table,
            monitor=alert.monitor,
            subject=alert.subject,
            severity=1,
            summary="twin",
            measure=1,
            threshold=1,
            first_seen=T0,
            last_seen=T0,
        )


def test_acknowledge_claim_and_resolve_with_a_link(demo):
    supervisor, compliance = demo_user("supervisor"), demo_user("compliance")
    alert = drift_alert()
    alert = alert_acknowledge(alert=alert, by=compliance, note="Looking at the shoe")
    assert (alert.status, alert.acknowledged_by, alert.escalate_at) == (
        AlertStatus.ACKNOWLEDGED,
        compliance,
        None,
    )
    with pytest.raises(TransitionRefused):
        alert_acknowledge(alert=alert, by=supervisor)
    alert = alert_claim(alert=alert, by=compliance)
    alert = alert_claim(alert=alert, by=supervisor)
    assert alert.claimed_by == supervisor
    assert alert.events.last().note == "Taken over from compliance."
    with pytest.raises(ValidationError) as refused:
        alert_resolve(alert=alert, by=supervisor, note="  ")
    assert "note" in refused.value.message_dict
    # A link must name a record of the alert's table.
    elsewhere = incident_open(
        table=Table.objects.get(code="DLX1"), kind="malfunction", opened_by=supervisor, note="Shuffler"
    )
    with pytest.raises(ValidationError) as refused:
        alert_resolve(
            alert=alert,
            by=supervisor,
            note="Shoe replaced",
            link=ResolutionLink.INCIDENT,
            ref=str(elsewhere.pk),
        )
    assert refused.value.message_dict == {"ref": [f"Incident {elsewhere.pk} is of another table."]}
    with pytest.raises(ValidationError) as refused:
        alert_resolve(
            alert=alert, by=supervisor, note="Shoe replaced", link=ResolutionLink.VOID, ref="999999"
        )
    assert refused.value.message_dict == {"ref": ["There is no void 999999."]}
    here = incident_open(
        table=alert.table, kind="malfunction", opened_by=supervisor, note="Shoe short of cards"
    )
    alert = alert_resolve(
        alert=alert, by=supervisor, note="Shoe replaced", link=ResolutionLink.INCIDENT, ref=str(here.pk)
    )
    assert (alert.status, alert.resolution_link, alert.resolution_ref) == (
        AlertStatus.RESOLVED,
        ResolutionLink.INCIDENT,
        str(here.pk),
    )
    assert [event.kind for event in alert.events.all()] == [
        AlertEventKind.RAISED,
        AlertEventKind.ACKNOWLEDGED,
        AlertEventKind.CLAIMED,
        AlertEventKind.CLAIMED,
        AlertEventKind.RESOLVED,
    ]
    with pytest.raises(TransitionRefused):
        alert_claim(alert=alert, by=compliance)
    # Found again after it was resolved: a new alert.
    assert drift_alert(at=T0 + timedelta(hours=1)).pk != alert.pk


def test_an_alert_nobody_acknowledges_escalates_on_time(demo, settings):
    settings.PITBOSS_ALERT_ACKNOWLEDGE_MINUTES = 15
    with freeze_time(T0):
        alert = drift_alert()
        acknowledged = drift_alert(table="DLX1")
        alert_acknowledge(alert=acknowledged, by=demo_user("compliance"))
    assert alert.escalate_at == T0 + timedelta(minutes=15)
    with freeze_time(T0 + timedelta(minutes=14, seconds=59)):
        assert escalate_due() == []
    with freeze_time(T0 + timedelta(minutes=15)):
        (escalated,) = escalate_due()
    assert escalated.pk == alert.pk
    alert.refresh_from_db()
    assert (alert.severity, alert.escalate_at) == (Severity.CRITICAL, None)
    event = alert.events.get(kind=AlertEventKind.ESCALATED)
    # The RTP drift warning went to compliance; escalated, it reaches the supervisors too.
    assert event.recipients == [name for name in members([SUPERVISOR]) if name not in members([COMPLIANCE])]
    assert event.recipients and event.at == T0 + timedelta(minutes=15)
    with freeze_time(T0 + timedelta(hours=2)):
        assert escalate_due() == []  # critical is the last step; the acknowledged one never escalates


def test_a_silenced_table_does_not_escalate(demo):
    supervisor = demo_user("supervisor")
    with freeze_time(T0):
        alert = drift_alert()
        silence = silence_add(table=alert.table, by=supervisor, minutes=60, reason="Shoe machine serviced")
    with freeze_time(T0 + timedelta(minutes=30)):
        assert escalate_due() == []
        silence_end(silence=silence, by=supervisor)
        with pytest.raises(TransitionRefused):
            silence_end(silence=silence, by=supervisor)
        assert [a.pk for a in escalate_due()] == [alert.pk]
    with pytest.raises(ValidationError) as refused:
        silence_add(table=alert.table, by=supervisor, minutes=60, reason="")
    assert "reason" in refused.value.message_dict


def test_thresholds_more_sensitive_at_once_less_sensitive_after_compliance(demo):
    supervisor, compliance = demo_user("supervisor"), demo_user("compliance")
    bnd1 = Table.objects.get(code="BND1")
    assert threshold_in_force(Monitor.SILENT_TABLE, table=bnd1) == Decimal(10)  # the default
    game = threshold_propose(
        monitor=Monitor.SILENT_TABLE,
        value="5",
        reason="Tighter on Boundless",
        by=supervisor,
        game="boundless",
    )
    assert (game.status, game.previous) == (ThresholdStatus.IN_FORCE, Decimal(10))
    assert threshold_in_force(Monitor.SILENT_TABLE, table=bnd1) == Decimal(5)
    looser = threshold_propose(
        monitor=Monitor.SILENT_TABLE, value="20", reason="Long shuffles at BND1", by=supervisor, table=bnd1
    )
    assert looser.status == ThresholdStatus.PENDING
    assert threshold_in_force(Monitor.SILENT_TABLE, table=bnd1) == Decimal(5)
    with pytest.raises(TransitionRefused):
        threshold_propose(monitor=Monitor.SILENT_TABLE, value="30", reason="Again", by=supervisor, table=bnd1)
    with pytest.raises(PermissionDenied):
        threshold_decide(threshold=looser, by=demo_user("supervisor-2"), approve=True)
    with pytest.raises(ValidationError) as refused:
        threshold_decide(threshold=looser, by=compliance, approve=False)
    assert "note" in refused.value.message_dict
    threshold_decide(threshold=looser, by=compliance, approve=True, note="Shuffle takes 15 min")
    assert threshold_in_force(Monitor.SILENT_TABLE, table=bnd1) == Decimal(20)
    # The table's own threshold wins over its game's; other tables keep the default.
    assert threshold_in_force(Monitor.SILENT_TABLE, table=Table.objects.get(code="DLX1")) == Decimal(10)
    with pytest.raises(ValidationError) as refused:
        threshold_propose(monitor=Monitor.SILENT_TABLE, value="0.5", reason="x", by=supervisor, table=bnd1)
    assert "value" in refused.value.message_dict


def test_nobody_decides_their_own_threshold(demo):
    # A compliance officer who proposed (not a supervisor's task, but the four eyes hold whoever).
    compliance = demo_user("compliance")
    proposed = threshold_propose(
        monitor=Monitor.BIG_WIN, value="50000", reason="High rollers", by=compliance, game="deluxe"
    )
    with pytest.raises(OwnDecisionRefused):
        threshold_decide(threshold=proposed, by=compliance, approve=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Threshold.objects.filter(pk=proposed.pk).update(decided_by=compliance)


def test_a_fault_marked_reportable_counts_its_rounds_players_and_money(demo):
    ending = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    rounds = deal("BND1", "FAULT", 12, ending=ending, players=5)
    alert = drift_alert(at=ending)
    compliance = demo_user("compliance")
    affected = rounds[2:9]
    fault = fault_mark(
        alert=alert,
        by=compliance,
        what_happened="Shoe short of three fives",
        affected_from=affected[0].opened_at,
        affected_to=affected[-1].opened_at,
    )
    bets = Bet.objects.filter(round__in=affected)
    assert fault.rounds == 7
    assert fault.players == len({bet.player_id for bet in bets})
    assert fault.wagered == sum(bet.wagered for bet in bets)
    assert fault.returned == sum(bet.returned for bet in bets)
    assert (fault.table.code, fault.game, fault.currency, fault.found_at) == (
        "BND1",
        "boundless",
        "EUR",
        ending,
    )
    assert alert.events.filter(kind=AlertEventKind.REPORTABLE).count() == 1
    with pytest.raises(TransitionRefused):
        fault_mark(
            alert=alert, by=compliance, what_happened="again", affected_from=ending, affected_to=ending
        )
