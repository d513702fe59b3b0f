"""The RTP drift monitor's CUSUM (interim; the full module with its checks comes with the benchmark)."""

import math
from dataclasses import dataclass


def one_sided_arl(h: float, k: float) -> float:
    b = h + 1.166
    if k == 0:
        return b * b
    return (math.exp(2 * k * b) - 2 * k * b - 1) / (2 * k * k)


def decision_interval(k: float, false_alert_observations: float) -> float:
    low, high = 0.0, 1.0
    while one_sided_arl(high, k) / 2 < false_alert_observations:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if one_sided_arl(middle, k) / 2 < false_alert_observations:
            low = middle
        else:
            high = middle
    return high


@dataclass(frozen=True)
class DriftDesign:
    shift: float
    sigma: float
    k: float
    h: float


def drift_design(shift: float, sigma: float, false_alert_observations: float) -> DriftDesign:
    k = shift / (2 * sigma)
    return DriftDesign(shift, sigma, k, decision_interval(k, false_alert_observations))


def false_alert_observations(days: float, rounds_per_day: float, kinds: int) -> float:
    return days * rounds_per_day * kinds


def cusum_step(high: float, low: float, y: float, k: float) -> tuple[float, float]:
    return max(0.0, high + y - k), max(0.0, low - y - k)
