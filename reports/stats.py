"""The numbers of the daily reports, in plain Python on a few aggregates the database returns.

- `money`, `rtp`: amounts to the cent, RTPs to 4 places (SQLite sums decimals as floats).
- `ratio_interval`: the confidence interval of an observed RTP from the spread of per-round results.
  Rounds, not bets, are the unit: the hands of one round share the facilitator's cards.
- `binomial_p_value`: how unlikely a count of side-option pattern hits is under the exact odds.
"""

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
RTP_PLACES = Decimal("0.0001")
Z95 = Decimal("1.959964")
Z99 = Decimal("2.575829")

ZERO = Decimal(0)
# Beyond this standard deviation of the count, the exact tail sums would run to many thousands of
# terms: the normal approximation is used instead (it is then excellent).
EXACT_UP_TO_SD = 20_000
# Outcomes within this relative difference of the observed one count as equally likely (as R's
# binom.test does), so that rounding in the logarithms cannot drop the observed outcome's twin.
RELATIVE_TOLERANCE = 1e-7


def money(value) -> Decimal:
    """An amount from the database, to the cent."""
    return Decimal(str(value or 0)).quantize(CENT, ROUND_HALF_UP)


def rtp(value: Decimal) -> Decimal:
    """A percentage to 4 places."""
    return value.quantize(RTP_PLACES, ROUND_HALF_UP)


def exact(value) -> Decimal:
    """A sum from the database as a Decimal, unrounded."""
    return value if isinstance(value, Decimal) else Decimal(str(value or 0))


MOMENT_SUMS = ("wagered", "returned", "wagered_squared", "returned_squared", "wagered_returned")


@dataclass(frozen=True)
class RoundMoments:
    """Sums over rounds r of one bet kind: n, ΣW, ΣR, ΣW², ΣR², ΣWR, with W_r and R_r what the kind
    wagered and returned in round r. They add up over disjoint sets of rounds (configuration
    versions, tables)."""

    rounds: int = 0
    wagered: Decimal = ZERO
    returned: Decimal = ZERO
    wagered_squared: Decimal = ZERO
    returned_squared: Decimal = ZERO
    wagered_returned: Decimal = ZERO

    def as_json(self) -> dict:
        return {name: str(getattr(self, name)) for name in MOMENT_SUMS} | {"rounds": self.rounds}

    @classmethod
    def from_json(cls, stored: dict) -> "RoundMoments":
        return cls(stored["rounds"], *(Decimal(stored[name]) for name in MOMENT_SUMS))

    def __add__(self, other: "RoundMoments") -> "RoundMoments":
        return RoundMoments(
            self.rounds + other.rounds,
            self.wagered + other.wagered,
            self.returned + other.returned,
            self.wagered_squared + other.wagered_squared,
            self.returned_squared + other.returned_squared,
            self.wagered_returned + other.wagered_returned,
        )


def ratio_interval(moments: RoundMoments, z: Decimal) -> tuple[Decimal, Decimal] | None:
    """The interval q ± z·se of the ratio estimator q = ΣR/ΣW, in percent; None below two rounds.

    s² = (ΣR² − 2qΣRW + q²ΣW²)/(n−1) is the spread of the rounds' residuals R_r − qW_r, and
    se = sqrt(s²/n)/(ΣW/n) the standard error of q (the delta method).
    """
    n = moments.rounds
    if n < 2 or moments.wagered <= 0:
        return None
    q = moments.returned / moments.wagered
    spread = (
        moments.returned_squared - 2 * q * moments.wagered_returned + q * q * moments.wagered_squared
    ) / (n - 1)
    spread = max(spread, ZERO)  # a perfect fit can come out a hair below zero
    standard_error = (spread / n).sqrt() / (moments.wagered / n)
    return (q - z * standard_error) * 100, (q + z * standard_error) * 100


def binomial_p_value(hits: int, trials: int, probability: float) -> float:
    """Two-sided p-value of `hits` successes in `trials` independent trials of chance `probability`.

    Exact: the total chance of every outcome no more likely than the one observed (the method of
    R's binom.test). Where the count's standard deviation is above EXACT_UP_TO_SD, the normal
    approximation with continuity correction.
    """
    if not 0 <= hits <= trials:
        raise ValueError(f"{hits} hits in {trials} trials")
    if probability <= 0 or probability >= 1:
        certain = 0 if probability <= 0 else trials
        return 1.0 if hits == certain else 0.0
    mean = trials * probability
    sd = math.sqrt(mean * (1 - probability))
    if sd > EXACT_UP_TO_SD:
        return _normal_p_value(hits, mean, sd)
    return _BinomialTail(trials, probability).p_value(hits)


def _normal_p_value(hits: int, mean: float, sd: float) -> float:
    distance = max(abs(hits - mean) - 0.5, 0.0) / sd
    return min(1.0, math.erfc(distance / math.sqrt(2)))


class _BinomialTail:
    """The binomial distribution's probabilities in logarithms (no underflow far in the tails)."""

    def __init__(self, trials: int, probability: float):
        self.n = trials
        self.log_p = math.log(probability)
        self.log_q = math.log1p(-probability)
        self.log_n_factorial = math.lgamma(trials + 1)
        self.mode = min(trials, math.floor((trials + 1) * probability))

    def log_pmf(self, k: int) -> float:
        return (
            self.log_n_factorial
            - math.lgamma(k + 1)
            - math.lgamma(self.n - k + 1)
            + k * self.log_p
            + (self.n - k) * self.log_q
        )

    def p_value(self, hits: int) -> float:
        limit = self.log_pmf(hits) + math.log1p(RELATIVE_TOLERANCE)
        if self.log_pmf(self.mode) <= limit:
            return 1.0  # the observed count is the most likely one
        # The probabilities rise up to the mode and fall after it: on each side, the outcomes no
        # more likely than the observed one form a tail, found by bisection.
        low_end = self._last_at_most(limit, 0, self.mode - 1, rising=True)
        high_start = self._last_at_most(limit, self.mode + 1, self.n, rising=False)
        total = 0.0
        if low_end is not None:
            total += self._tail_sum(low_end, step=-1)
        if high_start is not None:
            total += self._tail_sum(high_start, step=1)
        return min(1.0, total)

    def _last_at_most(self, limit: float, low: int, high: int, *, rising: bool) -> int | None:
        """Rising side [low, high]: the largest k with log_pmf(k) <= limit. Falling side: the smallest."""
        if low > high:
            return None
        inside = high if rising else low  # the end nearest the mode
        outside = low if rising else high
        if self.log_pmf(outside) > limit:
            return None
        if self.log_pmf(inside) <= limit:
            return inside
        while abs(inside - outside) > 1:
            middle = (inside + outside) // 2
            if self.log_pmf(middle) <= limit:
                outside = middle
            else:
                inside = middle
        return outside

    def _tail_sum(self, start: int, step: int) -> float:
        """Σ pmf(k) from `start` away from the mode, until the terms no longer count."""
        first = self.log_pmf(start)
        total = 0.0
        k = start
        while 0 <= k <= self.n:
            term = math.exp(self.log_pmf(k) - first)
            total += term
            if term < 1e-17 * total:
                break
            k += step
        return total * math.exp(first)
