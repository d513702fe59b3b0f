"""The bounds a table's configuration keeps, and every problem of a change named at once."""

from decimal import Decimal

import pytest

from blackjack.rules import (
    GAMES,
    MAX_ODDS,
    MAX_ROUND_BOUND,
    PRESETS,
    SHEET_SEATS,
    RuleError,
    RuleSet,
    bound_problems,
    preset,
)


@pytest.mark.parametrize("game", GAMES)
def test_every_preset_keeps_within_the_bounds(game):
    assert bound_problems(preset(game).to_dict()) == []
    assert preset(game).seats == SHEET_SEATS[game]


@pytest.mark.parametrize(
    ("game", "changes", "field"),
    [
        ("deluxe", {"seats": 8}, "seats"),
        ("classic", {"seats": 99999999999}, "seats"),
        ("multiplayer", {"seats": 8}, "seats"),
        ("boundless", {"seats": 3}, "seats"),  # a game without seats takes none
        (
            "deluxe",
            {"side_options": {"pair": {"paytable": {"mixed_pair": "1e308"}}}},
            "side_options.pair.paytable.mixed_pair",
        ),
        (
            "deluxe",
            {"side_options": {"pair": {"paytable": {"mixed_pair": "10000.01"}}}},
            "side_options.pair.paytable.mixed_pair",
        ),
        (
            "deluxe",
            {"side_options": {"pair": {"paytable": {"mixed_pair": "5"}, "max_round": 101}}},
            "side_options.pair.max_round",
        ),
        (
            "deluxe",
            {"side_options": {"pair": {"paytable": {"mixed_pair": "5"}, "max_round": 10**12}}},
            "side_options.pair.max_round",
        ),
    ],
)
def test_a_change_out_of_bounds_is_refused_naming_the_rule(game, changes, field):
    with pytest.raises(RuleError) as error:
        preset(game).with_changes(changes)
    assert [problem.field for problem in error.value.problems] == [field]


def test_the_bounds_themselves_are_allowed():
    changed = preset("deluxe").with_changes(
        {
            "seats": 1,
            "side_options": {
                "pair": {"paytable": {"mixed_pair": str(MAX_ODDS)}, "max_round": MAX_ROUND_BOUND}
            },
        }
    )
    assert changed.seats == 1 and changed.side_option("pair").odds("mixed_pair") == Decimal(10000)
    assert changed.side_option("pair").max_round == 100


def test_every_problem_of_a_change_is_named_at_once():
    changes = {
        "seats": 99999999999,
        "auto_play": "guess",
        "side_options": {
            "perfect_pairs": {
                "paytable": {"mixed_pair": "1e308", "coloured_pair": "0", "perfect_pair": "x"},
                "max_round": 101,
            },
            "twenty_one_plus_three": {"paytable": {"flush": "-1"}, "max_round": 0},
        },
    }
    with pytest.raises(RuleError) as error:
        preset("classic").with_changes(changes)
    assert {problem.field for problem in error.value.problems} == {
        "seats",
        "auto_play",
        "side_options.perfect_pairs.paytable.mixed_pair",
        "side_options.perfect_pairs.paytable.coloured_pair",
        "side_options.perfect_pairs.paytable.perfect_pair",
        "side_options.perfect_pairs.max_round",
        "side_options.twenty_one_plus_three.paytable.flush",
        "side_options.twenty_one_plus_three.max_round",
    }
    assert "seats: at most 7 seats" in str(error.value)


def test_a_version_stored_before_the_bounds_is_read_as_stored():
    """History is never edited: a stored rule set out of today's bounds still loads (and replays)."""
    stored = PRESETS["deluxe"].to_dict()
    stored["side_options"]["pair"] = {"paytable": {"mixed_pair": "1E+308"}, "max_round": 10**12}
    rules = RuleSet.from_dict(stored)
    assert rules.side_option("pair").odds("mixed_pair") == Decimal("1E+308")
    assert [problem.field for problem in bound_problems(stored)] == [
        "side_options.pair.max_round",
        "side_options.pair.paytable.mixed_pair",
    ]
