"""Cards as two-character codes ("TS", "AH") and the multi-deck shoe."""

import random

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")
TEN_VALUE_RANKS = frozenset("TJQK")

ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)

# Blackjack value with the ace as 1; 10 for T, J, Q, K.
_VALUE = {rank: (1 if rank == "A" else 10 if rank in TEN_VALUE_RANKS else int(rank)) for rank in RANKS}
CARD_VALUE = {card: _VALUE[card[0]] for card in ALL_CARDS}
CARD_SET = frozenset(ALL_CARDS)

# Position of each rank in a sequence with the ace low (A=1 ... K=13).
RANK_ORDER = {rank: position for position, rank in enumerate(RANKS, start=1)}


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in CARD_VALUE


def value(card: str) -> int:
    """Blackjack value, ace counted as 1."""
    return CARD_VALUE[card]


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def is_red(card: str) -> bool:
    return card[1] in RED_SUITS


def is_ace(card: str) -> bool:
    return card[0] == "A"


def is_ten_value(card: str) -> bool:
    return card[0] in TEN_VALUE_RANKS


def new_shoe(decks: int) -> list[str]:
    return [card for _ in range(decks) for card in ALL_CARDS]


def shuffled_shoe(decks: int, rng: random.Random) -> list[str]:
    shoe = new_shoe(decks)
    rng.shuffle(shoe)
    return shoe
