"""Basic strategy per rule set: hand-checked decisions from the 8-deck, stand-on-all-17 chart."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackjack.cards import ALL_CARDS
from blackjack.options import is_pair, may_double
from blackjack.rules import PRESETS
from blackjack.strategy import ACTIONS, basic_strategy

ALL = dict(can_double=True, can_split=True, can_surrender=True)
NO_DOUBLE = dict(can_double=False, can_split=True, can_surrender=True)
NO_SURRENDER = dict(can_double=True, can_split=True, can_surrender=False)
NO_SPLIT = dict(can_double=True, can_split=False, can_surrender=True)
LATER = dict(can_double=False, can_split=False, can_surrender=False)  # a third card or later

# (preset, cards, dealer's first card, what the caller allows, expected)
DECISIONS = [
    # Deluxe: double any two and after a split, surrender against 2-9, pairs by value.
    ("deluxe", ["TS", "6H"], "TD", ALL, "hit"),  # no surrender against a ten
    ("deluxe", ["TS", "6H"], "AD", ALL, "hit"),  # nor against an ace
    ("deluxe", ["TS", "6H"], "9D", ALL, "surrender"),
    ("deluxe", ["TS", "6H"], "9D", NO_SURRENDER, "hit"),
    ("deluxe", ["TS", "6H"], "6D", ALL, "stand"),
    ("deluxe", ["9S", "6H"], "9D", ALL, "hit"),
    ("deluxe", ["AS", "7H"], "9D", ALL, "hit"),  # soft 18 against 9
    ("deluxe", ["AS", "7H"], "TD", ALL, "hit"),
    ("deluxe", ["AS", "7H"], "2D", ALL, "stand"),
    ("deluxe", ["AS", "7H"], "8D", ALL, "stand"),
    ("deluxe", ["AS", "7H"], "4D", ALL, "double"),
    ("deluxe", ["AS", "7H"], "4D", NO_DOUBLE, "stand"),  # soft 18 falls back to stand
    ("deluxe", ["AS", "6H"], "4D", NO_DOUBLE, "hit"),
    ("deluxe", ["AS", "2H"], "5D", ALL, "double"),
    ("deluxe", ["AS", "2H"], "4D", ALL, "hit"),
    ("deluxe", ["AS", "8H"], "6D", ALL, "stand"),
    ("deluxe", ["AS", "AH"], "6D", ALL, "split"),
    ("deluxe", ["AS", "AH"], "AD", ALL, "split"),
    ("deluxe", ["AS", "AH"], "AD", NO_SPLIT, "hit"),
    ("deluxe", ["8S", "8H"], "TD", ALL, "split"),
    ("deluxe", ["8S", "8H"], "9D", ALL, "split"),  # split, not surrender
    ("deluxe", ["8S", "8H"], "9D", NO_SPLIT, "surrender"),
    ("deluxe", ["TS", "KH"], "6D", ALL, "stand"),  # tens are never split
    ("deluxe", ["9S", "9H"], "7D", ALL, "stand"),
    ("deluxe", ["9S", "9H"], "8D", ALL, "split"),
    ("deluxe", ["4S", "4H"], "5D", ALL, "split"),  # with double after split
    ("deluxe", ["2S", "2H"], "3D", ALL, "split"),
    ("deluxe", ["6S", "6H"], "2D", ALL, "split"),
    ("deluxe", ["5S", "5H"], "6D", ALL, "double"),  # fives are a ten
    ("deluxe", ["6S", "5H"], "TD", ALL, "double"),
    ("deluxe", ["6S", "5H"], "AD", ALL, "hit"),
    ("deluxe", ["6S", "4H"], "9D", ALL, "double"),
    ("deluxe", ["6S", "4H"], "TD", ALL, "hit"),
    ("deluxe", ["5S", "4H"], "3D", ALL, "double"),
    ("deluxe", ["5S", "4H"], "3D", NO_DOUBLE, "hit"),
    ("deluxe", ["5S", "4H"], "2D", ALL, "hit"),
    ("deluxe", ["TS", "2H"], "3D", ALL, "hit"),
    ("deluxe", ["TS", "2H"], "4D", ALL, "stand"),
    ("deluxe", ["TS", "3H"], "2D", ALL, "stand"),
    ("deluxe", ["5S", "3H"], "6D", ALL, "hit"),
    ("deluxe", ["TS", "7H"], "AD", ALL, "stand"),
    ("deluxe", ["4S", "5H", "7D"], "9D", LATER, "hit"),  # three-card 16: no surrender
    ("deluxe", ["4S", "2H", "5D"], "6D", LATER, "hit"),  # three-card 11 cannot double
    ("deluxe", ["AS", "2H", "4D"], "TD", LATER, "hit"),  # soft 17
    ("deluxe", ["AS", "5H", "2D"], "9D", LATER, "hit"),  # soft 18 against 9
    ("deluxe", ["AS", "5H", "2D"], "5D", LATER, "stand"),
    # Boundless: the Deluxe rules on one shared deal.
    ("boundless", ["TS", "6H"], "9D", ALL, "surrender"),
    ("boundless", ["TS", "6H"], "TD", ALL, "hit"),
    ("boundless", ["AS", "7H"], "9D", ALL, "hit"),
    ("boundless", ["AS", "AH"], "TD", ALL, "split"),
    ("boundless", ["5S", "4H"], "3D", ALL, "double"),
    ("boundless", ["7S", "7H"], "7D", ALL, "split"),
    # Classic: no surrender, no double after a split (so fewer splits of small pairs).
    ("classic", ["TS", "6H"], "9D", ALL, "hit"),
    ("classic", ["TS", "6H"], "TD", ALL, "hit"),
    ("classic", ["AS", "7H"], "9D", ALL, "hit"),
    ("classic", ["AS", "AH"], "TD", ALL, "split"),
    ("classic", ["8S", "8H"], "TD", ALL, "split"),
    ("classic", ["4S", "4H"], "5D", ALL, "hit"),
    ("classic", ["2S", "2H"], "3D", ALL, "hit"),
    ("classic", ["2S", "2H"], "4D", ALL, "split"),
    ("classic", ["6S", "6H"], "2D", ALL, "hit"),
    ("classic", ["6S", "6H"], "3D", ALL, "split"),
    ("classic", ["5S", "4H"], "3D", ALL, "double"),
    ("classic", ["AS", "7H"], "5D", ALL, "double"),
    ("classic", ["6S", "5H"], "TD", ALL, "double"),
    # Multi-player: no hole card (European adjustments), double on hard 9-11 only, pairs by rank.
    ("multiplayer", ["8S", "8H"], "TD", ALL, "hit"),
    ("multiplayer", ["8S", "8H"], "AD", ALL, "hit"),
    ("multiplayer", ["8S", "8H"], "9D", ALL, "split"),
    ("multiplayer", ["AS", "AH"], "TD", ALL, "hit"),
    ("multiplayer", ["AS", "AH"], "6D", ALL, "split"),
    ("multiplayer", ["6S", "5H"], "TD", ALL, "hit"),
    ("multiplayer", ["6S", "5H"], "AD", ALL, "hit"),
    ("multiplayer", ["6S", "5H"], "9D", ALL, "double"),
    ("multiplayer", ["6S", "4H"], "TD", ALL, "hit"),
    ("multiplayer", ["6S", "4H"], "9D", ALL, "double"),
    ("multiplayer", ["5S", "4H"], "3D", ALL, "double"),
    ("multiplayer", ["TS", "6H"], "9D", ALL, "hit"),  # no surrender at this table
    ("multiplayer", ["AS", "7H"], "4D", ALL, "stand"),  # no soft double: soft 18 stands
    ("multiplayer", ["AS", "7H"], "9D", ALL, "hit"),
    ("multiplayer", ["AS", "6H"], "4D", ALL, "hit"),  # no soft double: soft 17 hits
    ("multiplayer", ["AS", "2H"], "5D", ALL, "hit"),
    ("multiplayer", ["7S", "5H"], "4D", ALL, "stand"),  # 12: never a double
    ("multiplayer", ["7S", "5H"], "2D", ALL, "hit"),
    ("multiplayer", ["9S", "9H"], "TD", ALL, "stand"),
    ("multiplayer", ["7S", "7H"], "TD", ALL, "hit"),
    ("multiplayer", ["4S", "4H"], "5D", ALL, "hit"),  # no double after split: 8 hits
    ("multiplayer", ["KS", "QH"], "6D", ALL, "stand"),
]


@pytest.mark.parametrize(("game", "cards", "up", "allowed", "expected"), DECISIONS)
def test_it_plays_the_chart(game, cards, up, allowed, expected):
    assert basic_strategy(PRESETS[game], cards, up, **allowed) == expected


@pytest.mark.parametrize("game", ["deluxe", "boundless", "classic", "multiplayer"])
def test_it_stands_on_21_and_above(game):
    rules = PRESETS[game]
    assert basic_strategy(rules, ["AS", "KH"], "TD", **ALL) == "stand"
    assert basic_strategy(rules, ["7S", "7H", "7D"], "6D", **LATER) == "stand"
    assert basic_strategy(rules, ["TS", "QH", "5D"], "6D", **LATER) == "stand"


def test_it_reads_pairs_by_value_or_rank():
    assert is_pair(PRESETS["deluxe"], ["KS", "QH"])
    assert is_pair(PRESETS["classic"], ["TS", "JH"])
    assert not is_pair(PRESETS["multiplayer"], ["KS", "QH"])
    assert is_pair(PRESETS["multiplayer"], ["KS", "KH"])
    assert not is_pair(PRESETS["deluxe"], ["KS", "QH", "KD"])


def test_it_doubles_only_where_the_table_allows():
    assert may_double(PRESETS["deluxe"], ["AS", "7H"])
    assert may_double(PRESETS["deluxe"], ["TS", "7H"])
    assert not may_double(PRESETS["deluxe"], ["2S", "3H", "4D"])
    assert may_double(PRESETS["multiplayer"], ["5S", "4H"])
    assert may_double(PRESETS["multiplayer"], ["5S", "6H"])
    assert not may_double(PRESETS["multiplayer"], ["AS", "7H"])  # soft 18
    assert not may_double(PRESETS["multiplayer"], ["7S", "5H"])  # hard 12
    assert not may_double(PRESETS["multiplayer"], ["4S", "4H"])  # hard 8


cards_st = st.sampled_from(ALL_CARDS)


@given(
    game=st.sampled_from(sorted(PRESETS)),
    cards=st.lists(cards_st, min_size=2, max_size=5),
    up=cards_st,
    can_double=st.booleans(),
    can_split=st.booleans(),
    can_surrender=st.booleans(),
)
def test_it_never_takes_an_action_that_is_not_available(
    game, cards, up, can_double, can_split, can_surrender
):
    rules = PRESETS[game]
    action = basic_strategy(
        rules, cards, up, can_double=can_double, can_split=can_split, can_surrender=can_surrender
    )
    assert action in ACTIONS
    if action == "double":
        assert can_double and may_double(rules, cards)
    if action == "split":
        assert can_split and is_pair(rules, cards)
    if action == "surrender":
        assert can_surrender and rules.surrender and len(cards) == 2
        assert up[0] not in "ATJQK"
