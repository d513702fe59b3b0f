"""Corrections in the figures. A voided round leaves the RTP figures exactly as a round cancelled in an
incident does (`rounds.outcome.NOT_PLAYED`: every bet returned what it wagered), read from the round's
one correction (RoundCorrection); a re-settled round stays with its adjustments. The summary counts
the day's rounds by the outcome the rest of Pitboss shows (`rounds.outcome`)."""

import io
import json
import random
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command

from blackjack.rules import preset
from blackjack.simulate import simulate, simulate_shoe
from core.gaming_day import gaming_day
from reports.daily import table_day_compute
from reports.models import DailyExposure, DailyFigures, DailyTableSummary, ReportRun
from rounds.choices import CorrectionKind
from rounds.ingest import round_ingest
from rounds.models import Bet, Refund, Round, RoundCorrection
from rounds.outcome import RoundOutcome, outcome_expression
from rounds.services import bets_to_adjust, incident_open
from tables.models import Table
from tests import factories
from tests.reports.corrections import refund_in_incident, resettle, void
from tests.rounds.corrections_support import classic_completed_blackjack, ingest

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 28)  # the day the fixture rounds were played (tests/fixtures/README.md)


def new_run(day: date = DAY) -> ReportRun:
    return ReportRun.objects.create(day=day, trigger="command", time_zone="Europe/Malta", cutoff="06:00")


def test_a_voided_round_leaves_the_rtp_figures_and_counts_as_voided():
    call_command("seed_demo", stdout=io.StringIO())
    table = Table.objects.get(code="CLS1")
    played = ingest(classic_completed_blackjack())
    first = new_run()
    table_day_compute(table=table, day=DAY, run=first)
    assert DailyFigures.objects.filter(run=first, table=table).exists()
    assert DailyTableSummary.objects.get(run=first, table=table).voided_rounds == 0

    void(played)
    second = new_run()
    table_day_compute(table=table, day=DAY, run=second)
    assert not DailyFigures.objects.filter(run=second, table=table).exists()
    summary = DailyTableSummary.objects.get(run=second, table=table)
    assert (summary.rounds, summary.voided_rounds, summary.cancelled_rounds, summary.flagged) == (
        1,
        1,
        0,
        False,
    )
    bets = Bet.objects.filter(round=played)
    assert summary.voided_reversed == sum(bet.returned for bet in bets) == Decimal("74.00")
    assert summary.voided_stakes_returned == sum(bet.wagered for bet in bets)
    assert DailyFigures.objects.filter(run=first, table=table).exists()  # the first run's, as issued


def test_a_round_cancelled_in_an_incident_before_voids_existed_leaves_them_alike():
    """Before voids, a supervisor could cancel a completed round in an incident, refunding its bets;
    migration rounds/0011 recorded those as corrections of kind "cancelled". One definition: it leaves
    the figures as a void does, and counts as cancelled (in an incident)."""
    call_command("seed_demo", stdout=io.StringIO())
    table = Table.objects.get(code="CLS1")
    played = ingest(classic_completed_blackjack())
    supervisor = factories.user("supervisor")
    incident = incident_open(table=table, kind="card_unreadable", opened_by=supervisor, note="unreadable")
    Refund.objects.bulk_create(
        Refund(incident=incident, bet=bet, gaming_day=bet.gaming_day, amount=bet.wagered)
        for bet in Bet.objects.filter(round=played)
    )
    RoundCorrection.objects.create(round=played, kind=CorrectionKind.CANCELLED, incident=incident)
    run = new_run()
    table_day_compute(table=table, day=DAY, run=run)
    assert not DailyFigures.objects.filter(run=run, table=table).exists()
    summary = DailyTableSummary.objects.get(run=run, table=table)
    assert (summary.rounds, summary.cancelled_rounds, summary.voided_rounds) == (1, 1, 0)
    assert summary.refunds == played.bet_count and summary.refunded == sum(
        bet.wagered for bet in Bet.objects.filter(round=played)
    )


def test_the_summary_counts_each_outcome_as_rounds_outcome_does():
    call_command("seed_demo", stdout=io.StringIO())
    day = date(2026, 3, 5)
    table = Table.objects.get(code="CLS1")
    start = gaming_day(day).starts_at + timedelta(hours=1)
    for document in simulate(
        preset("classic"), table="CLS1", shoes=1, players=4, seed=31, start=start,
        wrong_payout_rate=0.08, cancel_rate=0.08,
    ):  # fmt: skip
        round_ingest(document=json.loads(json.dumps(document)))
    rounds = Round.objects.filter(table=table, gaming_day=day).order_by("pk")
    completed = [r for r in rounds if r.status == "completed"]
    resettle(next(r for r in completed if bets_to_adjust(r).exists()))
    void(next(r for r in reversed(completed) if not bets_to_adjust(r).exists()))
    refund_in_incident(rounds.filter(status="cancelled").first())
    run = new_run(day)
    table_day_compute(table=table, day=day, run=run)
    summary = DailyTableSummary.objects.get(run=run, table=table)
    outcomes = Counter(rounds.annotate(outcome=outcome_expression()).values_list("outcome", flat=True))
    assert outcomes[RoundOutcome.CANCELLED_BY_SERVER] >= 1 and outcomes[RoundOutcome.VOIDED] == 1
    assert summary.refunds == Refund.objects.filter(bet__round__in=rounds).count() > 0
    assert summary.rounds == sum(outcomes.values())
    assert summary.cancelled_rounds == (
        outcomes[RoundOutcome.CANCELLED_BY_SERVER] + outcomes[RoundOutcome.CANCELLED_IN_INCIDENT]
    )
    assert (
        (summary.voided_rounds, summary.resettled_rounds)
        == (1, 1)
        == (
            outcomes[RoundOutcome.VOIDED],
            outcomes[RoundOutcome.RESETTLED],
        )
    )
    main = DailyFigures.objects.get(run=run, table=table, kind="main")
    assert main.rounds == outcomes[RoundOutcome.COMPLETED] + outcomes[RoundOutcome.RESETTLED]


def test_voiding_the_days_peak_round_moves_the_peak_to_the_next_largest():
    """The day totals keep the round that staked the most on a side option; when that round is voided,
    the exposure's peak is found again among the rounds left."""
    call_command("seed_demo", stdout=io.StringIO())
    table = Table.objects.get(code="DLX1")
    start = datetime.combine(DAY, time(9), tzinfo=UTC)
    documents = simulate_shoe(
        preset("deluxe"), table="DLX1", shoe_id="DLX1-PEAK", players=7, rng=random.Random(3), start=start
    )
    for document in documents[:30]:
        round_ingest(document=json.loads(json.dumps(document)))
    run = new_run()
    table_day_compute(table=table, day=DAY, run=run)
    peak = DailyExposure.objects.get(run=run, table=table, kind="pair")
    pair_rounds = DailyFigures.objects.get(run=run, table=table, kind="pair").rounds
    assert peak.peak_round_id == largest_pair_round(exclude=None)

    voided = Round.objects.get(round_id=peak.peak_round_id)
    void(voided)
    again = new_run()
    table_day_compute(table=table, day=DAY, run=again)
    moved = DailyExposure.objects.get(run=again, table=table, kind="pair")
    assert moved.peak_round_id == largest_pair_round(exclude=voided.pk) != peak.peak_round_id
    assert DailyFigures.objects.get(run=again, table=table, kind="pair").rounds == pair_rounds - 1


def largest_pair_round(*, exclude: int | None) -> str:
    """The first round stored among those that staked the most on Pair, from the bets."""
    stakes = defaultdict(Decimal)
    for round_pk, stake in (
        Bet.objects.filter(kind="pair").exclude(round_id=exclude).values_list("round_id", "stake")
    ):
        stakes[round_pk] += stake
    largest = max(stakes.values())
    return Round.objects.get(pk=min(pk for pk, stake in stakes.items() if stake == largest)).round_id
