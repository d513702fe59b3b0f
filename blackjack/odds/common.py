"""What the odds modules share: card values, a hand's total, percentages to four places."""

from decimal import Decimal, localcontext
from fractions import Fraction

FOUR_PLACES = Decimal("0.0001")
ACE, TEN = 1, 10
VALUES = range(ACE, TEN + 1)
# A card of each value for the strategy and the pattern definitions; suits do not matter to them.
CARD_OF_VALUE = {
    value: ("A" if value == ACE else "T" if value == TEN else str(value)) + "S" for value in VALUES
}


def percent(fraction: Fraction | float) -> Decimal:
    """A return per unit staked as a percentage rounded to 4 places."""
    with localcontext() as context:
        context.prec = 40
        if isinstance(fraction, Fraction):
            value = Decimal(fraction.numerator) / Decimal(fraction.denominator)
        else:
            value = Decimal(fraction)
        return (value * 100).quantize(FOUR_PLACES)


def total_of(cards: tuple[int, ...]) -> tuple[int, bool]:
    """The best total of card values (aces as 1) and whether it is soft."""
    hard = sum(cards)
    if ACE in cards and hard <= 11:
        return hard + 10, True
    return hard, False
