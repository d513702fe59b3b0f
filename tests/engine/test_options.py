"""The player's options (blackjack/options.py), worked out by hand for each game's rule sheet, and the
replay, the simulator and the odds agreeing with them."""

import itertools
import random
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack import options
from blackjack.odds.main_game import BEST, MainGame
from blackjack.replay import replay
from blackjack.rules import GAMES, PRESETS, RuleError, RuleSet, preset
from blackjack.simulate import simulate
from blackjack.simulated_player import SimulatedPlayer

# --- split once: the rule, not a setting --------------------------------------------------------------


@pytest.mark.parametrize("splits", [0, 2, 3, True, "1", None])
def test_a_rule_set_refuses_any_number_of_splits_but_one(splits):
    with pytest.raises(RuleError) as error:
        RuleSet(game="deluxe", max_splits=splits)
    assert error.value.field == "max_splits"
    assert "once" in error.value.message


@pytest.mark.parametrize("splits", [0, 2])
def test_a_stored_rule_set_with_another_number_of_splits_is_refused_naming_it(splits):
    stored = preset("classic").to_dict() | {"max_splits": splits}
    with pytest.raises(RuleError) as error:
        RuleSet.from_dict(stored)
    assert [problem.field for problem in error.value.problems] == ["max_splits"]


def test_stored_rule_sets_load_with_their_max_splits_of_one_or_without_it():
    for game in GAMES:
        stored = preset(game).to_dict()
        assert stored["max_splits"] == 1
        assert RuleSet.from_dict(stored) == preset(game)
        assert RuleSet.from_dict({k: v for k, v in stored.items() if k != "max_splits"}) == preset(game)


def test_every_preset_splits_once():
    assert {rules.max_splits for rules in PRESETS.values()} == {1}


# --- the options of each game, by hand --------------------------------------------------------------


def test_deluxe_and_boundless_double_on_any_two_split_by_value_and_surrender_against_2_to_9():
    for game in ("deluxe", "boundless"):
        rules = preset(game)
        assert options.may_double(rules, ["AS", "6D"])  # soft 17
        assert options.may_double(rules, ["TS", "7D"])  # hard 17
        assert options.may_double(rules, ["5S", "6D"], after_split=True)  # double after a split
        assert options.may_split(rules, ["KS", "QH"])  # same value
        assert options.may_split(rules, ["8S", "8D"])
        assert not options.may_split(rules, ["8S", "9D"])
        assert options.may_surrender(rules, "9C")
        assert options.may_surrender(rules, "2C")
        assert not options.may_surrender(rules, "TC")
        assert not options.may_surrender(rules, "QC")
        assert not options.may_surrender(rules, "AC")
        assert not options.may_surrender(rules, "9C", after_split=True)
        assert options.may_insure(rules, "AH")
        assert not options.may_insure(rules, "KH")


def test_classic_doubles_on_any_two_but_not_after_a_split_and_offers_no_surrender():
    rules = preset("classic")
    assert options.may_double(rules, ["AS", "6D"])
    assert not options.may_double(rules, ["5S", "6D"], after_split=True)
    assert options.double_refusal(rules, ["5S", "6D"], after_split=True) == options.NO_DOUBLE_AFTER_SPLIT
    assert options.may_split(rules, ["TS", "JH"])
    assert not options.may_surrender(rules, "9C")
    assert options.surrender_refusal(rules, "9C") == options.NOT_OFFERED
    assert options.may_insure(rules, "AH")


def test_multiplayer_doubles_on_hard_9_to_11_only_and_splits_by_rank():
    rules = preset("multiplayer")
    assert options.may_double(rules, ["5S", "4D"])  # hard 9
    assert options.may_double(rules, ["5S", "6D"])  # hard 11
    assert not options.may_double(rules, ["AS", "8D"])  # soft 19
    assert not options.may_double(rules, ["AS", "9D"])  # soft 20
    assert not options.may_double(rules, ["6S", "6D"])  # hard 12
    assert not options.may_double(rules, ["4S", "4D"])  # hard 8
    assert options.double_refusal(rules, ["AS", "8D"]) == options.NOT_HARD_9_TO_11
    assert not options.may_double(rules, ["5S", "6D"], after_split=True)
    assert options.may_split(rules, ["KS", "KH"])
    assert not options.may_split(rules, ["KS", "QH"])
    assert options.split_refusal(rules, ["KS", "QH"]) == options.NOT_A_PAIR
    assert not options.may_surrender(rules, "9C")
    assert options.may_insure(rules, "AH")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_splits_once_gives_a_split_ace_one_card_and_takes_options_as_first_decision(game):
    rules = preset(game)
    assert not options.may_split(rules, ["8S", "8D"], after_split=True)
    assert options.split_refusal(rules, ["8S", "8D"], after_split=True) == options.ONE_SPLIT
    assert not options.may_split(rules, ["8S", "8D"], first_decision=False)
    assert not options.may_split(rules, ["4S", "4D", "4H"])
    assert options.split_hand_takes_one_card("AS")
    assert not options.split_hand_takes_one_card("8S")
    assert not options.may_double(rules, ["2S", "3D", "4H"])  # a hard 9 of three cards
    assert options.double_refusal(rules, ["5S", "4D"], first_decision=False) == options.NOT_FIRST_DECISION
    assert not options.may_surrender(rules, "9C", first_decision=False)
    assert not options.may_insure(rules, "9H")


def test_a_table_without_insurance_refuses_it_even_against_an_ace():
    rules = RuleSet(game="deluxe", insurance=False)
    assert options.insurance_refusals(rules, "AH") == (options.NOT_OFFERED,)
    assert options.insurance_refusals(rules, "9H") == (options.NOT_OFFERED, options.NO_ACE)
    assert options.insurance_refusals(preset("deluxe"), "AH") == ()


# --- the replay, the simulator and the odds agree with them -------------------------------------------

START = datetime(2026, 11, 28, 14, tzinfo=UTC)


def walk_decisions(spot_hands):
    """Each (cards before, decision, first decision, after split) of a spot's hands, as played."""
    if not spot_hands:  # side options only (Boundless)
        return
    split = bool(spot_hands[0]["actions"]) and _name(spot_hands[0]["actions"][0]) == "split"
    for number, spot_hand in enumerate(spot_hands):
        actions = [_name(action) for action in spot_hand["actions"]]
        cards = spot_hand["cards"]
        if split and number == 0:
            yield [cards[0], spot_hands[1]["cards"][0]], "split", True, False
            actions = actions[1:]
        held = cards[:2]
        for index, action in enumerate(actions):
            yield list(held), action, index == 0, split
            if action in ("hit", "double"):
                held = cards[: len(held) + 1]


def _name(action) -> str:
    name = action if isinstance(action, str) else action["action"]
    return name.removeprefix("auto_")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(min_value=0, max_value=2**31))
def test_every_decision_the_simulator_takes_is_an_option_the_replay_accepts(game, seed):
    rules = PRESETS[game]
    documents = simulate(rules, table="T1", shoes=1, players=7, seed=seed, start=START, cancel_rate=0.0)
    for document in documents:
        assert replay(document, rules).findings == []
        up = document["dealer"][0]
        for spot in document["spots"]:
            for cards, action, first, after_split in walk_decisions(spot["hands"]):
                if action == "double":
                    assert options.may_double(rules, cards, first_decision=first, after_split=after_split)
                elif action == "split":
                    assert options.may_split(rules, cards, first_decision=first, after_split=after_split)
                elif action == "surrender":
                    assert options.may_surrender(rules, up, first_decision=first, after_split=after_split)
        for bet in document["bets"]:
            if bet["kind"] == "insurance":
                assert options.may_insure(rules, up)


@given(
    game=st.sampled_from(GAMES),
    pair=st.sampled_from(["AS AD", "8S 8H", "KS QH", "KS KD", "5S 5H", "9S 9C"]),
    up=st.sampled_from(["2C", "6C", "9C", "TC", "AC"]),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_the_simulated_player_splits_only_where_the_options_allow_and_a_split_ace_takes_one_card(
    game, pair, up, seed
):
    rules = PRESETS[game]
    deck = itertools.cycle(["5D", "AH", "6D", "2H", "3S", "4S", "TC", "2D", "3D", "3H", "2S"])
    player = SimulatedPlayer(rules, random.Random(seed))
    hands = player.play(pair.split(), up, lambda: next(deck), miss_rate=0, refuse_rate=0)
    if len(hands) == 2:
        assert options.may_split(rules, pair.split())
        if options.split_hand_takes_one_card(pair.split()[0]):
            assert [len(hand.cards) for hand in hands] == [2, 2]
            assert hands[0].actions == ["split"] and hands[1].actions == []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("up", "first", "second"), [(9, 8, 8), (10, 10, 6), (6, 5, 4), (6, 1, 7), (6, 10, 10)]
)
def test_the_odds_weigh_exactly_the_first_decisions_the_options_allow(game, up, first, second):
    rules = preset(game)
    codes = [options_card(first), options_card(second)]
    allowed = {"hit", "stand"}
    allowed |= {"double"} if options.may_double(rules, codes) else set()
    allowed |= {"split"} if options.may_split(rules, codes) else set()
    allowed |= {"surrender"} if options.may_surrender(rules, options_card(up)) else set()
    assert set(MainGame(rules, BEST).first_decision_values(up, first, second)) == allowed


def options_card(value: int) -> str:
    return {1: "A", 10: "T"}.get(value, str(value)) + "S"
