import itertools
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from math import perm

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackjack.cards import ALL_CARDS, CARD_VALUE
from blackjack.rules import PRESETS, SideOption
from blackjack.sideoptions import matched_patterns, side_option_returned, winning_pattern

DECKS = 8
COPIES = DECKS  # each distinct card is in the shoe this many times
SHOE_SIZE = 52 * DECKS
POKER_PATTERNS = {"suited_trips", "three_of_a_kind", "straight_flush", "straight", "flush"}


def preset_option(game: str, kind: str) -> SideOption:
    option = PRESETS[game].side_option(kind)
    assert option is not None
    return option


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Every paytable line of every side option of every preset, worked by hand:
# (game, kind, player cards, dealer cards, stake, pattern paid, amount returned).
# The amount returned is the stake plus stake x odds.
PAYTABLE_CASES = [
    # Deluxe Pair: mixed 5, coloured 10, perfect 30, suited trips 50; stake 10.00.
    ("deluxe", "pair", "8H 8S", "2C", "10.00", "mixed_pair", "60.00"),
    ("deluxe", "pair", "8H 8C", "2C", "10.00", "mixed_pair", "60.00"),
    ("deluxe", "pair", "8H 8D", "2C", "10.00", "coloured_pair", "110.00"),
    ("deluxe", "pair", "8S 8C", "2C", "10.00", "coloured_pair", "110.00"),
    ("deluxe", "pair", "8H 8H", "2C", "10.00", "perfect_pair", "310.00"),
    ("deluxe", "pair", "8H 8H", "8D", "10.00", "perfect_pair", "310.00"),
    ("deluxe", "pair", "8H 8H", "8H TS", "10.00", "suited_trips", "510.00"),
    # Boundless Pair: 5, 10, 30 and no suited trips line; stake 2.50.
    ("boundless", "pair", "3C 3D", "9S", "2.50", "mixed_pair", "15.00"),
    ("boundless", "pair", "3C 3S", "9S", "2.50", "coloured_pair", "27.50"),
    ("boundless", "pair", "3C 3C", "9S", "2.50", "perfect_pair", "77.50"),
    ("boundless", "pair", "3C 3C", "3C", "2.50", "perfect_pair", "77.50"),
    # Classic Perfect Pairs: 25, 12, 6; stake 2.00.
    ("classic", "perfect_pairs", "QS QS", "4D", "2.00", "perfect_pair", "52.00"),
    ("classic", "perfect_pairs", "QS QS", "QS", "2.00", "perfect_pair", "52.00"),
    ("classic", "perfect_pairs", "QS QC", "4D", "2.00", "coloured_pair", "26.00"),
    ("classic", "perfect_pairs", "QS QH", "4D", "2.00", "mixed_pair", "14.00"),
    # Boundless Bust Bonus by the dealer's card count: 1, 2, 9, 50, 100, 250; stake 1.00.
    ("boundless", "bust_bonus", "", "TS 6H 9D", "1.00", "bust_3", "2.00"),
    ("boundless", "bust_bonus", "", "2S 4H TD 9C", "1.00", "bust_4", "3.00"),
    ("boundless", "bust_bonus", "", "2S 3H 4D 5C 9S", "1.00", "bust_5", "10.00"),
    ("boundless", "bust_bonus", "", "2S 2H 3D 3C 4S TH", "1.00", "bust_6", "51.00"),
    ("boundless", "bust_bonus", "", "2S 2H 2D 3C 3S 4H TD", "1.00", "bust_7", "101.00"),
    ("boundless", "bust_bonus", "", "2S 2H 2D 3C 3S 2C 2H TD", "1.00", "bust_8_plus", "251.00"),
    ("boundless", "bust_bonus", "", "2S 2H 2D 2C 2S 2H 2D AS TD", "1.00", "bust_8_plus", "251.00"),
    ("boundless", "bust_bonus", "", "AS 5H 6D TC", "1.00", "bust_4", "3.00"),  # the ace drops to 1: 22
    # Boundless Lucky Trio: 2, 3, 10, 30, 50, 100, 200; stake 1.00.
    ("boundless", "lucky_trio", "TS 5H", "4D", "1.00", "total_19_or_20", "3.00"),
    ("boundless", "lucky_trio", "9H 6D", "5C", "1.00", "total_19_or_20", "3.00"),
    ("boundless", "lucky_trio", "AS AH", "8D", "1.00", "total_19_or_20", "3.00"),  # 1 + 11 + 8
    ("boundless", "lucky_trio", "AS KH", "9D", "1.00", "total_19_or_20", "3.00"),  # ace as 1
    ("boundless", "lucky_trio", "AS 8H", "KD", "1.00", "total_19_or_20", "3.00"),  # ace as 1: 19
    ("boundless", "lucky_trio", "TS 5H", "6D", "1.00", "unsuited_21", "4.00"),
    ("boundless", "lucky_trio", "AS 9H", "AD", "1.00", "unsuited_21", "4.00"),  # 11 + 9 + 1
    ("boundless", "lucky_trio", "AS KH", "QH", "1.00", "unsuited_21", "4.00"),  # ace as 1
    ("boundless", "lucky_trio", "TS 5S", "6S", "1.00", "suited_21", "11.00"),
    ("boundless", "lucky_trio", "AH AH", "9H", "1.00", "suited_21", "11.00"),
    ("boundless", "lucky_trio", "6S 7H", "8D", "1.00", "unsuited_6_7_8", "31.00"),
    ("boundless", "lucky_trio", "8C 6C", "7H", "1.00", "unsuited_6_7_8", "31.00"),
    ("boundless", "lucky_trio", "7S 7H", "7S", "1.00", "unsuited_7_7_7", "51.00"),
    ("boundless", "lucky_trio", "8C 6C", "7C", "1.00", "suited_6_7_8", "101.00"),
    ("boundless", "lucky_trio", "7D 7D", "7D", "1.00", "suited_7_7_7", "201.00"),
    # Classic 21+3 and Boundless Poker Trio: flush 5, straight 10, three of a kind 30,
    # straight flush 40, suited trips 100; stake 3.00.
    *[
        (game, kind, player, dealer, "3.00", pattern, returned)
        for game, kind in (("classic", "twenty_one_plus_three"), ("boundless", "poker_trio"))
        for player, dealer, pattern, returned in (
            ("9D 9D", "9D", "suited_trips", "303.00"),
            ("9D 9D", "9S", "three_of_a_kind", "93.00"),
            ("9D 9H", "9S", "three_of_a_kind", "93.00"),
            ("5H 6H", "4H", "straight_flush", "123.00"),
            ("AS 2S", "3S", "straight_flush", "123.00"),
            ("QC AC", "KC", "straight_flush", "123.00"),
            ("5H 6S", "4H", "straight", "33.00"),
            ("2D AS", "3H", "straight", "33.00"),
            ("QH KS", "AD", "straight", "33.00"),
            ("JH TS", "QD", "straight", "33.00"),
            ("2C 9C", "KC", "flush", "18.00"),
            ("KH AH", "2H", "flush", "18.00"),  # K-A-2 is no straight
            ("5H 5H", "9H", "flush", "18.00"),
        )
    ],
]

LOSING_CASES = [
    ("deluxe", "pair", "KH QH", "KH"),  # ranks, not values
    ("deluxe", "pair", "8H 9H", "8H"),
    ("boundless", "pair", "AS TS", "AS"),
    ("classic", "perfect_pairs", "JD QD", "JD"),
    ("boundless", "bust_bonus", "", "TS 7H"),
    ("boundless", "bust_bonus", "", "2S 3H 4D 2C TH"),  # five cards to 21
    ("boundless", "bust_bonus", "", "AS KH"),  # a dealer blackjack is no bust
    ("boundless", "bust_bonus", "", "AS 6H"),
    ("boundless", "lucky_trio", "TS 4H", "4D"),  # 18
    ("boundless", "lucky_trio", "TS TH", "TD"),  # 30
    ("boundless", "lucky_trio", "2S 3H", "4D"),
    ("boundless", "lucky_trio", "AS AH", "AD"),  # 3, 13, 23 or 33
    ("boundless", "lucky_trio", "AS 5H", "2D"),  # 8 or 18
    ("classic", "twenty_one_plus_three", "KH AS", "2D"),  # K-A-2 is no straight
    ("classic", "twenty_one_plus_three", "2C 9D", "KS"),
    ("classic", "twenty_one_plus_three", "9D 9S", "3H"),
    ("boundless", "poker_trio", "JH QS", "AD"),
    ("boundless", "poker_trio", "AH 2S", "4D"),
]


@pytest.mark.parametrize(("game", "kind", "player", "dealer", "stake", "pattern", "returned"), PAYTABLE_CASES)
def test_every_paytable_line_pays_its_odds(game, kind, player, dealer, stake, pattern, returned):
    option = preset_option(game, kind)

    winner = winning_pattern(option, cards(player), cards(dealer))
    paid = side_option_returned(option, Decimal(stake), cards(player), cards(dealer))

    assert winner == (pattern, option.odds(pattern))
    assert paid == Decimal(returned)
    assert str(paid) == returned


def test_the_cases_cover_every_paytable_line_of_every_preset():
    covered = {(game, kind, pattern) for game, kind, _, _, _, pattern, _ in PAYTABLE_CASES}
    offered = {
        (game, option.kind, pattern)
        for game, rules in PRESETS.items()
        for option in rules.side_options
        for pattern, _ in option.paytable
    }

    assert covered == offered


@pytest.mark.parametrize(("game", "kind", "player", "dealer"), LOSING_CASES)
def test_a_deal_without_a_paying_pattern_loses_the_stake(game, kind, player, dealer):
    option = preset_option(game, kind)

    assert winning_pattern(option, cards(player), cards(dealer)) is None
    assert side_option_returned(option, Decimal("5.00"), cards(player), cards(dealer)) == Decimal("0.00")


def test_winnings_are_rounded_down_to_the_cent():
    option = SideOption("pair", (("mixed_pair", Decimal("1.5")),))

    # 5.01 x 1.5 = 7.515, paid 7.51
    assert side_option_returned(option, Decimal("5.01"), ("8H", "8S"), ("2C",)) == Decimal("12.52")


def test_rounding_down_with_other_odds_and_stakes():
    option = SideOption("lucky_trio", (("total_19_or_20", Decimal("2.5")), ("unsuited_21", Decimal("3.25"))))

    # 0.99 x 2.5 = 2.475, paid 2.47
    assert side_option_returned(option, Decimal("0.99"), ("TS", "5H"), ("4D",)) == Decimal("3.46")
    # 1.03 x 3.25 = 3.3475, paid 3.34
    assert side_option_returned(option, Decimal("1.03"), ("TS", "5H"), ("6D",)) == Decimal("4.37")


def test_whole_odds_on_odd_cents_pay_exactly():
    option = preset_option("boundless", "pair")

    assert side_option_returned(option, Decimal("5.01"), ("8H", "8S"), ("2C",)) == Decimal("30.06")


def test_only_the_highest_pattern_pays_for_a_suited_seven_seven_seven():
    option = preset_option("boundless", "lucky_trio")

    assert matched_patterns("lucky_trio", ("7S", "7S"), ("7S",)) == {"suited_21", "suited_7_7_7"}
    assert winning_pattern(option, ("7S", "7S"), ("7S",)) == ("suited_7_7_7", Decimal(200))
    assert side_option_returned(option, Decimal("1.00"), ("7S", "7S"), ("7S",)) == Decimal("201.00")


def test_only_the_highest_pattern_pays_for_an_unsuited_six_seven_eight():
    option = preset_option("boundless", "lucky_trio")

    assert matched_patterns("lucky_trio", ("6S", "7S"), ("8H",)) == {"unsuited_21", "unsuited_6_7_8"}
    assert winning_pattern(option, ("6S", "7S"), ("8H",)) == ("unsuited_6_7_8", Decimal(30))


def test_a_straight_flush_pays_forty_not_ten_or_five():
    option = preset_option("classic", "twenty_one_plus_three")

    assert winning_pattern(option, ("9C", "TC"), ("JC",)) == ("straight_flush", Decimal(40))
    assert side_option_returned(option, Decimal("1.00"), ("9C", "TC"), ("JC",)) == Decimal("41.00")


def test_suited_trips_pays_fifty_not_the_perfect_pair():
    option = preset_option("deluxe", "pair")

    assert matched_patterns("pair", ("KD", "KD"), ("KD",)) == {"perfect_pair", "suited_trips"}
    assert winning_pattern(option, ("KD", "KD"), ("KD",)) == ("suited_trips", Decimal(50))


def test_suited_trips_looks_only_at_the_dealers_first_card():
    assert matched_patterns("pair", ("KD", "KD"), ("2S", "KD")) == {"perfect_pair"}
    assert matched_patterns("twenty_one_plus_three", ("KD", "KD"), ("2S", "KD")) == frozenset()


def test_a_pattern_without_a_paytable_line_does_not_pay():
    only_nineteen_or_twenty = SideOption("lucky_trio", (("total_19_or_20", Decimal(2)),))
    only_perfect = SideOption("perfect_pairs", (("perfect_pair", Decimal(25)),))

    assert winning_pattern(only_nineteen_or_twenty, ("7S", "7S"), ("7S",)) is None
    assert side_option_returned(only_nineteen_or_twenty, Decimal("1.00"), ("7S", "7S"), ("7S",)) == Decimal(
        "0.00"
    )
    assert winning_pattern(only_perfect, ("QS", "QH"), ("2C",)) is None
    assert winning_pattern(only_perfect, ("QS", "QS"), ("2C",)) == ("perfect_pair", Decimal(25))


def test_the_boundless_pair_has_no_suited_trips_line():
    option = preset_option("boundless", "pair")

    assert option.odds("suited_trips") is None
    assert winning_pattern(option, ("3C", "3C"), ("3C",)) == ("perfect_pair", Decimal(30))


def test_bust_bonus_ignores_the_player_cards():
    dealer = ("TS", "6H", "9D")

    assert matched_patterns("bust_bonus", (), dealer) == {"bust_3"}
    assert matched_patterns("bust_bonus", ("AS", "KH"), dealer) == {"bust_3"}


def test_lists_are_accepted_as_well_as_tuples():
    option = preset_option("deluxe", "pair")

    assert matched_patterns("pair", ["8H", "8H"], ["8H"]) == {"perfect_pair", "suited_trips"}
    assert winning_pattern(option, ["8H", "8H"], ["8H"]) == ("suited_trips", Decimal(50))
    assert matched_patterns("bust_bonus", [], ["TS", "6H", "9D"]) == {"bust_3"}


def test_trio_options_need_the_dealers_first_card():
    assert matched_patterns("poker_trio", ("5H", "6H"), ()) == frozenset()
    assert matched_patterns("lucky_trio", ("7H", "7H"), ()) == frozenset()


def test_an_unknown_side_option_is_refused():
    with pytest.raises(ValueError, match="unknown side option"):
        matched_patterns("insurance", ("8H", "8H"), ("8H",))


# --- properties ----------------------------------------------------------------------------

distinct_trios = st.lists(st.sampled_from(ALL_CARDS), min_size=3, max_size=3, unique=True)
shoe_trios = st.lists(st.sampled_from(ALL_CARDS), min_size=3, max_size=3)


@given(distinct_trios)
def test_pair_patterns_are_mutually_exclusive_among_distinct_cards(trio):
    player, dealer = tuple(trio[:2]), tuple(trio[2:])
    for kind in ("pair", "perfect_pairs"):
        matched = matched_patterns(kind, player, dealer)
        assert len(matched) <= 1
        assert bool(matched) == (player[0][0] == player[1][0])


@given(shoe_trios)
def test_pair_patterns_are_exclusive_apart_from_suited_trips_on_a_perfect_pair(trio):
    player, dealer = tuple(trio[:2]), tuple(trio[2:])
    assert len(matched_patterns("perfect_pairs", player, dealer)) <= 1
    matched = matched_patterns("pair", player, dealer)
    if "suited_trips" in matched:
        assert matched == {"perfect_pair", "suited_trips"}
    else:
        assert len(matched) <= 1


@given(st.one_of(distinct_trios, shoe_trios))
def test_a_trio_matches_at_most_one_poker_pattern(trio):
    player, dealer = tuple(trio[:2]), tuple(trio[2:])
    for kind in ("twenty_one_plus_three", "poker_trio"):
        matched = matched_patterns(kind, player, dealer)
        assert matched <= POKER_PATTERNS
        assert len(matched) <= 1


@given(shoe_trios)
def test_lucky_trio_totals_agree_with_every_ace_valuation(trio):
    choices = [(1, 11) if card[0] == "A" else (CARD_VALUE[card],) for card in trio]
    totals = {sum(values) for values in itertools.product(*choices)}

    matched = matched_patterns("lucky_trio", tuple(trio[:2]), tuple(trio[2:]))

    assert ("total_19_or_20" in matched) == bool(totals & {19, 20})
    assert ("suited_21" in matched or "unsuited_21" in matched) == (21 in totals)


# --- exact combinatorics of an 8-deck shoe ---------------------------------------------------


def draw_weight(drawn: tuple[str, ...]) -> int:
    """Ordered ways to draw these distinct-card codes from the shoe without replacement."""
    weight = 1
    for count in Counter(drawn).values():
        weight *= perm(COPIES, count)
    return weight


def test_pair_probabilities_over_every_two_card_draw_of_the_shoe():
    counted = Counter()
    for player in itertools.product(ALL_CARDS, repeat=2):
        for pattern in matched_patterns("perfect_pairs", player, ()):
            counted[pattern] += draw_weight(player)
    draws = SHOE_SIZE * (SHOE_SIZE - 1)

    def probability(pattern):
        return Fraction(counted[pattern], draws)

    # The second card shares the first card's rank: 32 of that rank minus the first card itself.
    assert sum(counted.values()) == draws * Fraction(4 * COPIES - 1, SHOE_SIZE - 1)
    assert probability("perfect_pair") == Fraction(COPIES - 1, SHOE_SIZE - 1)
    assert probability("coloured_pair") == Fraction(COPIES, SHOE_SIZE - 1)
    assert probability("mixed_pair") == Fraction(2 * COPIES, SHOE_SIZE - 1)


def test_trio_pattern_counts_over_every_three_card_draw_of_the_shoe():
    poker = Counter()
    lucky = Counter()
    for trio in itertools.product(ALL_CARDS, repeat=3):
        weight = draw_weight(trio)
        for pattern in matched_patterns("twenty_one_plus_three", trio[:2], trio[2:]):
            poker[pattern] += weight
        for pattern in matched_patterns("lucky_trio", trio[:2], trio[2:]):
            lucky[pattern] += weight

    per_rank = 4 * COPIES  # cards of one rank in the shoe
    per_suit = 13 * COPIES  # cards of one suit in the shoe
    one_card_thrice = perm(COPIES, 3)
    one_card_each_of_three_ranks = COPIES**3
    straight_rank_runs = 12  # A-2-3 up to Q-K-A
    orders = 6
    suited_straight_draws = straight_rank_runs * orders * 4 * one_card_each_of_three_ranks

    assert poker["suited_trips"] == 52 * one_card_thrice
    assert poker["three_of_a_kind"] == 13 * (perm(per_rank, 3) - 4 * one_card_thrice)
    assert poker["straight_flush"] == suited_straight_draws
    assert poker["straight"] == straight_rank_runs * orders * per_rank**3 - suited_straight_draws
    assert poker["flush"] == 4 * (perm(per_suit, 3) - 13 * one_card_thrice) - suited_straight_draws

    assert lucky["suited_7_7_7"] == 4 * one_card_thrice
    assert lucky["unsuited_7_7_7"] == perm(per_rank, 3) - 4 * one_card_thrice
    assert lucky["suited_6_7_8"] == orders * 4 * one_card_each_of_three_ranks
    assert lucky["unsuited_6_7_8"] == orders * (per_rank**3 - 4 * one_card_each_of_three_ranks)
