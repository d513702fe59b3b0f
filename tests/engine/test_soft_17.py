"""A table where the dealer hits soft 17 (H17): the simulator, the replay and the odds follow one rule.

No preset hits soft 17 and a supervisor cannot change the rule, but the rule set carries it
(`dealer_stands_on_soft_17`), so every part of the engine must read it alike: a shoe simulated under H17
replays clean, and the replay judges a dealer by the table's rule, not by stand-on-all-17.
"""

from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from blackjack.dealer import draws_on
from blackjack.hand import hand_total
from blackjack.odds import dealer_final_hands, main_game_rtp
from blackjack.replay import replay
from blackjack.rules import GAMES, preset
from blackjack.simulate import simulate

TABLES = {"deluxe": "DLX1", "boundless": "BND1", "classic": "CLS1", "multiplayer": "MPB1"}
START = datetime(2026, 11, 28, 14, 0, tzinfo=UTC)


def hits_soft_17(game: str):
    return replace(preset(game), dealer_stands_on_soft_17=False)


def drew_on_soft_17(dealer: list[str]) -> bool:
    """Whether the dealer held a soft 17 at some point and took another card on it."""
    return any(hand_total(dealer[:held]) == (17, True) for held in range(2, len(dealer)))


# --- the rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, under_s17, under_h17",
    [
        ("TS 6D", True, True),
        ("AS 5D", True, True),  # soft 16
        ("AS 6D", False, True),  # soft 17
        ("AS 2D 4C", False, True),  # soft 17 on three cards
        ("TS 7D", False, False),  # hard 17
        ("AS 6D TC", False, False),  # hard 17 with an ace
        ("AS 7D", False, False),  # soft 18
        ("TS 6D 9C", False, False),  # bust
    ],
)
def test_the_dealer_draws_below_17_and_on_soft_17_only_under_h17(cards, under_s17, under_h17):
    total, soft = hand_total(cards.split())
    assert draws_on(total, soft, stands_on_soft_17=True) is under_s17
    assert draws_on(total, soft, stands_on_soft_17=False) is under_h17


# --- a simulated H17 shoe replays clean -------------------------------------------------------


@pytest.fixture(scope="module", params=GAMES)
def h17_shoes(request):
    game = request.param
    rules = hits_soft_17(game)
    players = 40 if game == "boundless" else 7
    documents = list(
        simulate(rules, table=TABLES[game], shoes=2, players=players, seed=3, start=START, cancel_rate=0.05)
    )
    return rules, documents


def test_a_simulated_h17_shoe_replays_without_a_finding_and_to_the_same_amounts(h17_shoes):
    rules, documents = h17_shoes
    for document in documents:
        result = replay(document, rules)
        assert result.findings == [], document["round_id"]
        for bet in document["bets"]:
            computed = result.bets[bet["bet_id"]]
            assert (computed.wagered, computed.returned) == (
                Decimal(bet["wagered"]),
                Decimal(bet["returned"]),
            ), bet["bet_id"]


def test_the_simulated_h17_dealer_draws_on_soft_17_and_never_stands_on_it(h17_shoes):
    rules, documents = h17_shoes
    completed = [document for document in documents if document["status"] == "completed"]
    assert any(drew_on_soft_17(document["dealer"]) for document in completed)
    for document in completed:
        dealer = document["dealer"]
        if len(dealer) > 2:  # the dealer drew out
            assert hand_total(dealer) != (17, True), document["round_id"]


def test_the_same_seed_under_s17_never_draws_on_soft_17():
    documents = simulate(preset("deluxe"), table="DLX1", shoes=2, players=7, seed=3, start=START)
    assert not any(drew_on_soft_17(document["dealer"]) for document in documents)


# --- the replay judges the dealer by the table's rule ------------------------------------


def deluxe_round(dealer: str, *, player="TC 8D", returned="0.00") -> dict:
    """One seated hand of 10.00 that stands, against the dealer's `dealer` cards."""
    return {
        "format": 1,
        "round_id": "DLX1-T-001",
        "table": "DLX1",
        "shoe": "DLX1-T",
        "number": 1,
        "opened_at": "2026-11-28T14:00:00Z",
        "closed_at": "2026-11-28T14:01:00Z",
        "status": "completed",
        "cut_card": False,
        "dealer": dealer.split(),
        "shared": None,
        "spots": [
            {
                "spot": "1",
                "seat": 1,
                "player": "P1",
                "hands": [{"cards": player.split(), "actions": ["stand"]}],
            }
        ],
        "bets": [
            {
                "bet_id": "B1",
                "player": "P1",
                "kind": "main",
                "spot": "1",
                "stake": "10.00",
                "wagered": "10.00",
                "returned": returned,
            }
        ],
    }


def multiplayer_round(dealer: str, *, returned="0.00") -> dict:
    """The same at the table without a hole card: the dealer's second card comes after the players."""
    document = deluxe_round(dealer, returned=returned)
    document.update(round_id="MPB1-T-001", table="MPB1", shoe="MPB1-T")
    return document


def codes(document: dict, rules) -> list[str]:
    return [finding.code for finding in replay(document, rules).findings]


H17 = hits_soft_17("deluxe")
S17 = preset("deluxe")


@pytest.mark.parametrize(
    "dealer, returned",
    [
        ("AS 6D 4C", "0.00"),  # soft 17, draws to 21: the player's 18 loses
        ("AS 6D TC", "20.00"),  # soft 17, draws to hard 17: the player's 18 wins
        ("AS 2D 4C 5H 6S", "10.00"),  # soft 17 on three cards, then hard 12, then 18: a push
        ("6D AS 9C 2H", "10.00"),  # soft 17 with the ace second, then hard 16, then 18
        ("TS 7D", "20.00"),  # a hard 17 stands
        ("AS 7D", "10.00"),  # a soft 18 stands
    ],
)
def test_under_h17_a_dealer_that_draws_on_soft_17_is_right(dealer, returned):
    assert codes(deluxe_round(dealer, returned=returned), H17) == []


def test_under_h17_standing_on_soft_17_is_stopping_early():
    findings = replay(deluxe_round("AS 6D", returned="20.00"), H17).findings
    assert [finding.code for finding in findings] == ["dealer_stopped_early"]
    assert "soft 17" in findings[0].message
    assert codes(deluxe_round("AS 2D 4C", returned="20.00"), H17) == ["dealer_stopped_early"]


def test_under_h17_a_draw_on_hard_17_or_soft_18_is_a_draw_on_17():
    assert codes(deluxe_round("TS 7D 2C"), H17) == ["dealer_drew_on_17"]
    assert codes(deluxe_round("AS 7D 2C"), H17) == ["dealer_drew_on_17"]


def test_under_s17_drawing_on_soft_17_is_a_draw_on_17():
    findings = replay(deluxe_round("AS 6D 2C"), S17).findings
    assert [finding.code for finding in findings] == ["dealer_drew_on_17"]
    assert codes(deluxe_round("AS 6D", returned="20.00"), S17) == []


def test_without_a_hole_card_the_dealer_follows_the_same_rule():
    h17, s17 = hits_soft_17("multiplayer"), preset("multiplayer")
    assert codes(multiplayer_round("AS 6D 4C"), h17) == []
    assert codes(multiplayer_round("AS 6D", returned="20.00"), h17) == ["dealer_stopped_early"]
    assert codes(multiplayer_round("AS 6D", returned="20.00"), s17) == []
    assert codes(multiplayer_round("AS 6D 4C"), s17) == ["dealer_drew_on_17"]


# --- the odds ---------------------------------------------------------------------------------


def test_h17_lowers_the_eight_deck_main_game_rtp_by_about_two_tenths_of_a_point():
    # Published effect of the dealer hitting soft 17 with 8 decks: 0.20 pp (thecolorofblackjack.com,
    # "solution one") to 0.22 pp (wizardofodds.com's rule-variation table). The engine's strategy stays
    # the stand-on-soft-17 one, which gives up a little more than the H17-adjusted strategy would.
    for game in ("deluxe", "multiplayer"):  # with and without a hole card
        s17 = main_game_rtp(preset(game))
        h17 = main_game_rtp(hits_soft_17(game))
        assert Decimal("0.18") < s17 - h17 < Decimal("0.26"), game


def test_the_h17_dealer_never_ends_on_soft_17_in_the_odds():
    def soft_17(values: tuple[int, ...]) -> bool:
        return 1 in values and sum(values) == 7

    assert not any(soft_17(hand) for hand in dealer_final_hands(8, False))
    assert any(soft_17(hand) for hand in dealer_final_hands(8, True))
    assert sum(dealer_final_hands(8, False).values()) == 1
