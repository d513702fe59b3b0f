"""The strategy chart that best play implies, and where a table's automatic play departs from it.

A chart cell is a two-card hand class against the dealer's first card: a hard total (no pair), a
soft total (an ace and another card) or a pair. Its decision is the one with the highest expectation over
the deals of that class, each weighted by its chance: the best total-dependent first decision. Best play
itself looks at the cards, so a cell is marked where some deal of the class plays better otherwise (a hard
12 of 10-2 against 7-5, say). Where the table's automatic play follows a strategy table
(`rules.auto_play == "strategy"`), each cell also carries that table's decision.
"""

from dataclasses import dataclass

from .. import options
from ..options import is_pair
from ..rules import RuleSet
from ..strategy import automatic_decision
from .common import ACE, CARD_OF_VALUE, TEN, VALUES, total_of
from .main_game import MainGameFigures

COLUMNS = (2, 3, 4, 5, 6, 7, 8, 9, TEN, ACE)
ACTION_CODES = {"hit": "H", "stand": "S", "double": "D", "split": "P", "surrender": "R"}


@dataclass(frozen=True)
class ChartCell:
    best: str
    card_dependent: bool  # some deal of the class plays better otherwise
    automatic: str | None = None  # the table's automatic decision, where it plays a strategy table


@dataclass(frozen=True)
class StrategyChart:
    rows: tuple[tuple[str, tuple[ChartCell, ...]], ...]  # ("hard 12", a cell per column)

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(column_label(up) for up in COLUMNS)

    def differences(self) -> list[tuple[str, str, str, str]]:
        """(hand, column, best, automatic) wherever the table's automatic play decides otherwise."""
        return [
            (hand, column, cell.best, cell.automatic)
            for hand, cells in self.rows
            for column, cell in zip(self.columns, cells, strict=True)
            if cell.automatic is not None and cell.automatic != cell.best
        ]

    def to_dict(self) -> dict:
        has_automatic = any(cell.automatic for _, cells in self.rows for cell in cells)
        return {
            "columns": list(self.columns),
            "rows": [
                {
                    "hand": hand,
                    "best": [cell.best for cell in cells],
                    "card_dependent": [cell.card_dependent for cell in cells],
                    **({"automatic": [cell.automatic for cell in cells]} if has_automatic else {}),
                }
                for hand, cells in self.rows
            ],
            "differences": [
                {"hand": hand, "column": column, "best": best, "automatic": automatic}
                for hand, column, best, automatic in self.differences()
            ],
        }


def column_label(up: int) -> str:
    return "A" if up == ACE else str(up)


def hand_class(rules: RuleSet, first: int, second: int) -> str:
    """The chart row of a two-card deal (values, any order)."""
    if is_pair(rules, [CARD_OF_VALUE[first], CARD_OF_VALUE[second]]):
        return f"pair {column_label(first)}"
    total, soft = total_of((first, second))
    return f"{'soft' if soft else 'hard'} {total}"


def strategy_chart(rules: RuleSet, figures: MainGameFigures) -> StrategyChart:
    """The chart of best play from a main game worked out under best play (`figures.first_decisions`)."""
    classes: dict[str, list[tuple[int, int]]] = {}
    for first in VALUES:
        for second in range(first, TEN + 1):
            if {first, second} != {ACE, TEN}:  # a blackjack takes no decision
                classes.setdefault(hand_class(rules, first, second), []).append((first, second))
    rows = []
    for hand in sorted(classes, key=_row_order):
        cells = tuple(_cell(rules, figures, classes[hand], up, hand) for up in COLUMNS)
        rows.append((hand, cells))
    return StrategyChart(tuple(rows))


def _cell(rules, figures: MainGameFigures, deals, up: int, hand: str) -> ChartCell:
    weighted: dict[str, float] = {}
    best_of_deal = set()
    for first, second in deals:
        values = figures.first_decisions[(up, first, second)]
        if not hand.startswith("pair"):
            values = {action: value for action, value in values.items() if action != "split"}
        chance = figures.deal_chances[(up, first, second)]
        for action, value in values.items():
            weighted[action] = weighted.get(action, 0.0) + chance * value
        best_of_deal.add(max(values, key=values.get))
    best = max(weighted, key=weighted.get)
    return ChartCell(
        best=ACTION_CODES[best],
        card_dependent=best_of_deal != {best},
        automatic=_automatic(rules, deals, up, hand) if rules.auto_play == "strategy" else None,
    )


def _automatic(rules: RuleSet, deals, up: int, hand: str) -> str:
    first, second = deals[0]
    codes = [CARD_OF_VALUE[first], CARD_OF_VALUE[second]]
    action = automatic_decision(
        rules,
        codes,
        CARD_OF_VALUE[up],
        can_double=options.may_double(rules, codes),
        can_split=hand.startswith("pair"),
        can_surrender=options.may_surrender(rules, CARD_OF_VALUE[up]),
    )
    return ACTION_CODES[action]


def _row_order(hand: str) -> tuple[int, int]:
    kind, total = hand.split()
    order = {"hard": 0, "soft": 1, "pair": 2}[kind]
    if kind == "pair":
        return order, 11 if total == "A" else int(total)
    return order, int(total)
