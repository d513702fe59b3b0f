"""Side options: which patterns a deal matches and what a side option bet returns.

The patterns of each side option are those of `rules.SIDE_OPTION_PATTERNS`; a table's paytable
(`rules.SideOption`) says which of them pay and at what odds. Only the highest-paying matched
pattern is paid.
"""

from collections.abc import Sequence
from decimal import ROUND_FLOOR, Decimal
from functools import lru_cache

from .cards import CARD_VALUE, RANK_ORDER, is_red, rank, suit
from .hand import is_bust
from .rules import SIDE_OPTION_PATTERNS, SideOption

CENT = Decimal("0.01")
NOTHING_RETURNED = Decimal("0.00")

_ACE_HIGH = RANK_ORDER["K"] + 1
_CACHE_SIZE = 1 << 16
_TRIO_KINDS = ("twenty_one_plus_three", "poker_trio", "lucky_trio")


def matched_patterns(kind: str, player_cards: Sequence[str], dealer_cards: Sequence[str]) -> frozenset[str]:
    """Every pattern of the side option `kind` that the cards match.

    `player_cards` are the player's first two cards (the original pair of a split hand);
    `dealer_cards` are the dealer's cards in the order dealt.
    """
    if kind not in SIDE_OPTION_PATTERNS:
        raise ValueError(f"unknown side option {kind!r}")
    return _matched_patterns(kind, *_cache_key(kind, player_cards, dealer_cards))


def winning_pattern(
    option: SideOption, player_cards: Sequence[str], dealer_cards: Sequence[str]
) -> tuple[str, Decimal] | None:
    """The best-paying matched pattern of the option's paytable and its odds; None if none pays."""
    return _winning_pattern(option, *_cache_key(option.kind, player_cards, dealer_cards))


def side_option_returned(
    option: SideOption, wagered: Decimal, player_cards: Sequence[str], dealer_cards: Sequence[str]
) -> Decimal:
    """What a bet of `wagered` returns: the stake plus winnings rounded down to the cent on a win, else 0."""
    winner = winning_pattern(option, player_cards, dealer_cards)
    if winner is None:
        return NOTHING_RETURNED
    _, odds = winner
    return wagered + (wagered * odds).quantize(CENT, rounding=ROUND_FLOOR)


def _cache_key(
    kind: str, player_cards: Sequence[str], dealer_cards: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    # Keep only the cards the option looks at, so that more deals share one cache entry.
    if kind == "bust_bonus":
        return (), tuple(dealer_cards)
    return tuple(player_cards[:2]), tuple(dealer_cards[:1])


@lru_cache(maxsize=_CACHE_SIZE)
def _winning_pattern(
    option: SideOption, player_cards: tuple[str, ...], dealer_cards: tuple[str, ...]
) -> tuple[str, Decimal] | None:
    matched = _matched_patterns(option.kind, player_cards, dealer_cards)
    paying = [(pattern, odds) for pattern, odds in option.paytable if pattern in matched]
    if not paying:
        return None
    return max(paying, key=lambda line: line[1])


@lru_cache(maxsize=_CACHE_SIZE)
def _matched_patterns(
    kind: str, player_cards: tuple[str, ...], dealer_cards: tuple[str, ...]
) -> frozenset[str]:
    if kind == "bust_bonus":
        return _bust_patterns(dealer_cards)
    if kind in ("pair", "perfect_pairs"):
        patterns = _pair_patterns(player_cards)
        if kind == "pair" and dealer_cards and _is_suited_trips(player_cards + dealer_cards[:1]):
            patterns |= {"suited_trips"}
        return patterns
    if kind in _TRIO_KINDS:
        if not dealer_cards:
            return frozenset()
        trio = player_cards + dealer_cards[:1]
        if kind == "lucky_trio":
            return _lucky_trio_patterns(trio)
        return _poker_patterns(trio)
    raise ValueError(f"unknown side option {kind!r}")


# --- pairs ---------------------------------------------------------------------------------


def _pair_patterns(cards: tuple[str, ...]) -> frozenset[str]:
    first, second = cards
    if rank(first) != rank(second):
        return frozenset()
    if suit(first) == suit(second):
        return frozenset({"perfect_pair"})
    if is_red(first) == is_red(second):
        return frozenset({"coloured_pair"})
    return frozenset({"mixed_pair"})


# --- three-card poker patterns (21+3, Poker Trio) -----------------------------------------


def _is_suited_trips(cards: tuple[str, ...]) -> bool:
    return len(set(cards)) == 1


def _all_one_suit(cards: tuple[str, ...]) -> bool:
    return len({suit(card) for card in cards}) == 1


def _is_straight(cards: tuple[str, ...]) -> bool:
    """Three consecutive ranks; the ace plays low (A-2-3) or high (Q-K-A), never both (K-A-2)."""
    low = sorted(RANK_ORDER[rank(card)] for card in cards)
    high = sorted(_ACE_HIGH if rank(card) == "A" else RANK_ORDER[rank(card)] for card in cards)
    return any(order[1] == order[0] + 1 and order[2] == order[1] + 1 for order in (low, high))


def _poker_patterns(cards: tuple[str, ...]) -> frozenset[str]:
    one_suit = _all_one_suit(cards)
    if len({rank(card) for card in cards}) == 1:
        return frozenset({"suited_trips" if one_suit else "three_of_a_kind"})
    if _is_straight(cards):
        return frozenset({"straight_flush" if one_suit else "straight"})
    if one_suit:
        return frozenset({"flush"})
    return frozenset()


# --- Lucky Trio ----------------------------------------------------------------------------


def _possible_totals(cards: tuple[str, ...]) -> set[int]:
    """Every total the cards can make, each ace counted as 1 or 11."""
    hard_total = sum(CARD_VALUE[card] for card in cards)
    aces = sum(1 for card in cards if rank(card) == "A")
    return {hard_total + 10 * elevens for elevens in range(aces + 1)}


def _lucky_trio_patterns(cards: tuple[str, ...]) -> frozenset[str]:
    suited = "suited" if _all_one_suit(cards) else "unsuited"
    totals = _possible_totals(cards)
    ranks = sorted(rank(card) for card in cards)
    patterns = set()
    if totals & {19, 20}:
        patterns.add("total_19_or_20")
    if 21 in totals:
        patterns.add(f"{suited}_21")
    if ranks == ["6", "7", "8"]:
        patterns.add(f"{suited}_6_7_8")
    if ranks == ["7", "7", "7"]:
        patterns.add(f"{suited}_7_7_7")
    return frozenset(patterns)


# --- Bust Bonus ----------------------------------------------------------------------------


def _bust_patterns(dealer_cards: tuple[str, ...]) -> frozenset[str]:
    if not is_bust(dealer_cards):
        return frozenset()
    count = len(dealer_cards)
    return frozenset({"bust_8_plus" if count >= 8 else f"bust_{count}"})
