"""make demo's live game servers (demo.live_dealing): each call deals the next round at every open demo
table, played now, with the day's dealer, and the floor's figures count it."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from alerts.choices import Monitor
from alerts.definitions import DEALER_ROUNDS_AT_LEAST
from alerts.models import Alert
from alerts.monitors import monitors_run
from core.gaming_day import gaming_day_of
from demo.live_dealing import SLIP_EVERY, demo_deal
from demo.management.commands.demo_day import dealer_shifts
from live.choices import FindingClass
from live.models import ROUNDS_ROW, LiveFigures
from rounds.choices import FINDING_CLASSES
from rounds.models import Finding
from tables.models import Table
from tables.services import table_set_status
from tests.rounds.corrections_support import demo_user

# Rounds dealt over the last minutes, read as today's: tests/conftest.py gaming_day_clear_of_now.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gaming_day_clear_of_now")]


@pytest.fixture
def demo(db):
    call_command("seed_demo", verbosity=0)


def test_each_call_deals_the_next_round_at_every_open_table(demo):
    now = datetime.now(UTC).replace(microsecond=0)
    first = demo_deal(now)
    assert sorted(r.table.code for r in first) == ["BND1", "CLS1", "DLX1", "MPB1"]
    assert {r.number for r in first} == {1}
    assert all(r.closed_at == now and r.opened_at < now for r in first)
    for round_ in first:
        assert round_.dealt_by == dealer_shifts(round_.table.code, gaming_day_of(now))(now)
        assert round_.shoe.code == f"{gaming_day_of(now):%Y%m%d}-LIVE-{round_.table.code}-1"

    table_set_status(
        table=Table.objects.get(code="DLX1"),
        status="paused",
        changed_by=demo_user("supervisor"),
        reason="Break",
    )
    second = demo_deal(now + timedelta(seconds=15))
    assert sorted(r.table.code for r in second) == ["BND1", "CLS1", "MPB1"]  # a paused table deals none
    assert {r.number for r in second} == {2}
    # Dealt as a game server should: nothing wrong but the demo players' stakes above their personal limits.
    assert set(Finding.objects.values_list("code", flat=True)) <= {"limit_breached"}
    bnd1 = LiveFigures.objects.filter(table__code="BND1", kind=ROUNDS_ROW, day=gaming_day_of(now))
    assert sum(row.rounds for row in bnd1) == 2


def test_the_cls1_dealer_slips_and_the_monitor_finds_it(demo):
    """Every SLIP_EVERY-th round at CLS1 the dealer draws a card too many: within minutes of dealing,
    the dealer-findings monitor raises an alert for that dealer."""
    supervisor = demo_user("supervisor")
    for table in Table.objects.exclude(code="CLS1"):
        table_set_status(table=table, status="paused", changed_by=supervisor, reason="Test: CLS1 alone")
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=10)
    moments = [start + timedelta(seconds=15 * number) for number in range(DEALER_ROUNDS_AT_LEAST)]
    dealt = [round_ for moment in moments for round_ in demo_deal(moment)]
    assert len(dealt) == DEALER_ROUNDS_AT_LEAST
    slipped = {r.number for r in dealt if r.findings.filter(code__in=FINDING_CLASSES[FindingClass.DEALER])}
    # Each slip is a dealer finding (and its extra cards may later count more of a card than the shoe holds).
    assert slipped >= {n for n in range(1, DEALER_ROUNDS_AT_LEAST + 1) if n % SLIP_EVERY == 0}
    monitors_run(moments[-1] + timedelta(minutes=1))
    (alert,) = Alert.objects.filter(monitor=Monitor.DEALER_FINDINGS)
    assert (alert.table.code, alert.subject) == ("CLS1", dealt[-1].dealt_by)
