"""Property: every bet of a round the game server cancelled is refunded exactly what it wagered,
except a blackjack already dealt at a classic table cancelled by a network failure (paid 3:2); a
played round is never refunded, and its void nets every bet to exactly what it wagered."""

import itertools
from datetime import UTC, datetime
from decimal import ROUND_FLOOR, Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack.hand import is_natural
from blackjack.rules import preset
from blackjack.simulate import simulate
from rounds import services
from rounds.models import Incident, Refund
from tables.models import Table
from tests.rounds.corrections_support import (  # noqa: F401
    corrections_urls,
    demo,
    demo_user,
    ingest,
    second_supervisor,
)

GAMES = {"DLX1": "deluxe", "BND1": "boundless", "CLS1": "classic", "MPB1": "multiplayer"}
_run = itertools.count()


def expected_refund(document: dict, bet: dict, game: str, reason: str) -> Decimal:
    wagered = Decimal(bet["wagered"])
    if game != "classic" or reason != "network_failure" or bet["kind"] not in ("main", "behind"):
        return wagered
    spot = next(s for s in document["spots"] if s["spot"] == bet["spot"])
    hands = spot["hands"]
    if len(hands) == 1 and len(hands[0]["cards"]) == 2 and is_natural(hands[0]["cards"]):
        return wagered + (wagered * Decimal("1.5")).quantize(Decimal("0.01"), rounding=ROUND_FLOOR)
    return wagered


def simulated(code: str, seed: int, count: int, cancel_rate: float) -> list[dict]:
    run = next(_run)
    rounds = simulate(
        preset(GAMES[code]),
        table=code,
        shoes=1,
        players=7 if code != "BND1" else 12,
        seed=seed,
        start=datetime(2026, 11, 28, 14, 0, tzinfo=UTC),
        cancel_rate=cancel_rate,
    )
    documents = list(itertools.islice(rounds, count))
    for document in documents:  # unique ids for each example in the same database
        document["round_id"] += f"-h{run}"
        document["shoe"] += f"-h{run}"
        for bet in document["bets"]:
            bet["bet_id"] += f"-h{run}"
    return documents


property_settings = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.usefixtures("demo")
@property_settings
@given(code=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000), count=st.integers(1, 3))
def test_rounds_the_server_cancelled_are_refunded_exactly(code, seed, count):
    documents = simulated(code, seed, count, cancel_rate=1.0)
    rounds = [ingest(document) for document in documents]
    incident = Incident.objects.get(table__code=code, status="open")
    services.incident_cancel_round(
        incident=incident, round_=rounds[0], cancelled_by=demo_user("supervisor"), reason="property"
    )
    refunds = {r.bet.bet_id: r.amount for r in Refund.objects.filter(incident=incident).select_related("bet")}
    expected = {
        bet["bet_id"]: expected_refund(document, bet, GAMES[code], document["cancel_reason"])
        for document in documents
        for bet in document["bets"]
    }
    assert refunds == expected


@pytest.mark.usefixtures("demo")
@property_settings
@given(code=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000))
def test_a_played_round_a_supervisor_cancels_is_refused_and_its_void_nets_each_bet_to_its_wager(code, seed):
    """A completed round is never refunded on top of its payouts: cancelling it is refused, and its
    void (approved by a second supervisor) returns each bet exactly what it wagered, net."""
    (document,) = simulated(code, seed, 1, cancel_rate=0.0)
    round_ = ingest(document)
    incident = services.incident_open(
        table=Table.objects.get(code=code), kind="malfunction", opened_by=demo_user("supervisor"), note="p"
    )
    with pytest.raises(services.TransitionRefused, match="completed and settled"):
        services.incident_cancel_round(
            incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="property"
        )
    void = services.void_propose(
        round_=round_, proposed_by=demo_user("supervisor"), reason="property", incident=incident
    )
    services.void_approve(void=void, decided_by=second_supervisor(), comment="property")
    services.incident_resume(incident=incident, resumed_by=demo_user("supervisor"), note="property")
    assert not Refund.objects.filter(bet__round=round_).exists()
    lines = {line.bet.bet_id: line for line in void.lines.select_related("bet")}
    assert set(lines) == {bet["bet_id"] for bet in document["bets"]}
    for bet in document["bets"]:
        line = lines[bet["bet_id"]]
        assert Decimal(bet["returned"]) + line.net == Decimal(bet["wagered"])
