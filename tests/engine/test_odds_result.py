"""What theoretical odds carry (every offered kind, patterns, the chart, the method) and how a worked-out
main game is shared by rule sets that play it alike."""

import pytest

from blackjack.odds import main_game_rtp, theoretical_odds
from blackjack.rules import SIDE_OPTION_PATTERNS, preset

# --- the result ---------------------------------------------------------------------------------------


def test_odds_carry_every_offered_bet_kind_and_the_patterns_of_each_side_option():
    odds = theoretical_odds(preset("boundless"))

    assert list(odds.rtp) == ["main", "insurance", "pair", "lucky_trio", "poker_trio", "bust_bonus"]
    assert odds.rtp["main"] == main_game_rtp(preset("boundless"))
    assert odds.house_edge("main") == 100 - odds.rtp["main"]
    assert set(odds.patterns) == {"pair", "bust_bonus", "lucky_trio", "poker_trio"}
    assert list(odds.patterns["bust_bonus"]) == list(SIDE_OPTION_PATTERNS["bust_bonus"])
    assert odds.strategy.startswith("Maximum RTP: best play, composition-dependent")
    assert odds.auto_play_rtp < odds.rtp["main"]


def test_to_dict_gives_percentages_to_four_places_and_probabilities_as_floats():
    data = theoretical_odds(preset("deluxe")).to_dict()

    assert list(data) == [
        "main",
        "behind",
        "insurance",
        "pair",
        "auto_play",
        "patterns",
        "strategy",
        "chart",
        "method",
    ]
    assert data["main"] == data["behind"] == 99.5169
    assert data["insurance"] == 92.5301
    assert data["pair"] == 97.1154
    assert data["patterns"]["pair"]["perfect_pair"] == pytest.approx(7 / 415 * 408 / 414, rel=1e-15)
    assert isinstance(data["strategy"], str)


def test_a_game_without_side_options_has_no_patterns():
    data = theoretical_odds(preset("multiplayer")).to_dict()

    assert data["patterns"] == {}
    assert set(data) == {
        "main",
        "behind",
        "insurance",
        "auto_play",
        "patterns",
        "strategy",
        "chart",
        "method",
    }


def test_a_new_paytable_reuses_the_worked_out_main_game():
    from blackjack import odds

    rules = preset("deluxe")
    before_change = odds.theoretical_odds(rules)
    before = odds.main_game.main_game_figures_of.cache_info()
    richer = rules.with_changes(
        {"side_options": {"pair": {"paytable": {"mixed_pair": 6, "coloured_pair": 10, "perfect_pair": 30}}}}
    )
    figures = odds.theoretical_odds(richer)
    after = odds.main_game.main_game_figures_of.cache_info()

    assert figures.rtp["main"] == before_change.rtp["main"]
    assert figures.auto_play_rtp == before_change.auto_play_rtp
    assert after.misses == before.misses  # neither best nor automatic play is worked out again
    assert after.hits > before.hits


def test_boundless_plays_the_main_game_of_deluxe_and_shares_its_figures():
    from blackjack import odds

    deluxe = odds.theoretical_odds(preset("deluxe"))
    before = odds.main_game.main_game_figures_of.cache_info()
    boundless = odds.theoretical_odds(preset("boundless"))

    assert odds.main_game.main_game_figures_of.cache_info().misses == before.misses
    assert (boundless.rtp["main"], boundless.auto_play_rtp) == (deluxe.rtp["main"], deluxe.auto_play_rtp)
