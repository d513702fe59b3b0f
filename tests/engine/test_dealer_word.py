"""A finding's message names who deals as the game's rule sheet does (rules.DEALER_WORDS): the dealer at
classic and multi-player, the facilitator at Deluxe and Boundless. Titles (findings.FINDING_CODES),
shown in filters across the games, say dealer."""

import pytest

from blackjack.findings import FINDING_CODES
from blackjack.rules import DEALER_WORDS, GAMES
from tests.engine.documents import bet, hand, player_spot, replay_document, round_document, seat

OTHER_WORD = {"dealer": "facilitator", "facilitator": "dealer"}


def played(game: str, dealer: str, cards: str, *actions: str, extra_bets=()) -> dict:
    """One player's hand against `dealer` at `game`: a seat, or at Boundless the shared deal."""
    if game == "boundless":
        dealt = cards.split()
        spots = [player_spot("P1", hand(cards, *actions))]
        shared = {"initial": dealt[:2], "draws": dealt[2:]}
        spot = "P1"
    else:
        spots, shared, spot = [seat(1, "P1", hand(cards, *actions))], None, 1
    bets = [bet("B1", "P1", "main", spot, "10.00"), *(b | {"spot": str(spot)} for b in extra_bets)]
    return round_document(game, dealer, spots, bets, shared=shared)


def rounds_naming_the_dealer(game: str) -> dict[str, dict]:
    """A round for each finding whose message speaks of who deals, where the game can have it."""
    rounds = {
        "dealer_stopped_early": played(game, "9S 5D", "TC 8D", "stand"),
        "dealer_drew_on_17": played(game, "9S 8D 2C", "TC 8D", "stand"),
        "insurance_without_ace": played(
            game, "9S 8D", "TC 8D", "stand", extra_bets=[bet("B2", "P1", "insurance", 1, "5.00")]
        ),
        "bad_card": played(game, "9S 1X", "TC 8D", "stand"),
        "dealer_drew_after_end": played(game, "9S 5D 2C", "TC 6D 9H", "hit"),
    }
    if game != "multiplayer":  # the hole-card games
        rounds["dealer_missing_hole_card"] = played(game, "9S", "TC 8D", "stand")
        rounds["play_after_dealer_blackjack"] = played(game, "AS KD", "TC 2D 5H", "hit", "stand")
    if game in ("deluxe", "boundless"):  # the games with surrender
        rounds["surrender_not_allowed"] = played(game, "TS 7D", "TC 6D", "surrender")
    return rounds


@pytest.mark.parametrize("game", GAMES)
def test_a_findings_message_names_who_deals_in_the_games_word(game):
    word = DEALER_WORDS[game]
    for code, document in rounds_naming_the_dealer(game).items():
        messages = [f.message for f in replay_document(document).findings if f.code == code]
        assert messages, (game, code, replay_document(document).findings)
        for message in messages:
            assert word in message.lower(), (game, message)
            assert OTHER_WORD[word] not in message.lower(), (game, message)


def test_every_title_says_dealer():
    assert not [title for title in FINDING_CODES.values() if "facilitator" in title.lower()]
    assert FINDING_CODES["dealer_stopped_early"] == "Dealer stopped below 17"
    assert FINDING_CODES["insurance_without_ace"] == "Insurance without a dealer ace"
