"""Properties of the engine's own settlement over simulated shoes (hypothesis).

The engine's computed amounts, not the simulator's, are checked against what the rule sheets
allow: a refund returns exactly what was wagered, a surrender returns half, and money moves
between wagered and returned only by the odds of a paytable.
"""

from datetime import UTC, datetime
from decimal import ROUND_FLOOR, Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack.replay import replay
from blackjack.rules import GAMES, PRESETS, SIDE_OPTION_KINDS
from blackjack.simulate import simulate
from tests.engine.documents import bet, hand, player_spot, replay_document, round_document

START = datetime(2026, 11, 28, 14, tzinfo=UTC)
ZERO = Decimal("0.00")


def down(amount: Decimal) -> Decimal:
    return amount.quantize(Decimal("0.01"), rounding=ROUND_FLOOR)


def hand_results(wager: Decimal, blackjack_pays: Decimal) -> set[Decimal]:
    """Everything one hand can return on a wager: lose, surrender, push, win, blackjack."""
    return {ZERO, down(wager / 2), wager, wager * 2, wager + down(wager * blackjack_pays)}


def decisions(spot_hand: dict) -> list[str]:
    return [a if isinstance(a, str) else a["action"] for a in spot_hand["actions"]]


def shoe_of(game: str, seed: int) -> list[dict]:
    players = 40 if game == "boundless" else 7
    return list(
        simulate(PRESETS[game], table="T1", shoes=1, players=players, seed=seed, start=START, cancel_rate=0.1)
    )


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(min_value=0, max_value=2**31))
def test_money_moves_only_by_the_paytables(game, seed):
    rules = PRESETS[game]
    for document in shoe_of(game, seed):
        result = replay(document, rules)
        assert result.findings == []
        spots = {spot["spot"]: spot for spot in document["spots"]}
        for record in document["bets"]:
            computed = result.bets[record["bet_id"]]
            stake = Decimal(record["stake"])
            if document["status"] == "cancelled":
                assert computed.returned >= computed.wagered  # a refund, or a dealt blackjack paid
                if not rules.cancel_pays_dealt_blackjack or document["cancel_reason"] != "network_failure":
                    assert computed.returned == computed.wagered
                continue
            hands = spots[record["spot"]]["hands"]
            if record["kind"] in SIDE_OPTION_KINDS:
                paytable = rules.side_option(record["kind"]).paytable
                assert computed.returned in {ZERO} | {stake + down(stake * odds) for _, odds in paytable}
            elif record["kind"] == "insurance":
                assert computed.returned in {ZERO, stake + down(stake * rules.insurance_pays)}
            elif record["kind"] == "main" and len(hands) == 1:
                wager = computed.wagered
                assert wager in (stake, stake * 2)
                if "surrender" in decisions(hands[0]):
                    assert computed.returned == down(stake / 2)
                else:
                    assert computed.returned in hand_results(wager, rules.blackjack_pays)
            elif record["kind"] == "main":
                # Two hands: the sum of two hand results, each on its own wager.
                wagers = [stake * (2 if "double" in decisions(h) else 1) for h in hands]
                first, second = (hand_results(w, rules.blackjack_pays) for w in wagers)
                assert computed.returned in {a + b for a in first for b in second}
                assert computed.wagered == sum(wagers)


@given(cents=st.integers(min_value=1, max_value=100_000_000))
def test_a_surrender_returns_half_rounded_down(cents):
    stake = Decimal(cents) / 100
    document = round_document(
        "deluxe",
        "9S 8D",
        [player_spot("1", hand("TC 6D", "surrender")) | {"seat": 1}],
        [bet("B1", "1", "main", "1", f"{stake:.2f}")],
    )
    result = replay_document(document).bets["B1"]
    assert result.wagered == stake
    assert result.returned == down(stake / 2)
    assert result.returned * 2 in (stake, stake - Decimal("0.01"))


@given(cents=st.integers(min_value=1, max_value=100_000_000))
def test_a_blackjack_wins_exactly_three_halves_rounded_down(cents):
    stake = Decimal(cents) / 100
    document = round_document(
        "classic",
        "9S 8D",
        [player_spot("1", hand("AC KD")) | {"seat": 1}],
        [bet("B1", "1", "main", "1", f"{stake:.2f}")],
    )
    returned = replay_document(document).bets["B1"].returned
    assert returned - stake == down(stake * 3 / 2)
    assert Decimal("0") <= stake * 3 / 2 - (returned - stake) < Decimal("0.01")


CARDS = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC"]


@given(
    cents=st.integers(min_value=1, max_value=100_000_000),
    kind=st.sampled_from(["perfect_pairs", "twenty_one_plus_three"]),
    cards=st.lists(st.sampled_from(CARDS), min_size=3, max_size=3),
    cancelled=st.booleans(),
)
def test_a_classic_side_option_without_the_players_main_bet_returns_exactly_its_stake(
    cents, kind, cards, cancelled
):
    """Whatever the cards (a perfect pair, a suited trips), the stake, and whether the round was
    cancelled: the bet of a player with no main bet and no bet behind on the seat is void."""
    stake = f"{Decimal(cents) / 100:.2f}"
    first, second, up = cards
    document = round_document(
        "classic",
        f"{up} 2C",
        [player_spot("1", hand(f"{first} {second}")) | {"seat": 1}],
        [bet("B1", "P1", "main", "1", "10.00"), bet("B2", "P2", kind, "1", stake, returned=stake)],
    )
    if cancelled:
        document |= {"status": "cancelled", "cancel_reason": "network_failure"}
    result = replay_document(document)
    assert (str(result.bets["B2"].wagered), str(result.bets["B2"].returned)) == (stake, stake)
    assert [(f.code, f.bet) for f in result.findings if f.bet == "B2"] == [
        ("side_option_without_main_bet", "B2")
    ]
