"""The RuleSet: the four presets from the rule sheets, and changes that cannot be."""

from decimal import Decimal

import pytest

from blackjack.rules import GAMES, PRESETS, RuleError, RuleSet, preset


@pytest.mark.parametrize("game", GAMES)
def test_a_preset_survives_its_stored_form(game):
    rules = preset(game)
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_the_presets_carry_the_rule_sheets_figures():
    deluxe, boundless, classic, multiplayer = (PRESETS[g] for g in GAMES)
    assert deluxe.side_option("pair").odds("suited_trips") == Decimal(50)
    assert deluxe.max_seats_per_player == 2
    assert boundless.seats is None
    assert {o.kind: o.max_round for o in boundless.side_options} == {
        "pair": 40,
        "bust_bonus": 45,
        "lucky_trio": 45,
        "poker_trio": 45,
    }
    assert boundless.side_option("bust_bonus").odds("bust_8_plus") == Decimal(250)
    assert classic.side_option("perfect_pairs").odds("perfect_pair") == Decimal(25)
    assert classic.side_option("twenty_one_plus_three").odds("suited_trips") == Decimal(100)
    assert not classic.double_after_split and not classic.surrender and classic.cancel_pays_dealt_blackjack
    assert multiplayer.max_cards == 9 and not multiplayer.hole_card and multiplayer.split_match == "rank"
    assert all(rules.decks == 8 and rules.blackjack_pays == Decimal("1.5") for rules in PRESETS.values())


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"dealer_hits_soft_18": True}, "dealer_hits_soft_18"),
        ({"game": "baccarat"}, "game"),
        (
            {"side_options": {"pair": {"paytable": {"mixed_pair": None}}}},
            "side_options.pair.paytable.mixed_pair",
        ),
        (
            {"side_options": {"pair": {"paytable": {"mixed_pair": "0"}}}},
            "side_options.pair.paytable.mixed_pair",
        ),
        (
            {"side_options": {"pair": {"paytable": {"mixed_pair": "-5"}}}},
            "side_options.pair.paytable.mixed_pair",
        ),
        ({"side_options": {"pair": {"paytable": {"royal_pair": "5"}}}}, "side_options.pair.paytable"),
        (
            {"side_options": {"pair": {"paytable": {"mixed_pair": "5"}, "max_round": 0}}},
            "side_options.pair.max_round",
        ),
        ({"side_options": {"keno": {"paytable": {"x": "5"}}}}, "side_options"),
        ({"seats": 0}, "seats"),
        ({"blackjack_pays": "0"}, "blackjack_pays"),
        ({"auto_play": "guess"}, "auto_play"),
    ],
)
def test_it_refuses_a_change_that_cannot_be_naming_the_rule(changes, field):
    with pytest.raises(RuleError) as error:
        preset("boundless").with_changes(changes)
    assert error.value.field == field


def test_a_paytable_change_keeps_the_other_side_options():
    changed = preset("boundless").with_changes(
        {"side_options": {"pair": {"paytable": {"perfect_pair": "25"}, "max_round": 30}}}
    )
    assert changed.side_option("pair").paytable == (("perfect_pair", Decimal(25)),)
    assert changed.side_option("pair").max_round == 30
    assert changed.side_option("bust_bonus") == preset("boundless").side_option("bust_bonus")
    assert preset("boundless").side_option("pair").max_round == 40  # the preset itself is untouched


def test_a_side_option_can_be_withdrawn():
    assert (
        preset("boundless").with_changes({"side_options": {"poker_trio": None}}).side_option("poker_trio")
        is None
    )


def test_a_strategy_table_change_survives_its_stored_form():
    rules = preset("multiplayer").with_changes(
        {"strategy_overrides": {"hard16": {"T": "stand"}, "pair8": {"A": "split"}}}
    )
    assert rules.strategy_override("hard16", "T") == "stand"
    assert RuleSet.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"hard25": {"T": "stand"}}, "strategy_overrides"),
        ({"hard16": {"1": "stand"}}, "strategy_overrides.hard16"),
        ({"hard16": {"T": "pray"}}, "strategy_overrides.hard16.T"),
        ({"hard16": {"T": "split"}}, "strategy_overrides.hard16.T"),
        ({"hard16": "stand"}, "strategy_overrides.hard16"),
    ],
)
def test_it_refuses_a_strategy_table_change_that_cannot_be(table, field):
    with pytest.raises(RuleError) as error:
        preset("multiplayer").with_changes({"strategy_overrides": table})
    assert error.value.field == field


def test_rule_sets_are_equal_whatever_the_order_their_stored_form_was_written_in():
    stored = preset("boundless").to_dict()
    shuffled = dict(reversed(list(stored.items())))
    shuffled["side_options"] = {
        kind: {"paytable": dict(reversed(list(option["paytable"].items()))), "max_round": option["max_round"]}
        for kind, option in reversed(list(stored["side_options"].items()))
    }
    assert RuleSet.from_dict(shuffled) == preset("boundless")


def test_a_version_stored_with_a_published_rtp_still_reads():
    """The published RTP left the rules (tables.PublishedRtp keeps it, with its source): a version
    stored with it reads as the same rules, and the figure is not a rule any more."""
    stored = preset("boundless").to_dict() | {"published_rtp": "99.46"}
    assert RuleSet.from_dict(stored) == preset("boundless")
    assert "published_rtp" not in preset("boundless").to_dict()
