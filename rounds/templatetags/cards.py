"""Cards drawn as small playing cards: rank and suit symbol, red or black, HTML and CSS only.

`{% card_row hand.cards %}` (`{% card_row cards small=True %}` for the smaller ones) draws a hand
given as a space-separated string ("8H 3C TD"), a list of codes or of `CardFace`s, through
templates/components/card_row.html and card.html.
"""

from dataclasses import dataclass

from django import template

from blackjack.cards import CARD_SET, RED_SUITS
from blackjack.hand import hand_total

register = template.Library()

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_TEXT = {"T": "10"}
RANK_NAMES = {"A": "Ace", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King"}


@dataclass(frozen=True)
class CardFace:
    code: str
    draw: int | None = None  # its number in a shared deal's common draw sequence

    @property
    def known(self) -> bool:
        return self.code in CARD_SET

    @property
    def rank(self) -> str:
        return RANK_TEXT.get(self.code[:1], self.code[:1]) if self.known else self.code

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.code[1]] if self.known else "?"

    @property
    def colour(self) -> str:
        if not self.known:
            return "unknown"
        return "red" if self.code[1] in RED_SUITS else "black"

    @property
    def name(self) -> str:
        if not self.known:
            return f"{self.code} (not a card)"
        rank = RANK_NAMES.get(self.code[0], self.code[0])
        return f"{rank} of {SUIT_NAMES[self.code[1]]}"


def card_codes(cards) -> list[str]:
    if cards is None:
        return []
    if isinstance(cards, str):
        return cards.split()
    return [str(card) for card in cards]


@register.filter
def faces(cards) -> list[CardFace]:
    """A hand as "8H 3C" or ["8H", "3C"] -> the faces to draw; faces pass through unchanged."""
    if isinstance(cards, list | tuple) and cards and isinstance(cards[0], CardFace):
        return list(cards)
    return [CardFace(code) for code in card_codes(cards)]


@register.inclusion_tag("components/card_row.html")
def card_row(cards, small=False):
    """The cards in a row, each a playing card (a shared draw with its number in the sequence)."""
    return {"cards": faces(cards), "small": small}


def total_text(codes: list[str]) -> str:
    """The hand's total in words: "19", "soft 17", "blackjack" (two cards), "bust (24)"."""
    if not codes or any(code not in CARD_SET for code in codes):
        return ""
    total, soft = hand_total(codes)
    if total > 21:
        return f"bust ({total})"
    if total == 21 and len(codes) == 2:
        return "21 (two cards)"
    return f"soft {total}" if soft else str(total)


@register.filter
def hand_total_text(cards) -> str:
    """{{ hand.cards|hand_total_text }} -> "soft 17"."""
    return total_text([face.code if isinstance(face, CardFace) else face for face in faces(cards)])
