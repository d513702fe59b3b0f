"""Side options and insurance, exactly.

Side options are counted over every distinct deal from the shoe without replacement: each distinct
(player's two cards, dealer's first card) of rank and suit, weighted by the number of ordered ways
to draw it, is classified once by `sideoptions.matched_patterns`, and the paytable pays what
`sideoptions.winning_pattern` pays for it, so these odds and settlement cannot disagree. Bust Bonus
follows the dealer's draws exactly: the dealer draws as `dealer.draws_on` says, a dealer
blackjack is no bust, and with a Bust Bonus stake awaiting the dealer always draws out. Side option
and insurance figures are exact fractions.
"""

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from math import perm

from ..cards import ALL_CARDS
from ..dealer import draws_on
from ..rules import RuleSet
from ..sideoptions import matched_patterns, winning_pattern
from .common import CARD_OF_VALUE, TEN, VALUES, percent, total_of


@dataclass(frozen=True)
class SideOptionOdds:
    """One side option under its paytable: the exact probability of each paid pattern and the RTP."""

    kind: str
    probabilities: dict[str, Fraction]  # the pattern paid -> probability, in paytable order
    no_win: Fraction
    expected_return: Fraction  # per unit staked, the stake included

    @property
    def rtp(self) -> Decimal:
        return percent(self.expected_return)


# --- insurance --------------------------------------------------------------------------------


def insurance_rtp(rules: RuleSet) -> Decimal:
    """Insurance pays when the dealer, showing an ace, has a ten-value second card."""
    tens = 16 * rules.decks
    cards_left = 52 * rules.decks - 1
    return percent(Fraction(tens, cards_left) * (1 + Fraction(rules.insurance_pays)))


# --- side options -----------------------------------------------------------------------------


def side_option_odds(rules: RuleSet, kind: str) -> SideOptionOdds:
    """The exact pattern probabilities and RTP of the side option `kind` under the rules' paytable."""
    option = rules.side_option(kind)
    if option is None:
        raise ValueError(f"the rules of {rules.game} offer no {kind} side option")
    paid = {pattern: Fraction(0) for pattern, _ in option.paytable}
    expected_return = Fraction(0)
    for probability, player_cards, dealer_cards in pattern_classes(
        kind, rules.decks, rules.dealer_stands_on_soft_17
    ):
        winner = winning_pattern(option, player_cards, dealer_cards)
        if winner is None:
            continue
        pattern, odds = winner
        paid[pattern] += probability
        expected_return += probability * (1 + Fraction(odds))
    return SideOptionOdds(kind, paid, 1 - sum(paid.values()), expected_return)


@lru_cache(maxsize=32)
def pattern_classes(
    kind: str, decks: int, stands_on_soft_17: bool
) -> tuple[tuple[Fraction, tuple[str, ...], tuple[str, ...]], ...]:
    """The deals grouped by the set of patterns they match: (probability, an example deal of the group).

    The pattern paid depends only on the matched set, so one example stands for its whole group.
    """
    weights: Counter = Counter()
    examples = {}
    if kind == "bust_bonus":
        deals = (
            ((), tuple(CARD_OF_VALUE[value] for value in hand), probability)
            for hand, probability in dealer_final_hands(decks, stands_on_soft_17).items()
        )
    else:  # counts of ordered draws, all over the same number of draws
        deals = ((player, (up,), count) for player, up, count in three_card_deals(decks))
    for player_cards, dealer_cards, weight in deals:
        matched = matched_patterns(kind, player_cards, dealer_cards)
        weights[matched] += weight
        examples.setdefault(matched, (player_cards, dealer_cards))
    scale = 1 if kind == "bust_bonus" else perm(52 * decks, 3)
    return tuple((Fraction(weights[matched]) / scale, *examples[matched]) for matched in weights)


def three_card_deals(decks: int) -> Iterator[tuple[tuple[str, str], str, int]]:
    """Every distinct deal of the player's two cards (in either order) and the dealer's first card,
    with the number of ordered ways to draw it from a shoe of `decks` decks without replacement."""
    copies = decks  # of each card code
    three_apart = copies**3
    pair_and_another = perm(copies, 2) * copies
    one_card_thrice = perm(copies, 3)
    for index, first in enumerate(ALL_CARDS):
        for second in ALL_CARDS[index:]:
            for up in ALL_CARDS:
                if first == second:
                    count = one_card_thrice if up == first else pair_and_another
                elif up == first or up == second:
                    count = 2 * pair_and_another
                else:
                    count = 2 * three_apart
                yield (first, second), up, count


@lru_cache(maxsize=8)
def dealer_final_hands(decks: int, stands_on_soft_17: bool = True) -> dict[tuple[int, ...], Fraction]:
    """Every final dealer hand from a full shoe (card values, sorted) and its exact probability.

    The dealer draws out whatever the players hold, as with a Bust Bonus stake awaiting. Hands are
    grown one card at a time; the orders that reach the same cards with the same number drawn are merged.
    """
    full = {value: (16 if value == TEN else 4) * decks for value in VALUES}
    shoe_size = 52 * decks
    final: dict[tuple[int, ...], Fraction] = {}
    drawing = {(): 1}  # cards so far -> ordered ways to draw them, before the dealer stops
    drawn = 0
    while drawing:
        ways_to_draw = perm(shoe_size, drawn + 1)
        grown: Counter = Counter()
        for hand, ways in drawing.items():
            held = Counter(hand)
            for value in VALUES:
                left = full[value] - held[value]
                if left:
                    grown[tuple(sorted((*hand, value)))] += ways * left
        drawing = {}
        for hand, ways in grown.items():
            if _dealer_stops(hand, stands_on_soft_17):
                final[hand] = Fraction(ways, ways_to_draw)
            else:
                drawing[hand] = ways
        drawn += 1
    return final


def _dealer_stops(hand: tuple[int, ...], stands_on_soft_17: bool) -> bool:
    return not draws_on(*total_of(hand), stands_on_soft_17)
