"""The RTP drift monitor on simulated play: quiet on a fair shoe, alerting on a shoe without its low
cards (a game that pays every hand right but deals in the players' favour), and the figures it reads
from ingested rounds equal to a recount from their bets."""

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db.models import Sum

from alerts import drift, monitors
from alerts.choices import Monitor
from alerts.models import Alert, DriftState
from alerts.monitors import (
    LEARNING_ROUNDS,
    ROUNDS_PER_DAY_AT_MOST,
    SHIFT_TO_DETECT,
    Run,
    drift_add,
    monitors_run,
)
from alerts.thresholds import thresholds_in_force
from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from rounds.models import Bet, Round
from tables.models import ConfigurationOdds, Table, TableConfiguration
from tables.odds import configuration_odds_compute
from tests.alerts.support import deal, minute_ago
from tests.rounds.corrections_support import demo

pytestmark = pytest.mark.django_db
__all__ = ["demo"]  # the fixture, used by name
LOW_CARDS_OUT = {rank: 4 for rank in "23456"}


def main_rounds(count: int, *, seed: int, removed_per_deck=None) -> list[tuple[str, float, float, float]]:
    """Each played round's main bet (id, original stakes, wagered, returned), for `count` rounds of
    simulated Boundless shoes."""
    rounds = []
    for number in range(10_000):
        documents = simulate_shoe(
            preset("boundless"),
            table="BND1",
            shoe_id=f"D{seed}-{number}",
            players=3,
            rng=random.Random(seed * 100_000 + number),
            start=datetime(2026, 12, 1, tzinfo=UTC),
            removed_per_deck=removed_per_deck,
        )
        for document in documents:
            bets = [bet for bet in document["bets"] if bet["kind"] == "main"]
            if document["status"] != "completed" or not bets:
                continue
            sums = [
                float(sum(Decimal(bet[name]) for bet in bets)) for name in ("stake", "wagered", "returned")
            ]
            rounds.append((document["round_id"], *sums))
            if len(rounds) == count:
                return rounds
    raise AssertionError("not enough rounds")


@pytest.fixture
def bnd1(demo):
    for configuration in TableConfiguration.objects.all():
        configuration_odds_compute(configuration=configuration)
    return Table.objects.get(code="BND1")


def cusum_over(table: Table, rounds: list[tuple[str, float, float, float]], state: DriftState) -> list[Alert]:
    """The rounds through the monitor's CUSUM of the table's main bet, as drift_check hands them on."""
    (figures,) = monitors.theoretical_rtps([table.configurations.latest("pk").pk]).values()
    rtp = figures["main"]
    run = Run(
        now=datetime.now(UTC),
        tables={table.pk: table},
        thresholds=thresholds_in_force([table]),
        silenced=set(),
        raised=[],
    )
    observed = [
        (round_id, staked, drift.round_residual(staked, wagered, returned, rtp))
        for round_id, staked, wagered, returned in rounds
    ]
    drift_add(run, state, observed, kinds=1)
    return run.raised


def test_quiet_on_fair_shoes_and_alerting_on_a_shoe_without_low_cards(bnd1):
    state = DriftState(table=bnd1, kind="main")
    fair = main_rounds(LEARNING_ROUNDS["main"] + 3000, seed=1)
    assert cusum_over(bnd1, fair, state) == []
    sigma = (state.deviation_squares / state.rounds) ** 0.5
    design = drift.drift_design(
        SHIFT_TO_DETECT["main"], sigma, drift.false_alert_observations(30, ROUNDS_PER_DAY_AT_MOST, 1)
    )
    assert max(state.high, state.low) < design.h
    # The same table, now dealing shoes without their 2s to 6s: the players' RTP is far above theory.
    rigged = main_rounds(6000, seed=2, removed_per_deck=LOW_CARDS_OUT)
    raised = cusum_over(bnd1, rigged, state)
    assert raised
    alert = raised[0]
    assert (alert.monitor, alert.subject, alert.figures["direction"]) == (Monitor.RTP_DRIFT, "main", "above")
    assert alert.measure > alert.threshold
    assert Decimal(str(alert.figures["h"])).quantize(Decimal("0.01")) == alert.threshold.quantize(
        Decimal("0.01")
    )
    # Found within the shoes dealt; the round it was found at is one of the rigged ones.
    assert alert.figures["round"] in {round_id for round_id, *_ in rigged}


def test_the_monitor_reads_each_rounds_residual_from_its_bets(bnd1, monkeypatch):
    monkeypatch.setattr(monitors, "LEARNING_ROUNDS", {"main": 5, "side": 5})
    ending = minute_ago()
    rounds = deal("BND1", "RESIDUALS", 20, ending=ending, players=4)
    monitors_run(ending + timedelta(seconds=40))
    rtp = (
        float(ConfigurationOdds.objects.get(configuration=rounds[0].configuration).figures["rtp"]["main"])
        / 100
    )
    stakes, residuals = [], []
    for round_ in Round.objects.filter(pk__in=[r.pk for r in rounds], status="completed"):
        sums = Bet.objects.filter(round=round_, kind="main").aggregate(
            s=Sum("stake"), w=Sum("wagered"), r=Sum("computed_returned")
        )
        stakes.append(float(sums["s"]))
        residuals.append(float(sums["r"] - sums["w"]) - (rtp - 1) * float(sums["s"]))
    state = DriftState.objects.get(table=bnd1, kind="main")
    assert state.rounds == len(residuals)
    assert state.stakes == pytest.approx(sum(stakes), abs=1e-6)
    assert state.deviation_sum == pytest.approx(sum(residuals), abs=1e-6)
    assert state.deviation_squares == pytest.approx(
        sum((e / s) ** 2 for e, s in zip(residuals, stakes, strict=True)), rel=1e-9
    )
