"""Scoring a blackjack hand."""

from collections.abc import Sequence

from .cards import CARD_VALUE


def hand_total(cards: Sequence[str]) -> tuple[int, bool]:
    """The best total of the hand and whether it is soft (an ace counted as 11)."""
    total = 0
    has_ace = False
    for card in cards:
        card_value = CARD_VALUE[card]
        total += card_value
        if card_value == 1:
            has_ace = True
    if has_ace and total <= 11:
        return total + 10, True
    return total, False


def total(cards: Sequence[str]) -> int:
    return hand_total(cards)[0]


def is_bust(cards: Sequence[str]) -> bool:
    return hand_total(cards)[0] > 21


def is_natural(cards: Sequence[str]) -> bool:
    """Two cards worth 21. Only a blackjack when they are the initial cards of an unsplit hand."""
    return len(cards) == 2 and hand_total(cards)[0] == 21


def is_blackjack(cards: Sequence[str], *, from_split: bool = False) -> bool:
    return not from_split and is_natural(cards)


def is_hard(cards: Sequence[str]) -> bool:
    return not hand_total(cards)[1]
