"""The dealer's hand: stands on all 17, draws only while a bet depends on it."""

import pytest

from tests.engine.documents import bet, codes, hand, player_spot, round_document, seat


def deluxe(dealer, cards="TC 8D", actions=("stand",), returned="0.00", extra_bets=()):
    return round_document(
        "deluxe",
        dealer,
        [seat(1, "P1", hand(cards, *actions))],
        [bet("B1", "P1", "main", 1, "10.00", returned=returned), *extra_bets],
    )


def test_it_accepts_a_dealer_standing_on_soft_17():
    assert codes(deluxe("AS 6D", returned="20.00")) == []


def test_it_reports_a_draw_on_soft_17():
    assert codes(deluxe("AS 6D 2C", returned="0.00")) == ["dealer_drew_on_17"]


def test_it_reports_a_dealer_stopping_below_17():
    assert codes(deluxe("TS 6D", returned="20.00")) == ["dealer_stopped_early"]


def test_it_reports_a_draw_after_every_hand_bust():
    document = deluxe("TS 6D 5C", cards="TC 6D 9H", actions=("hit",))
    assert codes(document) == ["dealer_drew_after_end"]
    assert codes(deluxe("TS 6D", cards="TC 6D 9H", actions=("hit",))) == []


def test_deluxe_ends_the_round_when_every_seated_hand_is_a_blackjack():
    assert codes(deluxe("TS 6D", cards="AC KD", actions=(), returned="25.00")) == []
    assert codes(deluxe("TS 6D 5C", cards="AC KD", actions=(), returned="25.00")) == ["dealer_drew_after_end"]


def test_classic_ends_the_round_when_every_player_is_bust_or_blackjack():
    document = round_document(
        "classic",
        "5S 6D",
        [seat(1, "P1", hand("AC KD")), seat(2, "P2", hand("TC 6D 9H", "hit"))],
        [bet("B1", "P1", "main", 1, "10.00", returned="25.00"), bet("B2", "P2", "main", 2, "10.00")],
    )
    assert codes(document) == []


def test_a_bust_bonus_stake_makes_the_dealer_draw():
    shared = {"initial": ["TC", "6D"], "draws": ["9H"]}
    spots = [player_spot("P1", hand("TC 6D 9H", "hit")), player_spot("P2")]
    bets = [
        bet("B1", "P1", "main", "P1", "10.00"),
        bet("B2", "P2", "bust_bonus", "P2", "5.00", returned="10.00"),
    ]
    busting = round_document("boundless", "TS 6D 8C", spots, bets, shared=shared)
    assert codes(busting) == []  # bust with 3 cards pays 1:1
    assert codes(round_document("boundless", "TS 6D", spots, bets, shared=shared)) == [
        "dealer_stopped_early",
        "wrong_returned",
    ]


def test_a_hole_card_blackjack_ends_the_round_before_any_decision():
    assert codes(deluxe("AS KD", cards="TC 8D", actions=())) == []
    assert codes(deluxe("AS KD", cards="TC 5D 3H", actions=("hit", "stand"))) == [
        "play_after_dealer_blackjack"
    ]
    assert codes(deluxe("AS KD 5C", cards="TC 8D", actions=())) == ["dealer_drew_after_end"]


def test_a_hole_card_table_needs_the_hole_card():
    assert codes(deluxe("TS", returned="20.00")) == ["dealer_missing_hole_card"]


class TestNoHoleCard:
    @staticmethod
    def multiplayer(dealer, cards, actions=(), returned="0.00"):
        return round_document(
            "multiplayer",
            dealer,
            [seat(1, "P1", hand(cards, *actions))],
            [bet("B1", "P1", "main", 1, "10.00", returned=returned)],
        )

    def test_a_player_blackjack_waits_for_the_second_card_against_a_ten(self):
        assert codes(self.multiplayer("TS 7D", "AC KD", returned="25.00")) == []
        assert codes(self.multiplayer("TS", "AC KD", returned="25.00")) == ["dealer_stopped_early"]
        assert (
            codes(self.multiplayer("TS AD", "AC KD", returned="10.00")) == []
        )  # blackjack against blackjack

    def test_after_the_second_card_the_blackjack_no_longer_depends(self):
        assert codes(self.multiplayer("TS 5D 2C", "AC KD", returned="25.00")) == ["dealer_drew_after_end"]

    def test_a_player_blackjack_against_a_five_needs_no_dealer_card(self):
        assert codes(self.multiplayer("5S", "AC KD", returned="25.00")) == []

    def test_the_dealer_draws_nothing_when_every_hand_is_bust(self):
        assert codes(self.multiplayer("9S", "TC 6D 9H", ("hit",))) == []
        assert codes(self.multiplayer("9S 8D", "TC 6D 9H", ("hit",))) == ["dealer_drew_after_end"]


@pytest.mark.parametrize("dealer", ["9S 7H KD", "6S TH 5C", "TS 7D"])
def test_it_accepts_a_dealer_that_drew_exactly_to_17_or_more(dealer):
    document = deluxe(dealer, cards="TC 8D")
    assert [code for code in codes(document) if code != "wrong_returned"] == []
