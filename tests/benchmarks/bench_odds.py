"""Theoretical odds: seconds for each side option and for the main game of each preset, on one core.

Goals: each side option under 1 s, the main game under 1 minute: at best play (composition-dependent,
the maximum RTP) and under the table's automatic play, each timed on its own. Every cache is cleared
before each timing, so each figure is worked out from nothing.
"""

import time

from blackjack.odds import AUTO_PLAY, BEST, clear_caches, main_game_rtp, side_option_odds
from blackjack.rules import GAMES, preset

from .support import sized

GOAL_SIDE_OPTION_SECONDS = 1.0
GOAL_MAIN_GAME_SECONDS = 60.0
# The main game of every game at both policies, or (smoke) of the first game under automatic play: at
# best play one takes 10-30 s from nothing (at smoke scale bench_reports and bench_sheets work it out
# for their tables, through tables.odds).
MAIN_GAMES = sized(GAMES, GAMES[:1])
POLICIES = sized((BEST, AUTO_PLAY), (AUTO_PLAY,))


def timed(compute, *args):
    clear_caches()
    started = time.perf_counter()
    result = compute(*args)
    return result, time.perf_counter() - started


def verdict(seconds: float, goal: float) -> str:
    return "met" if seconds < goal else "NOT met"


def main():
    slowest_option = slowest_main_game = 0.0
    for game in GAMES:
        rules = preset(game)
        for option in rules.side_options:
            odds, seconds = timed(side_option_odds, rules, option.kind)
            slowest_option = max(slowest_option, seconds)
            print(f"   {game} {option.kind}: RTP {odds.rtp}% in {seconds:.2f} s")
        for policy in POLICIES if game in MAIN_GAMES else ():
            rtp, seconds = timed(main_game_rtp, rules, policy)
            slowest_main_game = max(slowest_main_game, seconds)
            print(f"   {game} main game, {policy.replace('_', ' ')}: RTP {rtp}% in {seconds:.1f} s")
    print(
        f"   goal: each side option < {GOAL_SIDE_OPTION_SECONDS:.0f} s: "
        f"{verdict(slowest_option, GOAL_SIDE_OPTION_SECONDS)} (slowest {slowest_option:.2f} s)"
    )
    print(
        f"   goal: main game < {GOAL_MAIN_GAME_SECONDS:.0f} s: "
        f"{verdict(slowest_main_game, GOAL_MAIN_GAME_SECONDS)} (slowest {slowest_main_game:.1f} s)"
    )


if __name__ == "__main__":
    main()
