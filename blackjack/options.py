"""The player's options: what a player may do with a hand, and after what. The replay, the simulator,
the strategy and the odds all ask here, as they ask `dealer.py` when the dealer draws.

A hand is described by its cards (codes such as "KS"), whether the decision asked about is its first
(`first_decision`) and whether it is one of a split pair (`after_split`). The rules every game shares:

- double: the first decision on a hand's two cards, for exactly one more card; on any two cards or on
  hard 9, 10 or 11 only (`rules.double`); on a split hand only where `rules.double_after_split`;
- split: once (a split hand is not split again), as the first decision on the initial two cards, when
  they are of the same value or, where `rules.split_match` is "rank", of the same rank; each split ace
  takes one card and no decision;
- surrender: where `rules.surrender`, the first decision on the initial, unsplit hand, against a dealer's
  first card of 2 to 9;
- insurance: where `rules.insurance`, against a dealer's first card that is an ace.

A refusal is a reason code (the constants below); the replay words its findings from them.
"""

from collections.abc import Sequence

from .cards import CARD_VALUE, is_ace, is_ten_value, rank
from .hand import hand_total
from .rules import RuleSet

# Why an option is refused.
NOT_OFFERED = "not_offered"  # the table has no such option (surrender, insurance)
NOT_FIRST_DECISION = "not_first_decision"  # another decision came first, or not on two cards
NO_DOUBLE_AFTER_SPLIT = "no_double_after_split"
NOT_HARD_9_TO_11 = "not_hard_9_to_11"  # the table doubles on hard 9, 10 or 11 only
ONE_SPLIT = "one_split"  # a split hand is not split again
NOT_A_PAIR = "not_a_pair"  # not two cards of the same value (or rank, where the table says)
DEALER_ACE_OR_TEN = "dealer_ace_or_ten"  # surrender is offered against 2 to 9 only
NO_ACE = "no_ace"  # insurance needs the dealer's first card to be an ace


def is_pair(rules: RuleSet, cards: Sequence[str]) -> bool:
    """Two cards the table lets a player split: the same rank, or the same value where it allows."""
    if len(cards) != 2:
        return False
    first, second = cards
    if rules.split_match == "rank":
        return rank(first) == rank(second)
    return CARD_VALUE[first] == CARD_VALUE[second]


def double_refusal(
    rules: RuleSet, cards: Sequence[str], *, first_decision: bool = True, after_split: bool = False
) -> str | None:
    """Why the hand may not double here, or None when it may."""
    if not first_decision or len(cards) != 2:
        return NOT_FIRST_DECISION
    if after_split and not rules.double_after_split:
        return NO_DOUBLE_AFTER_SPLIT
    if rules.double == "hard_9_to_11":
        total, soft = hand_total(cards)
        if soft or not 9 <= total <= 11:
            return NOT_HARD_9_TO_11
    return None


def may_double(
    rules: RuleSet, cards: Sequence[str], *, first_decision: bool = True, after_split: bool = False
) -> bool:
    return double_refusal(rules, cards, first_decision=first_decision, after_split=after_split) is None


def split_refusal(
    rules: RuleSet, cards: Sequence[str], *, first_decision: bool = True, after_split: bool = False
) -> str | None:
    """Why the hand may not split here, or None when it may."""
    if after_split:
        return ONE_SPLIT
    if not first_decision or len(cards) != 2:
        return NOT_FIRST_DECISION
    if not is_pair(rules, cards):
        return NOT_A_PAIR
    return None


def may_split(
    rules: RuleSet, cards: Sequence[str], *, first_decision: bool = True, after_split: bool = False
) -> bool:
    return split_refusal(rules, cards, first_decision=first_decision, after_split=after_split) is None


def split_hand_takes_one_card(pair_card: str) -> bool:
    """Whether each hand of a split pair of `pair_card` takes one card and no decision: split aces."""
    return is_ace(pair_card)


def surrender_refusal(
    rules: RuleSet, dealer_up: str | None, *, first_decision: bool = True, after_split: bool = False
) -> str | None:
    """Why the hand may not surrender here, or None when it may. A dealer's card not known (None) is
    not held against it."""
    if not rules.surrender:
        return NOT_OFFERED
    if after_split or not first_decision:
        return NOT_FIRST_DECISION
    if dealer_up is not None and (is_ace(dealer_up) or is_ten_value(dealer_up)):
        return DEALER_ACE_OR_TEN
    return None


def may_surrender(
    rules: RuleSet, dealer_up: str | None, *, first_decision: bool = True, after_split: bool = False
) -> bool:
    return surrender_refusal(rules, dealer_up, first_decision=first_decision, after_split=after_split) is None


def insurance_refusals(rules: RuleSet, dealer_up: str | None) -> tuple[str, ...]:
    """Every reason an insurance bet is refused (none: it is allowed); `dealer_up` None: no card."""
    refusals = () if rules.insurance else (NOT_OFFERED,)
    if dealer_up is None or not is_ace(dealer_up):
        refusals += (NO_ACE,)
    return refusals


def may_insure(rules: RuleSet, dealer_up: str | None) -> bool:
    return not insurance_refusals(rules, dealer_up)
