"""Replay speed: player hands per second on simulated 5,000-player Boundless rounds, one core.

Goal (issue 2): at least 30,000 hands/s. Each round is parsed from its JSON text's dict form and
fully replayed (every decision, the facilitator, every bet settled and compared).
"""

import json
import time
from datetime import UTC, datetime
from itertools import islice

from blackjack.replay import replay
from blackjack.rules import preset
from blackjack.simulate import simulate

from .support import sized

PLAYERS = sized(5_000, 500)
ROUNDS = sized(10, 2)
REPEATS = sized(3, 1)
GOAL_HANDS_PER_SECOND = 30_000


def boundless_rounds() -> list[dict]:
    documents = simulate(
        preset("boundless"),
        table="BND1",
        shoes=1,
        players=PLAYERS,
        seed=2026,
        start=datetime(2026, 11, 28, 8, tzinfo=UTC),
    )
    # Through JSON, as a game server's document arrives.
    return [json.loads(json.dumps(document)) for document in islice(documents, ROUNDS)]


def main():
    rules = preset("boundless")
    documents = boundless_rounds()
    hands = sum(len(spot["hands"]) for document in documents for spot in document["spots"])
    bets = sum(len(document["bets"]) for document in documents)
    best = float("inf")
    findings = 0
    for _ in range(REPEATS):
        started = time.perf_counter()
        findings = sum(len(replay(document, rules).findings) for document in documents)
        best = min(best, time.perf_counter() - started)
    rate = hands / best
    print(f"   replay: {ROUNDS} Boundless rounds of {PLAYERS:,} players, {hands:,} hands, {bets:,} bets")
    per_round = best / ROUNDS * 1000
    print(
        f"   best of {REPEATS}: {best:.3f} s = {rate:,.0f} hands/s on one core ({per_round:.0f} ms a round)"
    )
    verdict = "met" if rate >= GOAL_HANDS_PER_SECOND else "NOT met"
    print(f"   goal >= {GOAL_HANDS_PER_SECOND:,} hands/s: {verdict}")
    print(f"   findings: {findings} (simulated rounds replay clean)")
