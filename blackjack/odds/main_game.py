"""The main game, combinatorially: the expected return of the main bet under a rule set, played either
by the best decision at every point (the maximum RTP) or by the table's automatic play (what a player who
never acts gets).

Best play is composition-dependent: at every decision the option with the highest expectation given the
hand's own cards and the dealer's first card (hit, stand, double, split, surrender, as the rules allow
there), so the figure is the true maximum for the rule set. Every card seen is removed from the shoe: the
player's cards, the dealer's first card, each card drawn. The rules are the engine's: the player's options
as `options.py` gives them (doubles, one split by value or rank with one card to each split ace,
surrender), a split ace and a ten are 21 and no blackjack, a hand stands at 21 and at the card limit, the
dealer draws as `dealer.draws_on` says. At a hole-card table a dealer blackjack ends the round at once
(the player loses the original stake only, or pushes a blackjack); without a hole card it also takes
doubled and split stakes. Insurance is never taken.

Two exchangeability facts make this exact without following every order of dealing. The probability of a
set of cards going to given roles (a hand's hits, the hole card, the dealer's draws) does not depend
on the order the roles take them in, as long as each role's decisions look only at its own cards and the
dealer's first card, which is true of both ways of playing and of the dealer. So:
- the hole card can be drawn after the player's hits, restricted to cards that do not make a blackjack;
- each split hand can be valued as if it were played alone from the shoe after the split (both pair cards
  and the first card removed), with the dealer drawing right after it; the other hand's cards change
  nothing on average. This is exact, not an approximation: its error is 0 (beyond float rounding) for a
  way of playing that never looks at the other hand, and the tests check it against a literal enumeration.
"""

from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache

from .. import options
from ..dealer import draws_on
from ..rules import RuleSet
from ..strategy import DOUBLE, HIT, SPLIT, STAND, SURRENDER, automatic_decision
from .common import ACE, CARD_OF_VALUE, TEN, VALUES, percent, total_of

BEST = "best"  # the option with the highest expectation at every decision
AUTO_PLAY = "auto_play"  # the table's automatic play, as for a player who never acts
POLICIES = (BEST, AUTO_PLAY)
_TEN_VALUE_RANKS = 4  # T, J, Q, K


def main_game_rtp(rules: RuleSet, policy: str = BEST) -> Decimal:
    """The main bet's RTP in percent (4 places), played by `policy`."""
    return percent(1 + main_game_expected_gain(rules, policy))


def main_game_expected_gain(rules: RuleSet, policy: str = BEST) -> float:
    """The main bet's expected gain per unit of the original stake (negative: the house edge)."""
    return main_game_figures(rules, policy).expected_gain


def main_game_figures(rules: RuleSet, policy: str = BEST) -> "MainGameFigures":
    """The main game of `rules` under `policy`, worked out once for every rule set that plays alike."""
    return main_game_figures_of(main_game_rules(rules, policy), policy)


def main_game_rules(rules: RuleSet, policy: str) -> RuleSet:
    """`rules` with what cannot change the main game's value set to one value, so that the tables whose
    main game is the same (a new paytable, Deluxe and Boundless) share one worked-out game. The game
    name only names the rules: nothing below reads it."""
    plays_alike = {
        "game": "deluxe",
        "seats": 7,
        "max_seats_per_player": None,
        "equal_seat_plays": False,
        "shared_deal": False,
        "insurance": True,
        "insurance_pays": Decimal("2"),
        "low_balance_double": None,
        "low_balance_split": None,
        "play_behind": True,
        "cancel_pays_dealt_blackjack": False,
        "side_options": (),
    }
    if policy == BEST:  # best play asks nothing of the table's automatic play
        plays_alike |= {"auto_play": "hit_to_12", "strategy_overrides": ()}
    return replace(rules, **plays_alike)


@dataclass(frozen=True)
class MainGameFigures:
    """What is kept of a worked-out main game: its expected gain and, under best play, the value of each
    first decision of every deal (for the strategy chart)."""

    expected_gain: float
    first_decisions: dict[tuple[int, int, int], dict[str, float]]  # (up, first, second) -> action -> value
    deal_chances: dict[tuple[int, int, int], float]


@lru_cache(maxsize=16)
def main_game_figures_of(rules: RuleSet, policy: str) -> MainGameFigures:
    game = MainGame(rules, policy)
    deals = [(up, first, second) for up in VALUES for first in VALUES for second in range(first, TEN + 1)]
    return MainGameFigures(
        expected_gain=game.expected_gain(),
        first_decisions={deal: game.first_decision_values(*deal) for deal in deals} if policy == BEST else {},
        deal_chances={deal: game.deal_chance(*deal) for deal in deals},
    )


# A shoe is one int holding the count of each card value in 8 bits, the ace lowest: 8 decks hold 128
# ten-value cards, which fits. Hashing and drawing from an int is much faster than from a tuple.
_BITS = 8
_MASK = (1 << _BITS) - 1
_ONE_CARD = {value: 1 << (_BITS * (value - 1)) for value in VALUES}
# The dealer's outcomes by index: a final 17, 18, 19, 20, 21 (0-4), a bust, a blackjack.
_BUST, _BLACKJACK = 5, 6
_DRAWN_OUTCOMES = 6  # what a dealer who draws can end with: 17..21 or a bust


def _count(shoe: int, value: int) -> int:
    return (shoe >> (_BITS * (value - 1))) & _MASK


class MainGame:
    """Expected values of the main bet under `rules`, every decision taken by `policy`: BEST, the option
    with the highest expectation, or AUTO_PLAY, the table's automatic play.

    Values are per unit of the original stake. A shoe here is the composition left to draw from; the
    memos are keyed by it, so every hand and dealer position is worked out once.
    """

    def __init__(self, rules: RuleSet, policy: str = BEST):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r} (known: {', '.join(POLICIES)})")
        self.rules = rules
        self.best = policy == BEST
        self.full_shoe = sum((16 if value == TEN else 4) * rules.decks * _ONE_CARD[value] for value in VALUES)
        self.shoe_size = 52 * rules.decks
        self._drawing: dict[int, tuple[float, ...]] = {}
        self._outcomes: dict[int, tuple[float, ...]] = {}
        self._hands: dict[tuple, float] = {}
        self._decisions: dict[tuple, str] = {}
        # Where a dealer hand stops, by `(hard << 1) | has_ace`, hard counting aces as 1: the index of
        # its outcome (17..21, a bust), or None while it draws. Worked out once: it is in the hottest loop.
        self._stops = tuple(self._stop(hard, has_ace) for hard in range(32) for has_ace in (False, True))

    # --- the whole game ------------------------------------------------------------------------

    def expected_gain(self) -> float:
        """Over every first three cards: the dealer's first card and the player's two."""
        return sum(
            self.deal_chance(up, first, second) * self.deal_value(up, first, second)
            for up in VALUES
            for first in VALUES
            for second in range(first, TEN + 1)
        )

    def deal_chance(self, up: int, first: int, second: int) -> float:
        """The chance that the dealer's first card and the player's two cards (either order) have
        these values."""
        shoe, size, chance = self.full_shoe, self.shoe_size, 1.0
        for value in (up, first, second):
            chance *= _count(shoe, value) / size
            shoe -= _ONE_CARD[value]
            size -= 1
        return chance if first == second else 2 * chance

    def deal_value(self, up: int, first: int, second: int) -> float:
        """The expected gain of a deal, before the dealer checks for blackjack."""
        shoe = self.full_shoe - _ONE_CARD[up] - _ONE_CARD[first] - _ONE_CARD[second]
        cards_left = self.shoe_size - 3
        natural = self._dealer_natural_chance(shoe, cards_left, up)
        if {first, second} == {ACE, TEN}:
            return float(self.rules.blackjack_pays) * (1 - natural)  # a dealer blackjack pushes
        # At a hole-card table a dealer blackjack ends the round: the original stake is lost.
        peeked = -natural if self.rules.hole_card else 0.0
        cards = (first, second)
        if not options.may_split(self.rules, self._codes(cards)):
            return peeked + self._first_decision(shoe, cards_left, up, cards, can_split=False)
        if first == TEN and not options.is_pair(self.rules, ["TS", "KS"]):  # ten-value pairs by rank
            same_rank = self._same_ten_rank_chance()
            return (
                peeked
                + same_rank * self._first_decision(shoe, cards_left, up, cards, can_split=True)
                + (1 - same_rank) * self._first_decision(shoe, cards_left, up, cards, can_split=False)
            )
        return peeked + self._first_decision(shoe, cards_left, up, cards, can_split=True)

    def first_decision_values(self, up: int, first: int, second: int) -> dict[str, float]:
        """The expected gain of each first decision the rules allow on this deal (any two ten-value cards
        count as a pair here), the hand then played by the policy; at a hole-card table, given that the
        dealer has no blackjack."""
        shoe = self.full_shoe - _ONE_CARD[up] - _ONE_CARD[first] - _ONE_CARD[second]
        cards_left = self.shoe_size - 3
        cards = tuple(sorted((first, second)))
        values = self._first_options(shoe, cards_left, up, cards, can_split=first == second)
        if self.rules.hole_card:
            no_blackjack = 1 - self._dealer_natural_chance(shoe, cards_left, up)
            values = {action: value / no_blackjack for action, value in values.items()}
        return values

    # --- the player's hands --------------------------------------------------------------------
    # At a hole-card table these values leave out the deals where the dealer has a blackjack
    # (counted once, in `deal_value`): they are sums over the hole cards that make no blackjack.

    def _first_decision(
        self, shoe: int, cards_left: int, up: int, cards: tuple[int, int], *, can_split
    ) -> float:
        cards = tuple(sorted(cards))
        if self.best:
            return max(self._first_options(shoe, cards_left, up, cards, can_split=can_split).values())
        action = self._automatic(cards, up, can_split=can_split, can_surrender=self._surrender_allowed(up))
        if action == SPLIT:
            return 2 * self._split_hand(shoe, cards_left, up, cards[0])
        if action == SURRENDER:
            return -0.5 * self._settled_chance(shoe, cards_left, up)
        return self._act(action, shoe, cards_left, up, cards, after_split=False)

    def _first_options(
        self, shoe: int, cards_left: int, up: int, cards: tuple[int, int], *, can_split
    ) -> dict[str, float]:
        """Each first decision the rules allow, with its value (the hand then played by the policy)."""
        values = {
            STAND: self._stand(shoe, cards_left, up, total_of(cards)[0]),
            HIT: self._draw_and_play(shoe, cards_left, up, cards, after_split=False),
        }
        if options.may_double(self.rules, self._codes(cards)):
            values[DOUBLE] = self._double(shoe, cards_left, up, cards)
        if can_split:
            values[SPLIT] = 2 * self._split_hand(shoe, cards_left, up, cards[0])
        if self._surrender_allowed(up):
            values[SURRENDER] = -0.5 * self._settled_chance(shoe, cards_left, up)
        return values

    def _split_hand(self, shoe: int, cards_left: int, up: int, card: int) -> float:
        """One hand of a split pair of `card`; `shoe` lacks both pair cards. Exact: see the module notes."""
        value = 0.0
        split_ace = options.split_hand_takes_one_card(CARD_OF_VALUE[card])
        for drawn in VALUES:
            count = _count(shoe, drawn)
            if not count:
                continue
            cards = tuple(sorted((card, drawn)))
            after = shoe - _ONE_CARD[drawn]
            if split_ace:
                hand_value = self._stand(after, cards_left - 1, up, total_of(cards)[0])
            else:
                hand_value = self._play(after, cards_left - 1, up, cards, after_split=True)
            value += count / cards_left * hand_value
        return value

    def _play(
        self, shoe: int, cards_left: int, up: int, cards: tuple[int, ...], *, after_split: bool
    ) -> float:
        """A hand about to take a decision (or to stop by rule), played by the policy from here on."""
        key = (shoe, up, cards, after_split)
        value = self._hands.get(key)
        if value is None:
            total, _ = total_of(cards)
            max_cards = self.rules.max_cards
            if total > 21:
                value = -self._settled_chance(shoe, cards_left, up)
            elif total == 21 or (max_cards is not None and len(cards) >= max_cards):
                value = self._stand(shoe, cards_left, up, total)
            elif self.best:
                value = max(
                    self._stand(shoe, cards_left, up, total),
                    self._draw_and_play(shoe, cards_left, up, cards, after_split=after_split),
                )
                if self._may_double(cards, after_split):
                    value = max(value, self._double(shoe, cards_left, up, cards))
            else:
                action = self._automatic(
                    cards, up, can_split=False, can_surrender=False, after_split=after_split
                )
                value = self._act(action, shoe, cards_left, up, cards, after_split=after_split)
            self._hands[key] = value
        return value

    def _act(self, action: str, shoe: int, cards_left: int, up: int, cards, *, after_split: bool) -> float:
        if action == STAND:
            return self._stand(shoe, cards_left, up, total_of(cards)[0])
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
            total, _ = total_of((*cards, drawn))
            if total > 21:
                hand_value = -self._settled_chance(after, cards_left - 1, up)
            else:
                hand_value = self._stand(after, cards_left - 1, up, total)
            value += count / cards_left * hand_value
        return 2 * value

    def _stand(self, shoe: int, cards_left: int, up: int, total: int) -> float:
        outcomes = self.dealer_outcomes(shoe, cards_left, up)
        value = outcomes[_BUST] - outcomes[_BLACKJACK]
        for index in range(5):
            dealer_total = 17 + index
            if total > dealer_total:
                value += outcomes[index]
            elif total < dealer_total:
                value -= outcomes[index]
        return value

    def _may_double(self, cards: tuple[int, ...], after_split: bool) -> bool:
        return len(cards) == 2 and options.may_double(self.rules, self._codes(cards), after_split=after_split)

    def _automatic(
        self, cards: tuple[int, ...], up: int, *, can_split, can_surrender, after_split=False
    ) -> str:
        """The table's automatic decision, given what the table allows at this point."""
        key = (cards, up, can_split, can_surrender, after_split)
        action = self._decisions.get(key)
        if action is None:
            action = automatic_decision(
                self.rules,
                self._codes(cards),
                CARD_OF_VALUE[up],
                can_double=self._may_double(cards, after_split),
                can_split=can_split,
                can_surrender=can_surrender,
            )
            self._decisions[key] = action
        return action

    @staticmethod
    def _codes(cards: tuple[int, ...]) -> list[str]:
        return [CARD_OF_VALUE[value] for value in cards]

    def _surrender_allowed(self, up: int) -> bool:
        return options.may_surrender(self.rules, CARD_OF_VALUE[up])

    def _same_ten_rank_chance(self) -> float:
        """Two ten-value cards of the same rank (T, J, Q, K), given their values. Whatever ten-value
        card the dealer shows, it takes from each rank alike, so it does not change this."""
        per_rank = 4 * self.rules.decks
        return (per_rank - 1) / (_TEN_VALUE_RANKS * per_rank - 1)

    # --- the dealer -------------------------------------------------------------------------

    def _dealer_natural_chance(self, shoe: int, cards_left: int, up: int) -> float:
        if up == ACE:
            return _count(shoe, TEN) / cards_left
        if up == TEN:
            return _count(shoe, ACE) / cards_left
        return 0.0

    def _settled_chance(self, shoe: int, cards_left: int, up: int) -> float:
        """The weight of a result that does not depend on the dealer (a bust, a surrender): at a
        hole-card table only the hole cards that make no blackjack count here."""
        if self.rules.hole_card:
            return 1 - self._dealer_natural_chance(shoe, cards_left, up)
        return 1.0

    def dealer_outcomes(self, shoe: int, cards_left: int, up: int) -> tuple[float, ...]:
        """Chances of the dealer's final 17, 18, 19, 20, 21, bust and blackjack, the second card drawn
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
                drawn = self._dealer_draws(shoe - _ONE_CARD[second], cards_left - 1, hard, has_ace)
                for index in range(_DRAWN_OUTCOMES):
                    sums[index] += chance * drawn[index]
            outcomes = self._outcomes[key] = tuple(sums)
        return outcomes

    def _dealer_draws(self, shoe: int, cards_left: int, hard: int, has_ace: bool) -> tuple[float, ...]:
        """Chances of 17..21 and bust for a dealer hand of `hard` (aces as 1) that must draw."""
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
                further = self._dealer_draws(shoe - _ONE_CARD[drawn], cards_left - 1, new_hard, ace)
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
