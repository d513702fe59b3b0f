"""bench_history's page measurements: each page measured several times, the pages taken in turn, and
the median kept.

One 10-second wrk run of a page on these 2-core machines gives a p99 that moves by ±20% from one run
of the same code to the next, as much as the goals allow (whole history ≤ 1.2× one month). Measured
in turn, each page sees the machine's drift during the measurement, not one moment of it; the
baseline page is measured before the first turn and after each.
"""

import statistics
from dataclasses import dataclass

from .support import sized

SAMPLES = sized(3, 1)


@dataclass
class PageFigures:
    rate: float  # requests a second, the median of the samples
    p99: float  # ms, the median of the samples
    samples: list[float]  # each sample's p99, in the order measured

    def __str__(self) -> str:
        each = ", ".join(f"{p99:.1f}" for p99 in self.samples)
        return f"{self.rate:,.0f} req/s, p99 {self.p99:.1f} ms (median of {each})"


def pages_served_in_turn(
    database: str, paths: dict[str, str], session: str
) -> tuple[dict[str, PageFigures], PageFigures]:
    """`pages_in_turn` from gunicorn -w 2 serving `database` with the pages settings, signed in with
    `session` (a session key)."""
    from .bench_pages import _cookie_name
    from .support import gunicorn

    headers = ["-H", f"Cookie: {_cookie_name()}={session}"]
    with gunicorn(database, workers=2, settings_module="tests.benchmarks.pages_settings") as base:
        return pages_in_turn(base, paths, headers)


def pages_in_turn(
    base: str, paths: dict[str, str], headers: list[str]
) -> tuple[dict[str, PageFigures], PageFigures]:
    """Each of `paths` ({title: path}) measured SAMPLES times in turn under wrk at `base`, the
    baseline page before the first turn and after each: ({title: figures}, the baseline's)."""
    from .bench_pages import _wrk
    from .pages_urls import BASELINE

    runs = {title: [] for title in paths}
    baseline = [_wrk(f"{base}/{BASELINE}", headers)]
    for _ in range(SAMPLES):
        for title, path in paths.items():
            runs[title].append(_wrk(base + path, headers))
        baseline.append(_wrk(f"{base}/{BASELINE}", headers))
    return {title: _figures(samples) for title, samples in runs.items()}, _figures(baseline)


def _figures(samples: list[tuple[float, float]]) -> PageFigures:
    return PageFigures(
        rate=statistics.median(rate for rate, _ in samples),
        p99=statistics.median(p99 for _, p99 in samples),
        samples=[p99 for _, p99 in samples],
    )
