"""How big a soak is: `default` (make soak, minutes) or `tiny` (its test, tens of seconds: the same
code paths, figures not to be compared)."""

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Sizes:
    tables_per_game: int  # the four games: 4 × this many tables
    boundless_players: int
    pool_rounds: int  # rounds simulated per table, posted again and again under new ids
    capacity_seconds: float  # every table posting as fast as it can
    baseline_seconds: float  # one table at a time, one post at a time: the latency without load
    wrk_seconds: int  # each page alone, without load
    soak_seconds: float
    drain_seconds: float  # the longest the work may take to finish after the soak


SCALES = {
    "default": Sizes(
        tables_per_game=6,
        boundless_players=5_000,
        pool_rounds=8,
        capacity_seconds=30,
        baseline_seconds=20,
        wrk_seconds=10,
        soak_seconds=240,
        drain_seconds=240,
    ),
    "tiny": Sizes(
        tables_per_game=1,
        boundless_players=200,
        pool_rounds=6,
        capacity_seconds=5,
        baseline_seconds=3,
        wrk_seconds=3,
        soak_seconds=16,
        drain_seconds=90,
    ),
}


def sizes_of(scale: str, soak_seconds: float | None = None) -> Sizes:
    sizes = SCALES[scale]
    return sizes if soak_seconds is None else replace(sizes, soak_seconds=soak_seconds)
