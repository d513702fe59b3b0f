"""A simulated player: plays one spot's hands by basic strategy, with the slips real players make.

A missed decision hands the spot to the system (`rules.auto_play`); a requested double or split may be
refused for a low balance (`rules.low_balance_double` / `low_balance_split`). Every random number comes
from the `random.Random` given, in a fixed order, so that a seed fixes the play.
"""

import random
from collections.abc import Callable

from . import options
from .hand import hand_total, is_natural
from .rules import RuleSet
from .strategy import automatic_decision, basic_strategy, low_balance_decision

MISS_RATE = 0.02  # a decision not answered in time: the system finishes the spot
REFUSE_RATE = 0.05  # a requested double or split refused for a low balance


class SimulatedHand:
    __slots__ = ("cards", "actions", "doubled", "surrendered")

    def __init__(self, cards: list[str]):
        self.cards = cards
        self.actions: list = []
        self.doubled = False
        self.surrendered = False

    def copy(self) -> "SimulatedHand":
        hand = SimulatedHand(list(self.cards))
        hand.actions = list(self.actions)
        hand.doubled = self.doubled
        hand.surrendered = self.surrendered
        return hand

    def to_dict(self) -> dict:
        return {"cards": self.cards, "actions": self.actions}


class SimulatedPlayer:
    """Plays one spot's hands: basic strategy with the occasional missed decision or refusal."""

    def __init__(self, rules: RuleSet, rng: random.Random):
        self.rules = rules
        self.rng = rng
        self._decisions: dict = {}
        self.hands: list[SimulatedHand] = []
        self.auto = False
        self.up = ""
        self.draw: Callable[[], str] = _no_card
        self.miss_rate = MISS_RATE
        self.refuse_rate = REFUSE_RATE

    def decide(self, cards: list[str], can_double: bool, can_split: bool, can_surrender: bool) -> str:
        key = (tuple(cards), self.up, can_double, can_split, can_surrender)
        action = self._decisions.get(key)
        if action is None:
            action = basic_strategy(
                self.rules,
                cards,
                self.up,
                can_double=can_double,
                can_split=can_split,
                can_surrender=can_surrender,
            )
            self._decisions[key] = action
        return action

    def play(
        self,
        initial: list[str],
        up: str,
        draw: Callable[[], str],
        *,
        miss_rate: float = MISS_RATE,
        refuse_rate: float = REFUSE_RATE,
    ) -> list[SimulatedHand]:
        """The spot's hands once played; a rate of 0 plays by the book without drawing a random number."""
        self.miss_rate = miss_rate
        self.refuse_rate = refuse_rate
        self.up = up
        self.draw = draw
        self.auto = False
        hand = SimulatedHand(initial)
        self.hands = [hand]
        if not is_natural(initial):
            self._play_hand(hand, after_split=False)
        return self.hands

    def _auto_action(self, cards: list[str], can_double: bool, can_split: bool, can_surrender: bool) -> str:
        return "auto_" + automatic_decision(
            self.rules,
            cards,
            self.up,
            can_double=can_double,
            can_split=can_split,
            can_surrender=can_surrender,
        )

    def _refuses(self) -> bool:
        return bool(self.refuse_rate) and self.rng.random() < self.refuse_rate

    def _refusal(self, action: str, total: int) -> dict | None:
        """The automatic decision taken instead of a requested double or split refused for a low
        balance, or None when the request goes through."""
        policy = {"double": self.rules.low_balance_double, "split": self.rules.low_balance_split}.get(action)
        if policy is None or not self._refuses():
            return None
        return {"action": "auto_" + low_balance_decision(policy, total), "requested": action}

    def _play_hand(self, hand: SimulatedHand, *, after_split: bool) -> None:
        rules = self.rules
        rng = self.rng
        cards = hand.cards
        actions = hand.actions
        while True:
            total = hand_total(cards)[0]
            if total >= 21 or (rules.max_cards is not None and len(cards) >= rules.max_cards):
                return  # stops by rule
            # Every decision but the first adds a card (or ends the hand): two cards, a first decision.
            first = len(cards) == 2
            can_split = options.may_split(rules, cards, first_decision=first, after_split=after_split)
            can_double = options.may_double(rules, cards, first_decision=first, after_split=after_split)
            can_surrender = options.may_surrender(
                rules, self.up, first_decision=first, after_split=after_split
            )
            if not self.auto and self.miss_rate and rng.random() < self.miss_rate:
                self.auto = True
            if self.auto:
                action = self._auto_action(cards, can_double, can_split, can_surrender)
            else:
                action = self.decide(cards, can_double, can_split, can_surrender)

            refusal = self._refusal(action, total)
            if refusal is not None:
                actions.append(refusal)
                if refusal["action"] == "auto_stand":
                    return
                cards.append(self.draw())
                continue
            if action == "hit" or action == "auto_hit":
                actions.append(action)
                cards.append(self.draw())
            elif action == "stand" or action == "auto_stand":
                actions.append(action)
                return
            elif action == "surrender" or action == "auto_surrender":
                actions.append(action)
                hand.surrendered = True
                return
            elif action == "double" or action == "auto_double":
                actions.append(action)
                hand.doubled = True
                cards.append(self.draw())
                return
            else:  # split or auto_split
                actions.append(action)
                second = SimulatedHand([cards.pop()])
                self.hands.append(second)
                aces = options.split_hand_takes_one_card(cards[0])
                # The first hand is played to its end before the second takes its second card.
                cards.append(self.draw())
                if not aces:
                    self._play_hand(hand, after_split=True)
                second.cards.append(self.draw())
                if not aces:
                    self._play_hand(second, after_split=True)
                return


def _no_card() -> str:
    raise RuntimeError("no card source")


def shared_source(draws: list[str], shoe_draw: Callable[[], str]) -> Callable[[], str]:
    """The j-th card a player's hands take is the j-th card of the common sequence, drawn when needed."""
    taken = 0

    def draw() -> str:
        nonlocal taken
        if taken == len(draws):
            draws.append(shoe_draw())
        card = draws[taken]
        taken += 1
        return card

    return draw
