"""Theoretical return to player (RTP) of a rule set: exact for side options and insurance
(`side_options.py`), combinatorial for the main game (`main_game.py`), with the strategy chart best play
implies (`chart.py`).

The main game's RTP is its maximum: every decision the option with the highest expectation under the
table's own rules (composition-dependent: the hand's cards and the dealer's first card). Beside it,
the RTP under the table's automatic play, which is what a player who never acts gets.
"""

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..rules import RuleSet
from .chart import StrategyChart, strategy_chart
from .main_game import (
    AUTO_PLAY,
    BEST,
    MainGame,
    MainGameFigures,
    main_game_expected_gain,
    main_game_figures,
    main_game_rtp,
)
from .side_options import (
    SideOptionOdds,
    dealer_final_hands,
    insurance_rtp,
    side_option_odds,
    three_card_deals,
)

# What identifies the method behind stored figures: figures of an older method are worked out again.
# 1: the main game by the engine's total-dependent basic strategy. 2: by best play (composition-dependent),
# with the RTP under the table's automatic play and the strategy chart.
METHOD_VERSION = 2

__all__ = [
    "AUTO_PLAY",
    "BEST",
    "METHOD_VERSION",
    "MainGame",
    "MainGameFigures",
    "Odds",
    "SideOptionOdds",
    "StrategyChart",
    "clear_caches",
    "dealer_final_hands",
    "insurance_rtp",
    "main_game_expected_gain",
    "main_game_figures",
    "main_game_rtp",
    "side_option_odds",
    "strategy_chart",
    "theoretical_odds",
    "three_card_deals",
]


@dataclass(frozen=True)
class Odds:
    """The theoretical RTP (percent, 4 places) of every bet kind a rule set offers (the main game's at
    best play), the main game's RTP under the table's automatic play, the side options' pattern
    probabilities, and the strategy chart of best play."""

    game: str
    rtp: dict[str, Decimal]  # bet kind -> RTP %, in the order of `RuleSet.offered_kinds`
    auto_play_rtp: Decimal  # the main game under the table's automatic play
    patterns: dict[str, dict[str, Fraction]]  # side option -> pattern paid -> probability
    strategy: str
    chart: StrategyChart
    method: int = METHOD_VERSION

    def house_edge(self, kind: str) -> Decimal:
        return 100 - self.rtp[kind]

    def to_dict(self) -> dict:
        data: dict = {kind: float(rtp) for kind, rtp in self.rtp.items()}
        data["auto_play"] = float(self.auto_play_rtp)
        data["patterns"] = {
            kind: {pattern: float(probability) for pattern, probability in probabilities.items()}
            for kind, probabilities in self.patterns.items()
        }
        data["strategy"] = self.strategy
        data["chart"] = self.chart.to_dict()
        data["method"] = self.method
        return data


def theoretical_odds(rules: RuleSet) -> Odds:
    """Every offered bet kind's theoretical RTP under `rules`."""
    best = main_game_figures(rules, BEST)
    main = main_game_rtp(rules, BEST)
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
    return Odds(
        game=rules.game,
        rtp=rtp,
        auto_play_rtp=main_game_rtp(rules, AUTO_PLAY),
        patterns=patterns,
        strategy=strategy_description(rules),
        chart=strategy_chart(rules, best),
    )


def clear_caches() -> None:
    """Forget every memoised result (for timing the work from nothing)."""
    from . import main_game, side_options

    for cached in (
        side_options.pattern_classes,
        side_options.dealer_final_hands,
        main_game.main_game_figures_of,
    ):
        cached.cache_clear()


AUTO_PLAY_DESCRIPTIONS = {
    "hit_to_12": "hit while the total is 11 or less, then stand",
    "stand": "stand on the first two cards",
    "strategy": "the table's strategy table",
}


def strategy_description(rules: RuleSet) -> str:
    return (
        "Maximum RTP: best play, composition-dependent (every decision the option with the highest "
        f"expectation given the hand's cards and the {rules.dealer_word}'s first card: hit, stand, double, "
        "split once, surrender, as the table allows); no insurance. Every card seen is removed from the "
        f"{rules.decks}-deck shoe; each split hand is valued exactly from the shoe after the split. "
        f"Automatic play: {AUTO_PLAY_DESCRIPTIONS[rules.auto_play]}."
    )
