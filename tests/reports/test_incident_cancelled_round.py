"""A round the game server reported completed but a supervisor cancelled in an incident counts as
cancelled in the daily figures: its bets were refunded, so its settlement is not the day's money."""

import io
import json
import random
from collections import defaultdict
from datetime import UTC, date, datetime, time
from decimal import Decimal

import pytest
from django.core.management import call_command

from reports.daily import table_day_compute
from reports.models import DailyExposure, DailyFigures, DailyTableSummary, ReportRun
from rounds.engine.rules import preset
from rounds.engine.simulate import simulate_shoe
from rounds.ingest import round_ingest
from rounds.models import Bet, Round
from rounds.services import incident_cancel_round, incident_open
from tables.models import Table
from tests import factories
from tests.rounds.corrections_support import classic_completed_blackjack, ingest

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 28)  # the day the fixture rounds were played (tests/fixtures/README.md)


def test_a_round_cancelled_in_an_incident_leaves_the_rtp_figures():
    call_command("seed_demo", stdout=io.StringIO())
    table = Table.objects.get(code="CLS1")
    played = ingest(classic_completed_blackjack())
    run = ReportRun.objects.create(day=DAY, trigger="command", time_zone="Europe/Malta", cutoff="06:00")
    table_day_compute(table=table, day=DAY, run=run)
    assert DailyFigures.objects.filter(day=DAY, table=table).exists()
    assert DailyTableSummary.objects.get(day=DAY, table=table).cancelled_rounds == 0

    supervisor = factories.user("supervisor")
    incident = incident_open(table=table, kind="card_unreadable", opened_by=supervisor, note="unreadable")
    incident_cancel_round(incident=incident, round_=played, cancelled_by=supervisor, reason="card unreadable")
    table_day_compute(table=table, day=DAY, run=run)
    assert not DailyFigures.objects.filter(day=DAY, table=table).exists()
    summary = DailyTableSummary.objects.get(day=DAY, table=table)
    assert (summary.rounds, summary.cancelled_rounds, summary.flagged) == (1, 1, True)


def test_cancelling_the_days_peak_round_moves_the_peak_to_the_next_largest():
    """The day totals keep the round that staked the most on a side option; when a supervisor
    cancels that round, the exposure's peak is found again among the rounds left."""
    call_command("seed_demo", stdout=io.StringIO())
    table = Table.objects.get(code="DLX1")
    start = datetime.combine(DAY, time(9), tzinfo=UTC)
    documents = simulate_shoe(
        preset("deluxe"), table="DLX1", shoe_id="DLX1-PEAK", players=7, rng=random.Random(3), start=start
    )
    for document in documents[:30]:
        round_ingest(document=json.loads(json.dumps(document)))
    run = ReportRun.objects.create(day=DAY, trigger="command", time_zone="Europe/Malta", cutoff="06:00")
    table_day_compute(table=table, day=DAY, run=run)
    peak = DailyExposure.objects.get(day=DAY, table=table, kind="pair")
    pair_rounds = DailyFigures.objects.get(day=DAY, table=table, kind="pair").rounds
    assert peak.peak_round_id == largest_pair_round(exclude=None)

    supervisor = factories.user("supervisor")
    incident = incident_open(table=table, kind="card_unreadable", opened_by=supervisor, note="unreadable")
    cancelled = Round.objects.get(round_id=peak.peak_round_id)
    incident_cancel_round(
        incident=incident, round_=cancelled, cancelled_by=supervisor, reason="card unreadable"
    )
    table_day_compute(table=table, day=DAY, run=run)
    moved = DailyExposure.objects.get(day=DAY, table=table, kind="pair")
    assert moved.peak_round_id == largest_pair_round(exclude=cancelled.pk) != peak.peak_round_id
    assert DailyFigures.objects.get(day=DAY, table=table, kind="pair").rounds == pair_rounds - 1


def largest_pair_round(*, exclude: int | None) -> str:
    """The first round stored among those that staked the most on Pair, from the bets."""
    stakes = defaultdict(Decimal)
    for round_pk, stake in (
        Bet.objects.filter(kind="pair").exclude(round_id=exclude).values_list("round_id", "stake")
    ):
        stakes[round_pk] += stake
    largest = max(stakes.values())
    return Round.objects.get(pk=min(pk for pk, stake in stakes.items() if stake == largest)).round_id
