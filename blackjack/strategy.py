"""Basic strategy: the total-dependent 8-deck, dealer-stands-on-all-17 strategy, adapted per rule set.

`basic_strategy` answers one decision. The caller says which actions the table and the player's
balance allow at this point (`can_double`, `can_split`, `can_surrender`); the table's options
(`options.py`: double on hard 9-11 only, pairs by rank or by value, surrender only against a dealer
first card of 2-9) narrow them further, and an action that is not available falls back to hit or stand.

At a table without a hole card (`rules.hole_card` False) a dealer blackjack also takes the
doubled and split stakes, so the European no-hole-card adjustments apply: no double on 10 or 11
against a ten or an ace, no split against a ten or an ace.
"""

from collections.abc import Sequence

from .cards import CARD_VALUE, rank
from .hand import hand_total
from .options import may_double, may_split, may_surrender
from .rules import RuleSet

HIT = "hit"
STAND = "stand"
DOUBLE = "double"
SPLIT = "split"
SURRENDER = "surrender"
ACTIONS = (HIT, STAND, DOUBLE, SPLIT, SURRENDER)


def up_value(card: str) -> int:
    """The dealer's first card as a strategy column: 2-10, the ace as 11."""
    card_value = CARD_VALUE[card]
    return 11 if card_value == 1 else card_value


def basic_strategy(
    rules: RuleSet,
    cards: Sequence[str],
    dealer_up: str,
    *,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
) -> str:
    """The basic-strategy action for `cards` against the dealer's first card `dealer_up`."""
    up = up_value(dealer_up)
    total, soft = hand_total(cards)
    if total >= 21:
        return STAND
    no_hole_card = not rules.hole_card
    # The caller says what the moment allows; the options say what these cards allow.
    two_cards = len(cards) == 2
    may_double_here = can_double and may_double(rules, cards)
    may_split_here = can_split and may_split(rules, cards)
    may_surrender_here = can_surrender and may_surrender(rules, dealer_up, first_decision=two_cards)

    if rules.strategy_overrides:
        changed = _overridden(
            rules, cards, dealer_up, total, soft, may_double_here, may_split_here, may_surrender_here
        )
        if changed is not None:
            return changed
    if may_split_here and _split_pair(rules, cards, up, no_hole_card):
        return SPLIT
    if may_surrender_here and not soft and total == 16 and up == 9 and not may_split_here:
        return SURRENDER
    if soft:
        return _soft(total, up, may_double_here)
    return _hard(total, up, may_double_here, no_hole_card)


def low_balance_decision(policy: str, total: int) -> str:
    """What the system does instead of a double or split refused for a low balance, by the table's
    policy (`rules.low_balance_double` / `low_balance_split`): hit, or hit while 11 or less, then stand."""
    return HIT if policy == "hit" or total <= 11 else STAND


def automatic_decision(
    rules: RuleSet,
    cards: Sequence[str],
    dealer_up: str,
    *,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
) -> str:
    """The decision the system takes for a player who gives none in time, by the table's policy
    (`rules.auto_play`): always stand; hit while the total is 11 or less (an ace counting 11 unless that
    busts), then stand; or the table's strategy table (basic strategy with the table's changes)."""
    if rules.auto_play == "stand":
        return STAND
    if rules.auto_play == "hit_to_12":
        return HIT if hand_total(cards)[0] <= 11 else STAND
    return basic_strategy(
        rules, cards, dealer_up, can_double=can_double, can_split=can_split, can_surrender=can_surrender
    )


def _overridden(rules, cards, dealer_up, total, soft, may_double, may_split, may_surrender) -> str | None:
    """The table's own strategy-table entry for this hand, where it has one and it is available."""
    column = "A" if CARD_VALUE[dealer_up] == 1 else "T" if CARD_VALUE[dealer_up] == 10 else dealer_up[0]
    rows = []
    if may_split:
        first = rank(cards[0])
        rows.append("pairT" if CARD_VALUE[cards[0]] == 10 else f"pair{first}")
    rows.append(f"soft{total}" if soft else f"hard{max(total, 4)}")
    for row in rows:
        action = rules.strategy_override(row, column)
        if action is None:
            continue
        if action == DOUBLE and not may_double:
            return HIT
        if action == SURRENDER and not may_surrender:
            return HIT
        if action == SPLIT and not may_split:
            continue
        return action
    return None


def _split_pair(rules: RuleSet, cards: Sequence[str], up: int, no_hole_card: bool) -> bool:
    pair_value = up_value(cards[0])
    if no_hole_card and up >= 10:
        return False
    das = rules.double_after_split
    if pair_value == 11 or pair_value == 8:
        return True
    if pair_value in (10, 5):
        return False
    if pair_value == 9:
        return up in (2, 3, 4, 5, 6, 8, 9)
    if pair_value == 7:
        return 2 <= up <= 7
    if pair_value == 6:
        return (2 if das else 3) <= up <= 6
    if pair_value == 4:
        return das and up in (5, 6)
    # 2-2 and 3-3
    return (2 if das else 4) <= up <= 7


def _soft(total: int, up: int, may_double: bool) -> str:
    if total >= 19:
        return STAND
    if total == 18:
        if 3 <= up <= 6:
            return DOUBLE if may_double else STAND
        return STAND if up in (2, 7, 8) else HIT
    if total == 17:
        double_against = range(3, 7)
    elif total in (15, 16):
        double_against = range(4, 7)
    elif total in (13, 14):
        double_against = range(5, 7)
    else:  # soft 12: two aces that are not split
        double_against = range(0)
    return DOUBLE if may_double and up in double_against else HIT


def _hard(total: int, up: int, may_double: bool, no_hole_card: bool) -> str:
    if total >= 17:
        return STAND
    if total >= 13:
        return STAND if up <= 6 else HIT
    if total == 12:
        return STAND if 4 <= up <= 6 else HIT
    if total == 11:
        best_up = 9 if no_hole_card else 10
        return DOUBLE if may_double and up <= best_up else HIT
    if total == 10:
        return DOUBLE if may_double and up <= 9 else HIT
    if total == 9:
        return DOUBLE if may_double and 3 <= up <= 6 else HIT
    return HIT
