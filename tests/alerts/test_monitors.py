"""Each monitor fires on a planted case and stays quiet on a clean hour of play, on rounds ingested as
a game server sends them (tests/alerts/support.py)."""

from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db.models import Sum

from accounts.roles import COMPLIANCE, SUPERVISOR
from alerts import monitors
from alerts.choices import AlertEventKind, Monitor, Severity
from alerts.models import Alert, DriftState, MonitorCursor
from alerts.monitors import monitors_run
from alerts.services import members, silence_add
from alerts.thresholds import threshold_propose
from live.models import ROUNDS_ROW, LiveFigures
from rounds.models import Bet, Round
from tables.models import Table, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import table_set_status
from tests.alerts.support import arrive, deal, minute_ago, shoe_documents
from tests.rounds.corrections_support import demo, demo_user

# Rounds dealt over the last minutes, read as today's: tests/conftest.py gaming_day_clear_of_now.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gaming_day_clear_of_now")]
__all__ = ["demo"]  # the fixture, used by name
SETTLED = timedelta(seconds=40)  # the monitors read rounds once they are 10 s old


@pytest.fixture
def floor(demo):
    """BND1 and DLX1 open, their odds worked out (known in advance: at once); the two other demo
    tables closed (a closed table is never silent)."""
    supervisor = demo_user("supervisor")
    for configuration in TableConfiguration.objects.all():
        configuration_odds_compute(configuration=configuration)
    for table in Table.objects.exclude(code__in=["BND1", "DLX1"]):
        table_set_status(table=table, status="closed", changed_by=supervisor, reason="Test: off air")
    return supervisor


def alerts_of(monitor: str) -> list[Alert]:
    return list(Alert.objects.filter(monitor=monitor).order_by("pk"))


def test_a_clean_hour_raises_nothing(floor, monkeypatch):
    monkeypatch.setattr(
        monitors, "LEARNING_ROUNDS", {"main": 10, "side": 10}
    )  # the CUSUM runs on these few rounds
    ending = minute_ago()
    rounds = deal("BND1", "CLEAN-B", 30, ending=ending, dealt_by="D-ANA")
    rounds += deal("DLX1", "CLEAN-D", 30, ending=ending, dealt_by="D-BEN", seed=2)
    assert not monitors_run(ending + SETTLED)
    assert not Alert.objects.exists()
    # Every round was read, and the CUSUM ran on each kind played.
    assert MonitorCursor.objects.get().round_pk == max(round_.pk for round_ in rounds)
    states = {(state.table.code, state.kind): state for state in DriftState.objects.select_related("table")}
    assert states[("BND1", "main")].rounds == 30
    assert states[("DLX1", "main")].rounds == sum(1 for r in rounds if r.table.code == "DLX1")
    # Read once: a second run reads nothing again.
    assert not monitors_run(ending + SETTLED + timedelta(seconds=5))
    assert DriftState.objects.get(table__code="BND1", kind="main").rounds == 30


def test_a_round_arriving_late_raises_ingest_behind(floor):
    ending = minute_ago()
    documents = shoe_documents("BND1", "LATE", 6, ending=ending)
    for document in documents[:5]:
        arrive(document)
    late = arrive(documents[5], timedelta(minutes=10))
    monitors_run(late.ingested_at + SETTLED)
    (alert,) = alerts_of(Monitor.INGEST_BEHIND)
    assert alert.table.code == "BND1"
    assert alert.measure == Decimal(600)
    assert alert.threshold == Decimal(120)
    assert alert.figures["round"] == late.round_id
    # 600 s is over twice the threshold: critical at once, to supervisors and compliance both.
    assert alert.severity == Severity.CRITICAL
    raised = alert.events.get(kind=AlertEventKind.RAISED)
    assert raised.recipients == members([SUPERVISOR, COMPLIANCE])


def test_a_win_above_the_amount(floor):
    ending = minute_ago()
    rounds = deal("BND1", "WIN", 25, ending=ending, players=8)
    nets = defaultdict(Decimal)
    for bet in Bet.objects.filter(round__in=rounds).select_related("round", "player"):
        returned = bet.computed_returned if bet.computed_returned is not None else bet.returned
        nets[(bet.round.round_id, bet.player.external_id)] += returned - bet.wagered
    (round_id, player), best = max(nets.items(), key=lambda item: item[1])
    assert best > 0
    # The default (10,000) is far above these stakes: nothing; a threshold just under the best win: it.
    threshold_propose(
        monitor=Monitor.BIG_WIN,
        value=best - Decimal("0.01"),
        reason="Test: low",
        by=floor,
        table=Table.objects.get(code="BND1"),
    )
    monitors_run(ending + SETTLED)
    (alert,) = alerts_of(Monitor.BIG_WIN)
    assert (alert.measure, alert.figures["round"], alert.figures["player"]) == (best, round_id, player)
    assert alert.severity == Severity.WARNING
    assert alert.events.get().recipients == members([COMPLIANCE])  # a warning: the monitor's role


def test_a_cancellation_spike(floor):
    ending = minute_ago()
    deal("BND1", "SPIKE", 30, ending=ending, cancel_rate=0.4)
    deal("DLX1", "CALM", 30, ending=ending, seed=3)
    monitors_run(ending + SETTLED)
    (alert,) = alerts_of(Monitor.CANCELLATIONS)
    assert alert.table.code == "BND1"
    kept = LiveFigures.objects.filter(table=alert.table, kind=ROUNDS_ROW).aggregate(
        rounds=Sum("rounds"), cancelled=Sum("cancelled")
    )
    assert kept["cancelled"] >= 3
    assert alert.measure == (Decimal(kept["cancelled"] * 100) / kept["rounds"]).quantize(Decimal("0.01"))
    assert alert.figures == kept


def with_dealer_slip(document: dict) -> dict:
    """The dealer draws one card more than the rules allow."""
    document["dealer"] = [*document["dealer"], "2C"]
    return document


def test_dealer_findings_per_dealer(floor):
    ending = minute_ago()
    documents = shoe_documents("DLX1", "SLIPS", 24, ending=ending, dealt_by="D-ZED")
    for number, document in enumerate(documents):
        arrive(with_dealer_slip(document) if number in (3, 11) else document)
    deal("BND1", "STEADY", 24, ending=ending, dealt_by="D-AMY")
    monitors_run(ending + SETTLED)
    (alert,) = alerts_of(Monitor.DEALER_FINDINGS)
    assert (alert.table.code, alert.subject) == ("DLX1", "D-ZED")
    kept = LiveFigures.objects.filter(dealt_by="D-ZED", kind=ROUNDS_ROW).aggregate(
        rounds=Sum("rounds"), findings=Sum("findings_dealer")
    )
    assert kept["findings"] >= 2
    assert alert.measure == (Decimal(kept["findings"] * 100) / kept["rounds"]).quantize(Decimal("0.01"))
    assert not Alert.objects.filter(subject="D-AMY").exists()


def test_an_open_table_silent_and_its_silence(floor):
    ending = minute_ago()
    deal("BND1", "QUIET", 5, ending=ending - timedelta(minutes=20))
    deal("DLX1", "BUSY", 5, ending=ending)
    monitors_run(ending + SETTLED)
    (alert,) = alerts_of(Monitor.SILENT_TABLE)
    assert alert.table.code == "BND1"
    last = Round.objects.filter(table=alert.table).latest("ingested_at").ingested_at
    assert alert.measure == Decimal((ending + SETTLED - last).total_seconds() / 60).quantize(Decimal(1))
    # Still silent a minute later: the same alert, seen again.
    monitors_run(ending + SETTLED + timedelta(minutes=1))
    alert.refresh_from_db()
    assert alert.occurrences == 2
    # Silenced for maintenance: not seen again while the silence lasts.
    silence_add(
        table=alert.table,
        by=floor,
        minutes=30,
        reason="Test: card shuffler replaced",
        starts_at=ending + SETTLED + timedelta(minutes=1),
    )
    monitors_run(ending + SETTLED + timedelta(minutes=2))
    alert.refresh_from_db()
    assert alert.occurrences == 2
