"""Theoretical return to player (RTP) of a rule set: exact for side options and insurance, combinatorial
for the main game.

Side options are counted over every distinct deal from the shoe without replacement: each distinct
(player's two cards, facilitator's first card) of rank and suit, weighted by the number of ordered ways
to draw it, is classified once by `sideoptions.matched_patterns`, and the paytable pays what
`sideoptions.winning_pattern` pays for it, so these odds and settlement cannot disagree. Bust Bonus
follows the facilitator's draws exactly: the facilitator stands on 17 as the rules say, a facilitator
blackjack is no bust, and with a Bust Bonus stake awaiting the facilitator always draws out. Side option
and insurance figures are exact fractions.

The main game is the expected return of the main bet when every decision is the engine's total-dependent
basic strategy (`strategy.basic_strategy`, with the table's strategy changes), as the engine auto-plays,
and insurance is never taken. Every card seen is removed from the shoe: the player's cards, the
facilitator's first card, each card drawn. The rules are the engine's: doubles as `rules.double` and
`double_after_split` allow, one split only (by value or rank as `split_match` says) with one card to each
split ace, a split ace and a ten are 21 and no blackjack, a hand stands at 21 and at the card limit,
surrender against a first card of 2-9 only. At a hole-card table a facilitator blackjack ends the round at
once (the player loses the original stake only, or pushes a blackjack); without a hole card it also takes
doubled and split stakes.

Two exchangeability facts make this exact without following every order of dealing. The probability of a
set of cards going to given roles (a hand's hits, the hole card, the facilitator's draws) does not depend
on the order the roles take them in, as long as each role's decisions look only at its own cards and the
facilitator's first card, which is true of basic strategy and of the facilitator. So:
- the hole card can be drawn after the player's hits, restricted to cards that do not make a blackjack;
- each split hand can be valued as if it were played alone from the shoe after the split (both pair cards
  and the first card removed), with the facilitator drawing right after it; the other hand's cards change
  nothing on average. This is exact, not an approximation: its error is 0 (beyond float rounding) for a
  strategy that never looks at the other hand, and the tests check it against a literal enumeration.
"""

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from math import perm

from .cards import ALL_CARDS
from .dealer import draws_on
from .rules import RuleSet
from .sideoptions import matched_patterns, winning_pattern
from .strategy import DOUBLE, HIT, SPLIT, STAND, SURRENDER, basic_strategy, double_allowed

FOUR_PLACES = Decimal("0.0001")
ACE, TEN = 1, 10
VALUES = range(ACE, TEN + 1)
# A card of each value for the strategy and the pattern definitions; suits do not matter to them.
_CARD_OF_VALUE = {
    value: ("A" if value == ACE else "T" if value == TEN else str(value)) + "S" for value in VALUES
}
_TEN_VALUE_RANKS = 4  # T, J, Q, K


def _percent(fraction: Fraction | float) -> Decimal:
    """A return per unit staked as a percentage rounded to 4 places."""
    with localcontext() as context:
        context.prec = 40
        if isinstance(fraction, Fraction):
            value = Decimal(fraction.numerator) / Decimal(fraction.denominator)
        else:
            value = Decimal(fraction)
        return (value * 100).quantize(FOUR_PLACES)


# --- the result -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideOptionOdds:
    """One side option under its paytable: the exact probability of each paid pattern and the RTP."""

    kind: str
    probabilities: dict[str, Fraction]  # the pattern paid -> probability, in paytable order
    no_win: Fraction
    expected_return: Fraction  # per unit staked, the stake included

    @property
    def rtp(self) -> Decimal:
        return _percent(self.expected_return)


@dataclass(frozen=True)
class Odds:
    """The theoretical RTP (percent, 4 places) of every bet kind a rule set offers, with the side
    options' pattern probabilities and the strategy the main game is played by."""

    game: str
    rtp: dict[str, Decimal]  # bet kind -> RTP %, in the order of `RuleSet.offered_kinds`
    patterns: dict[str, dict[str, Fraction]]  # side option -> pattern paid -> probability
    strategy: str

    def house_edge(self, kind: str) -> Decimal:
        return 100 - self.rtp[kind]

    def to_dict(self) -> dict:
        data: dict = {kind: float(rtp) for kind, rtp in self.rtp.items()}
        data["patterns"] = {
            kind: {pattern: float(probability) for pattern, probability in probabilities.items()}
            for kind, probabilities in self.patterns.items()
        }
        data["strategy"] = self.strategy
        return data


def theoretical_odds(rules: RuleSet) -> Odds:
    """Every offered bet kind's theoretical RTP under `rules`."""
    main = main_game_rtp(rules)
    rtp = {"main": main}
    if rules.play_behind:
        rtp["behind"] = main  # a bet behind follows the seated hand's play
    if rules.insurance:
        rtp["insurance"] = insurance_rtp(rules)
    patterns = {}
    for option in rules.side_options:
        odds = side_option_odds(rules, option.kind)
        rtp[option.kind] = odds.rtp
        patterns[option.kind] = odds.probabilities
    return Odds(rules.game, rtp, patterns, strategy_description(rules))


def clear_caches() -> None:
    """Forget every memoised result (for timing the work from nothing)."""
    for cached in (_pattern_classes, facilitator_final_hands, _main_game_expected_gain):
        cached.cache_clear()


def strategy_description(rules: RuleSet) -> str:
    changes = " with the table's strategy changes" if rules.strategy_overrides else ""
    return (
        f"Total-dependent basic strategy (the engine's strategy.basic_strategy{changes}): each decision "
        "from the hand's total, softness and pair against the facilitator's first card; no insurance. "
        f"Every card seen is removed from the {rules.decks}-deck shoe; each split hand is valued exactly "
        "from the shoe after the split."
    )


# --- insurance --------------------------------------------------------------------------------


def insurance_rtp(rules: RuleSet) -> Decimal:
    """Insurance pays when the facilitator, showing an ace, has a ten-value second card."""
    tens = 16 * rules.decks
    cards_left = 52 * rules.decks - 1
    return _percent(Fraction(tens, cards_left) * (1 + Fraction(rules.insurance_pays)))


# --- side options -----------------------------------------------------------------------------


def side_option_odds(rules: RuleSet, kind: str) -> SideOptionOdds:
    """The exact pattern probabilities and RTP of the side option `kind` under the rules' paytable."""
    option = rules.side_option(kind)
    if option is None:
        raise ValueError(f"the rules of {rules.game} offer no {kind} side option")
    paid = {pattern: Fraction(0) for pattern, _ in option.paytable}
    expected_return = Fraction(0)
    for probability, player_cards, facilitator_cards in _pattern_classes(
        kind, rules.decks, rules.dealer_stands_on_soft_17
    ):
        winner = winning_pattern(option, player_cards, facilitator_cards)
        if winner is None:
            continue
        pattern, odds = winner
        paid[pattern] += probability
        expected_return += probability * (1 + Fraction(odds))
    return SideOptionOdds(kind, paid, 1 - sum(paid.values()), expected_return)


@lru_cache(maxsize=32)
def _pattern_classes(
    kind: str, decks: int, stands_on_soft_17: bool
) -> tuple[tuple[Fraction, tuple[str, ...], tuple[str, ...]], ...]:
    """The deals grouped by the set of patterns they match: (probability, an example deal of the group).

    The pattern paid depends only on the matched set, so one example stands for its whole group.
    """
    weights: Counter = Counter()
    examples = {}
    if kind == "bust_bonus":
        deals = (
            ((), tuple(_CARD_OF_VALUE[value] for value in hand), probability)
            for hand, probability in facilitator_final_hands(decks, stands_on_soft_17).items()
        )
    else:  # counts of ordered draws, all over the same number of draws
        deals = ((player, (up,), count) for player, up, count in three_card_deals(decks))
    for player_cards, facilitator_cards, weight in deals:
        matched = matched_patterns(kind, player_cards, facilitator_cards)
        weights[matched] += weight
        examples.setdefault(matched, (player_cards, facilitator_cards))
    scale = 1 if kind == "bust_bonus" else perm(52 * decks, 3)
    return tuple((Fraction(weights[matched]) / scale, *examples[matched]) for matched in weights)


def three_card_deals(decks: int) -> Iterator[tuple[tuple[str, str], str, int]]:
    """Every distinct deal of the player's two cards (in either order) and the facilitator's first card,
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
def facilitator_final_hands(decks: int, stands_on_soft_17: bool = True) -> dict[tuple[int, ...], Fraction]:
    """Every final facilitator hand from a full shoe (card values, sorted) and its exact probability.

    The facilitator draws out whatever the players hold, as with a Bust Bonus stake awaiting. Hands are
    grown one card at a time; the orders that reach the same cards with the same number drawn are merged.
    """
    full = {value: (16 if value == TEN else 4) * decks for value in VALUES}
    shoe_size = 52 * decks
    final: dict[tuple[int, ...], Fraction] = {}
    drawing = {(): 1}  # cards so far -> ordered ways to draw them, before the facilitator stops
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
            if _facilitator_stops(hand, stands_on_soft_17):
                final[hand] = Fraction(ways, ways_to_draw)
            else:
                drawing[hand] = ways
        drawn += 1
    return final


def _facilitator_stops(hand: tuple[int, ...], stands_on_soft_17: bool) -> bool:
    return not draws_on(*_total(hand), stands_on_soft_17)


# --- the main game ----------------------------------------------------------------------------


def main_game_rtp(rules: RuleSet) -> Decimal:
    """The main bet's RTP in percent (4 places) under the engine's basic strategy; see the module's notes."""
    return _percent(1 + main_game_expected_gain(rules))


def main_game_expected_gain(rules: RuleSet) -> float:
    """The main bet's expected gain per unit of the original stake (negative: the house edge)."""
    # Side options and the published figure change nothing of the main game: a new paytable
    # does not work the main game out again.
    return _main_game_expected_gain(replace(rules, side_options=(), published_rtp=None))


@lru_cache(maxsize=16)
def _main_game_expected_gain(rules: RuleSet) -> float:
    return MainGame(rules).expected_gain()


# A shoe is one int holding the count of each card value in 8 bits, the ace lowest: 8 decks hold 128
# ten-value cards, which fits. Hashing and drawing from an int is much faster than from a tuple.
_BITS = 8
_MASK = (1 << _BITS) - 1
_ONE_CARD = {value: 1 << (_BITS * (value - 1)) for value in VALUES}
# The facilitator's outcomes by index: a final 17, 18, 19, 20, 21 (0-4), a bust, a blackjack.
_BUST, _BLACKJACK = 5, 6
_DRAWN_OUTCOMES = 6  # what a facilitator who draws can end with: 17..21 or a bust


def _count(shoe: int, value: int) -> int:
    return (shoe >> (_BITS * (value - 1))) & _MASK


def _total(cards: tuple[int, ...]) -> tuple[int, bool]:
    hard = sum(cards)
    if ACE in cards and hard <= 11:
        return hard + 10, True
    return hard, False


class MainGame:
    """Expected values of the main bet under `rules`, the player following the engine's basic strategy.

    Values are per unit of the original stake. A shoe here is the composition left to draw from; the
    memos are keyed by it, so every hand and facilitator position is worked out once.
    """

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.full_shoe = sum((16 if value == TEN else 4) * rules.decks * _ONE_CARD[value] for value in VALUES)
        self.shoe_size = 52 * rules.decks
        self._drawing: dict[int, tuple[float, ...]] = {}
        self._outcomes: dict[int, tuple[float, ...]] = {}
        self._hands: dict[tuple, float] = {}
        self._decisions: dict[tuple, str] = {}
        # Where a facilitator hand stops, by `(hard << 1) | has_ace`, hard counting aces as 1: the index of
        # its outcome (17..21, a bust), or None while it draws. Worked out once: it is in the hottest loop.
        self._stops = tuple(self._stop(hard, has_ace) for hard in range(32) for has_ace in (False, True))

    # --- the whole game ------------------------------------------------------------------------

    def expected_gain(self) -> float:
        """Over every first three cards: the facilitator's first card and the player's two."""
        return sum(
            self.deal_chance(up, first, second) * self.deal_value(up, first, second)
            for up in VALUES
            for first in VALUES
            for second in range(first, TEN + 1)
        )

    def deal_chance(self, up: int, first: int, second: int) -> float:
        """The chance that the facilitator's first card and the player's two cards (either order) have
        these values."""
        shoe, size, chance = self.full_shoe, self.shoe_size, 1.0
        for value in (up, first, second):
            chance *= _count(shoe, value) / size
            shoe -= _ONE_CARD[value]
            size -= 1
        return chance if first == second else 2 * chance

    def deal_value(self, up: int, first: int, second: int) -> float:
        """The expected gain of a deal, before the facilitator checks for blackjack."""
        shoe = self.full_shoe - _ONE_CARD[up] - _ONE_CARD[first] - _ONE_CARD[second]
        cards_left = self.shoe_size - 3
        natural = self._facilitator_natural_chance(shoe, cards_left, up)
        if {first, second} == {ACE, TEN}:
            return float(self.rules.blackjack_pays) * (1 - natural)  # a facilitator blackjack pushes
        # At a hole-card table a facilitator blackjack ends the round: the original stake is lost.
        peeked = -natural if self.rules.hole_card else 0.0
        cards = (first, second)
        if first != second or self.rules.max_splits < 1:
            return peeked + self._first_decision(shoe, cards_left, up, cards, can_split=False)
        if first == TEN and self.rules.split_match == "rank":
            same_rank = self._same_ten_rank_chance()
            return (
                peeked
                + same_rank * self._first_decision(shoe, cards_left, up, cards, can_split=True)
                + (1 - same_rank) * self._first_decision(shoe, cards_left, up, cards, can_split=False)
            )
        return peeked + self._first_decision(shoe, cards_left, up, cards, can_split=True)

    def first_decision_values(self, up: int, first: int, second: int) -> dict[str, float]:
        """The expected gain of each first decision the rules allow on this deal (any two ten-value cards
        count as a pair here), the hand then played by the strategy; at a hole-card table, given that the
        facilitator has no blackjack."""
        shoe = self.full_shoe - _ONE_CARD[up] - _ONE_CARD[first] - _ONE_CARD[second]
        cards_left = self.shoe_size - 3
        cards = tuple(sorted((first, second)))
        values = {
            STAND: self._stand(shoe, cards_left, up, _total(cards)[0]),
            HIT: self._draw_and_play(shoe, cards_left, up, cards, after_split=False),
        }
        if double_allowed(self.rules, self._codes(cards)):
            values[DOUBLE] = self._double(shoe, cards_left, up, cards)
        if first == second and self.rules.max_splits >= 1:
            values[SPLIT] = 2 * self._split_hand(shoe, cards_left, up, first)
        if self._surrender_allowed(up):
            values[SURRENDER] = -0.5 * self._settled_chance(shoe, cards_left, up)
        if self.rules.hole_card:
            no_blackjack = 1 - self._facilitator_natural_chance(shoe, cards_left, up)
            values = {action: value / no_blackjack for action, value in values.items()}
        return values

    # --- the player's hands --------------------------------------------------------------------
    # At a hole-card table these values leave out the deals where the facilitator has a blackjack
    # (counted once, in `deal_value`): they are sums over the hole cards that make no blackjack.

    def _first_decision(
        self, shoe: int, cards_left: int, up: int, cards: tuple[int, int], *, can_split
    ) -> float:
        cards = tuple(sorted(cards))
        action = self._decide(cards, up, can_split=can_split, can_surrender=self._surrender_allowed(up))
        if action == SPLIT:
            return 2 * self._split_hand(shoe, cards_left, up, cards[0])
        if action == SURRENDER:
            return -0.5 * self._settled_chance(shoe, cards_left, up)
        return self._act(action, shoe, cards_left, up, cards, after_split=False)

    def _split_hand(self, shoe: int, cards_left: int, up: int, card: int) -> float:
        """One hand of a split pair of `card`; `shoe` lacks both pair cards. Exact: see the module notes."""
        value = 0.0
        for drawn in VALUES:
            count = _count(shoe, drawn)
            if not count:
                continue
            cards = tuple(sorted((card, drawn)))
            after = shoe - _ONE_CARD[drawn]
            if card == ACE:  # one card to each split ace
                hand_value = self._stand(after, cards_left - 1, up, _total(cards)[0])
            else:
                hand_value = self._play(after, cards_left - 1, up, cards, after_split=True)
            value += count / cards_left * hand_value
        return value

    def _play(
        self, shoe: int, cards_left: int, up: int, cards: tuple[int, ...], *, after_split: bool
    ) -> float:
        """A hand about to take a decision (or to stop by rule), played by the strategy from here on."""
        key = (shoe, up, cards, after_split)
        value = self._hands.get(key)
        if value is None:
            total, _ = _total(cards)
            max_cards = self.rules.max_cards
            if total > 21:
                value = -self._settled_chance(shoe, cards_left, up)
            elif total == 21 or (max_cards is not None and len(cards) >= max_cards):
                value = self._stand(shoe, cards_left, up, total)
            else:
                action = self._decide(
                    cards, up, can_split=False, can_surrender=False, after_split=after_split
                )
                value = self._act(action, shoe, cards_left, up, cards, after_split=after_split)
            self._hands[key] = value
        return value

    def _act(self, action: str, shoe: int, cards_left: int, up: int, cards, *, after_split: bool) -> float:
        if action == STAND:
            return self._stand(shoe, cards_left, up, _total(cards)[0])
        if action == DOUBLE:
            return self._double(shoe, cards_left, up, cards)
        if action == HIT:
            return self._draw_and_play(shoe, cards_left, up, cards, after_split=after_split)
        raise ValueError(f"unexpected decision {action!r} on {cards} against {up}")

    def _draw_and_play(self, shoe: int, cards_left: int, up: int, cards, *, after_split: bool) -> float:
        value = 0.0
        for drawn in VALUES:
            count = _count(shoe, drawn)
            if count:
                after = shoe - _ONE_CARD[drawn]
                grown = tuple(sorted((*cards, drawn)))
                value += (
                    count / cards_left * self._play(after, cards_left - 1, up, grown, after_split=after_split)
                )
        return value

    def _double(self, shoe: int, cards_left: int, up: int, cards) -> float:
        value = 0.0
        for drawn in VALUES:
            count = _count(shoe, drawn)
            if not count:
                continue
            after = shoe - _ONE_CARD[drawn]
            total, _ = _total((*cards, drawn))
            if total > 21:
                hand_value = -self._settled_chance(after, cards_left - 1, up)
            else:
                hand_value = self._stand(after, cards_left - 1, up, total)
            value += count / cards_left * hand_value
        return 2 * value

    def _stand(self, shoe: int, cards_left: int, up: int, total: int) -> float:
        outcomes = self.facilitator_outcomes(shoe, cards_left, up)
        value = outcomes[_BUST] - outcomes[_BLACKJACK]
        for index in range(5):
            facilitator_total = 17 + index
            if total > facilitator_total:
                value += outcomes[index]
            elif total < facilitator_total:
                value -= outcomes[index]
        return value

    def _decide(self, cards: tuple[int, ...], up: int, *, can_split, can_surrender, after_split=False) -> str:
        """The engine's basic strategy, given what the table allows at this point (as the simulator asks)."""
        key = (cards, up, can_split, can_surrender, after_split)
        action = self._decisions.get(key)
        if action is None:
            codes = self._codes(cards)
            can_double = (
                len(cards) == 2
                and (not after_split or self.rules.double_after_split)
                and double_allowed(self.rules, codes)
            )
            action = basic_strategy(
                self.rules,
                codes,
                _CARD_OF_VALUE[up],
                can_double=can_double,
                can_split=can_split,
                can_surrender=can_surrender,
            )
            self._decisions[key] = action
        return action

    @staticmethod
    def _codes(cards: tuple[int, ...]) -> list[str]:
        return [_CARD_OF_VALUE[value] for value in cards]

    def _surrender_allowed(self, up: int) -> bool:
        return self.rules.surrender and 2 <= up <= 9

    def _same_ten_rank_chance(self) -> float:
        """Two ten-value cards of the same rank (T, J, Q, K), given their values. Whatever ten-value
        card the facilitator shows, it takes from each rank alike, so it does not change this."""
        per_rank = 4 * self.rules.decks
        return (per_rank - 1) / (_TEN_VALUE_RANKS * per_rank - 1)

    # --- the facilitator -------------------------------------------------------------------------

    def _facilitator_natural_chance(self, shoe: int, cards_left: int, up: int) -> float:
        if up == ACE:
            return _count(shoe, TEN) / cards_left
        if up == TEN:
            return _count(shoe, ACE) / cards_left
        return 0.0

    def _settled_chance(self, shoe: int, cards_left: int, up: int) -> float:
        """The weight of a result that does not depend on the facilitator (a bust, a surrender): at a
        hole-card table only the hole cards that make no blackjack count here."""
        if self.rules.hole_card:
            return 1 - self._facilitator_natural_chance(shoe, cards_left, up)
        return 1.0

    def facilitator_outcomes(self, shoe: int, cards_left: int, up: int) -> tuple[float, ...]:
        """Chances of the facilitator's final 17, 18, 19, 20, 21, bust and blackjack, the second card drawn
        from `shoe`. At a hole-card table the second cards that make a blackjack are left out (that round
        ended before any decision), so the chances add up to the chance of no blackjack."""
        key = (shoe << 4) | up
        outcomes = self._outcomes.get(key)
        if outcomes is None:
            sums = [0.0] * (_BLACKJACK + 1)
            for second in VALUES:
                count = _count(shoe, second)
                if not count:
                    continue
                chance = count / cards_left
                if {up, second} == {ACE, TEN}:
                    if not self.rules.hole_card:
                        sums[_BLACKJACK] += chance
                    continue
                hard, has_ace = up + second, ACE in (up, second)
                final = self._stops[(hard << 1) | has_ace]
                if final is not None:
                    sums[final] += chance
                    continue
                drawn = self._facilitator_draws(shoe - _ONE_CARD[second], cards_left - 1, hard, has_ace)
                for index in range(_DRAWN_OUTCOMES):
                    sums[index] += chance * drawn[index]
            outcomes = self._outcomes[key] = tuple(sums)
        return outcomes

    def _facilitator_draws(self, shoe: int, cards_left: int, hard: int, has_ace: bool) -> tuple[float, ...]:
        """Chances of 17..21 and bust for a facilitator hand of `hard` (aces as 1) that must draw."""
        key = (shoe << 6) | (hard << 1) | has_ace
        chances = self._drawing.get(key)
        if chances is None:
            sums = [0.0] * _DRAWN_OUTCOMES
            stops = self._stops
            for drawn in VALUES:
                count = _count(shoe, drawn)
                if not count:
                    continue
                chance = count / cards_left
                new_hard, ace = hard + drawn, has_ace or drawn == ACE
                final = stops[(new_hard << 1) | ace]
                if final is not None:
                    sums[final] += chance
                    continue
                further = self._facilitator_draws(shoe - _ONE_CARD[drawn], cards_left - 1, new_hard, ace)
                for index in range(_DRAWN_OUTCOMES):
                    sums[index] += chance * further[index]
            chances = self._drawing[key] = tuple(sums)
        return chances

    def _stop(self, hard: int, has_ace: bool) -> int | None:
        soft = has_ace and hard <= 11
        total = hard + 10 if soft else hard
        if draws_on(total, soft, self.rules.dealer_stands_on_soft_17):
            return None
        return _BUST if total > 21 else total - 17
