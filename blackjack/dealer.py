"""The dealer's drawing rule: the replay, the simulator and the odds all ask here."""

from collections.abc import Sequence

from .cards import is_ace, is_ten_value
from .hand import hand_total
from .rules import RuleSet


def draws_on(total: int, soft: bool, stands_on_soft_17: bool) -> bool:
    """Whether the dealer must take a card on `total` (`soft`: an ace counted as 11): always below
    17, on a soft 17 only where the table hits it (`RuleSet.dealer_stands_on_soft_17` false), never on a
    hard 17 or more (a bust included)."""
    return total < 17 or (total == 17 and soft and not stands_on_soft_17)


def must_draw(
    cards: Sequence[str], rules: RuleSet, *, live: bool, bust_bonus: bool, insurance: bool, blackjacks: bool
) -> bool:
    """Whether the dealer holding `cards` must take another card, given what the round's bets still
    await: `live`, a hand that is not bust, surrendered or a blackjack; `bust_bonus`, a Bust Bonus stake;
    `insurance`, an insurance bet; `blackjacks`, a player's blackjack.

    A live hand or a Bust Bonus stake makes the dealer draw out by the table's rule. Otherwise, at a
    table without a hole card, the second card is still drawn when an insurance bet or a player's
    blackjack (against an ace or a ten) depends on it; then the round ends.
    """
    total, soft = hand_total(cards)
    if not draws_on(total, soft, rules.dealer_stands_on_soft_17):
        return False
    if live or bust_bonus:
        return True
    if rules.hole_card or len(cards) >= 2:
        return False
    return insurance or (blackjacks and (is_ace(cards[0]) or is_ten_value(cards[0])))
