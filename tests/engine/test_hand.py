"""Scoring: soft and hard totals, busts, and what counts as a blackjack."""

import pytest

from blackjack.hand import hand_total, is_blackjack, is_bust


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        ("AS 9H", 20, True),
        ("AS 9D 5C", 15, False),
        ("AS AD", 12, True),
        ("AS AD 9C", 21, True),
        ("KS QD", 20, False),
        ("AS 6D", 17, True),
        ("TS 6D AS", 17, False),
        ("AH AD AC AS 2H 2D 2C 2S 3H", 15, False),
    ],
)
def test_it_scores_a_hand(cards, total, soft):
    assert hand_total(cards.split()) == (total, soft)


def test_a_blackjack_is_two_initial_cards_of_an_unsplit_hand():
    assert is_blackjack(["AH", "JS"])
    assert not is_blackjack(["AH", "JS"], from_split=True)
    assert not is_blackjack(["AH", "5S", "5D"])


def test_a_bust_is_above_21():
    assert is_bust(["TH", "6S", "6D"]) and not is_bust(["TH", "6S", "5D"])
