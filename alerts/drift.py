"""The RTP drift monitor's statistics: a two-sided CUSUM (Page) on each round's standardised residual
against theory, with a decision interval set analytically for a number of false alerts.

What it watches, per table and watched bet kind: each round's residual e = R − W − (μ0 − 1)·S
(`round_residual`), where S, W and R are what the kind staked originally (before doubles and splits),
wagered in all and returned in the round (all its bets pooled), and μ0 is the kind's theoretical RTP (a
fraction), which is stated per original stake. e is the money the round returned beyond what theory
expects of its stakes, and a change of the RTP by δ moves it by δ·S. The CUSUM's observation is that
residual per unit of the round's own stakes, y = e/(S·σ) (`DriftDesign.score`), σ the spread of e/S at
theory, learnt at the table as √(Σ(e/S)²/n) (alerts.monitors.drift_add): y has standard deviation 1, and
a change δ moves its mean by δ/σ whatever the stakes. Two one-sided CUSUMs run on it, high = max(0,
high + y − k) and low = max(0, low − y − k) (`cusum_step`); a side that exceeds the decision interval h
alerts and restarts at 0. The reference value k = shift/(2σ) is half the change of RTP to detect, in σ
units: the CUSUM that detects that change soonest for its false alerts.

h comes from the in-control average run length (ARL), in observations. Siegmund's approximation of a
one-sided CUSUM's ARL on N(0, 1) increments is (exp(2kb) − 2kb − 1)/(2k²) with b = h + 1.166
(`one_sided_arl`); the two sides alert together at the rate 1/ARL = 1/ARL⁺ + 1/ARL⁻. `decision_interval`
solves for the h that gives a two-sided ARL, and `false_alert_observations` says which ARL keeps a table
to one false alert in a number of days: each of its `kinds` watched kinds has its share, so its ARL is
days × rounds a day × kinds. `markov_chain_arl` (Brook and Evans) is the check of Siegmund's figure.

The assumptions, and which way each one errs (BENCHMARKS.md, "RTP drift", measures them on a simulated
Deluxe table, whose watched kinds are the main bet, the pair and insurance):
- y has mean 0 at the theoretical RTP. e/S does, with no centring, when play does not depend on the
  stake: theory is per original stake, whatever the doubles and splits. What may not are the players,
  since μ0 assumes best play. The simulated main bet's e/S is −0.28 ± 0.19 points (standard error; its
  money, Σe/ΣS, −0.09), a quarter of k's point: its false alerts are 1.2 times the design (0.41 in 30
  days at 2,880 rounds a day for 0.33), its low side's 0.35. The pair's +1.5 ± 1.0 and insurance's
  −1.6 ± 1.2 are chance as far as 1.4 standard errors can tell, but they are what the table meets:
  the pair alerts 1.7 times its design, insurance five times (on a small share). Bets behind are not
  watched (alerts.monitors.NOT_WATCHED): a player behind a seat need not follow its doubles and splits,
  one who does not follow a double returns about 2 points a stake below μ0, and the simulated kind
  returns −1.19 ± 0.22 points, more than k: watched, it alone put the table at twice its budget.
- y is normal with standard deviation 1. e/S is far from normal (a main bet's round ends at a few
  multiples of its stakes; a side option's is skewed, with rare large pays). With k small and h large
  the CUSUM alerts only after it has summed thousands of rounds, whose sum is close to normal: at
  theory the main bet's false alerts are as designed (0.337 ± 0.007 in 30 days for 0.333, rounds drawn
  independently), the skewed pair's 4% over (0.217 for 0.209).
- σ is the table's. It is learnt from the kind's first rounds (the CUSUM starts after
  alerts.monitors.learning_rounds: 1,000 for the main bet and insurance, 5,000 for a side option such
  as the pair) and then from all of them. Then one table in twenty has σ 2.4% low or more for the main
  bet (1.2 times the false alerts while it stays so, Siegmund) and 7.5% low for the pair (1.6 times).
- Rounds are independent. The rounds of one shoe are not quite: what one takes out of the shoe the
  others cannot get, a slight negative correlation, which gives fewer false alerts than designed
  (0.302 ± 0.006 for the main bet, whole shoes).
- Siegmund's approximation: slightly above the Markov chain's ARL, so h is slightly low, by under 1% of
  the ARL at textbook designs (k = ½, h = 4) and under 0.1% at the monitor's (k near 0.011, h near 225).
- Each side restarts alone after its alert, so each is a renewal process and its long-run alert rate is
  exactly 1/ARL⁺ (1/ARL⁻): adding the rates is not an approximation. The budget is in rounds, at the
  most a table deals (alerts.monitors.ROUNDS_PER_DAY_AT_MOST): a table dealing fewer has
  proportionally fewer false alerts in its days, and a kind that is not bet every round (insurance is
  offered only against an ace) makes fewer observations than days × rounds a day, so it has fewer false
  alerts than its share: conservative.

Why each round over its own stakes: e over the kind's mean stake S̄ (the statistic before) counted a
round by its money, so a round staked five times the mean weighed five times in y, and for the Deluxe
main bet e/S̄ spreads by σ = 1.14 where e/S spreads by 0.93. The delay to detect a change grows with σ:
a ten-rich shoe (+1.9 points) is caught in 11.0 days at the median, 12.8 on average, of a table dealing
1,440 rounds a day, where e/S̄ at the same design would take 15.7 days at the 2-point shift (Siegmund)
against e/S's 11.6. The price: a round's y no longer weighs by its money, so a change confined to large
stakes is diluted by the small ones.
"""

import math
from dataclasses import dataclass

HIGH, LOW = "high", "low"
# Siegmund's correction of h: twice 0.583, the expected overshoot of a normal random walk over a far
# boundary (−ζ(1/2)/√(2π)).
OVERSHOOT = 1.166
# The Markov chain leaves out transitions beyond this many standard deviations (below 1e-13 each).
NORMAL_TAIL = 7.5


def one_sided_arl(h: float, k: float) -> float:
    """Siegmund's approximation of the average run length, in observations, of the one-sided CUSUM
    S = max(0, S + y − k) from S = 0 until S > h, for y ~ N(0, 1): (exp(2kb) − 2kb − 1)/(2k²), b = h + 1.166.

    k may be negative: the upper side's ARL when y's mean has moved up by more than k (the mean μ gives
    the ARL of reference k − μ), as for the delay of detection."""
    if h < 0:
        raise ValueError(f"h must be at least 0, not {h}")
    b = h + OVERSHOOT
    x = 2 * k * b
    if abs(x) < 1e-4:  # the series b²(1 + x/3 + x²/12 + ...) without cancellation (its limit at k = 0: b²)
        return b * b * (1 + x / 3 + x * x / 12)
    try:
        return (math.expm1(x) - x) / (2 * k * k)
    except OverflowError:
        return math.inf


def two_sided_arl(h: float, k: float) -> float:
    """The in-control ARL of the two-sided CUSUM (both sides with reference k and interval h, on N(0, 1)
    increments): 1/ARL = 1/ARL⁺ + 1/ARL⁻, the two sides alike."""
    return one_sided_arl(h, k) / 2


def decision_interval(k: float, in_control_arl: float) -> float:
    """The h at which the two-sided CUSUM of reference k has this in-control ARL (observations a false
    alert), by bisection on Siegmund's approximation; the upper end of the last bracket, so never less."""
    if k < 0:
        raise ValueError(f"k must be at least 0, not {k}")
    if in_control_arl <= two_sided_arl(0.0, k):
        raise ValueError(f"an ARL of {in_control_arl} observations needs no CUSUM (h = 0 gives more)")
    low, high = 0.0, 1.0
    while two_sided_arl(high, k) < in_control_arl:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if two_sided_arl(middle, k) < in_control_arl:
            low = middle
        else:
            high = middle
    return high


def false_alert_observations(days: float, rounds_per_day: float, kinds: int) -> float:
    """The in-control ARL of each kind that keeps a table of `kinds` monitored bet kinds, dealing
    `rounds_per_day`, to one false alert in `days`: the table's false-alert rate is the sum of its
    kinds', so each kind has 1/kinds of it."""
    return days * rounds_per_day * kinds


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def markov_chain_arl(h: float, k: float, states: int | None = None) -> float:
    """Brook and Evans's ARL of the one-sided CUSUM S = max(0, S + y − k), y ~ N(0, 1), from S = 0 until
    S > h: [0, h] cut into `states` states (state 0 is [0, w/2), state i is [(i − ½)w, (i + ½)w), with
    h = (states − ½)w), each represented by its middle, and the ARL from state 0 solved from
    (I − P)L = 1. Its error falls as w² (two chains of m and 2m states extrapolate it away: (4L₂ₘ − Lₘ)/3);
    the default, 8 states per unit of h (at least 100), is within about 0.5% at h = 190 (a third of a
    second), closer below."""
    m = states if states is not None else max(100, math.ceil(8 * h))
    if h <= 0 or m < 2:
        raise ValueError("h must be above 0 and states at least 2")
    w = 2 * h / (2 * m - 1)
    band = min(m - 1, math.ceil(NORMAL_TAIL / w) + 1)  # P(i → j) is nil beyond |i − j| > band
    # P(i → j) for j ≥ 1 depends on j − i alone; P(i → 0) is the chance of falling below w/2.
    step = {
        d: _normal_cdf((d + 0.5) * w + k) - _normal_cdf((d - 0.5) * w + k) for d in range(-band, band + 1)
    }
    first = [_normal_cdf((0.5 - i) * w + k) for i in range(band + 1)]
    # A = I − P, banded: row i holds columns start(i) .. i + band.
    starts = [max(0, i - band) for i in range(m)]
    rows = []
    for i in range(m):
        row = []
        for j in range(starts[i], min(m - 1, i + band) + 1):
            leaving = first[i] if j == 0 else step[j - i]
            row.append((1.0 if j == i else 0.0) - leaving)
        rows.append(row)
    rhs = [1.0] * m
    # Gaussian elimination without pivoting: I − P of a substochastic P is a nonsingular M-matrix.
    for p in range(m):
        pivot_row = rows[p]
        at = p - starts[p]
        pivot = pivot_row[at]
        tail = pivot_row[at + 1 :]
        for r in range(p + 1, min(m, p + band + 1)):
            row = rows[r]
            column = p - starts[r]
            factor = row[column] / pivot
            if factor == 0:
                continue
            row[column] = 0.0
            segment = slice(column + 1, column + 1 + len(tail))
            row[segment] = [a - factor * b for a, b in zip(row[segment], tail, strict=True)]
            rhs[r] -= factor * rhs[p]
    arl = [0.0] * m
    for i in range(m - 1, -1, -1):
        row = rows[i]
        at = i - starts[i]
        known = sum(a * arl[i + 1 + n] for n, a in enumerate(row[at + 1 :]))
        arl[i] = (rhs[i] - known) / row[at]
    return arl[0]


def round_residual(staked: float, wagered: float, returned: float, rtp: float) -> float:
    """What a round of one bet kind returned beyond theory, in money: R − W − (μ0 − 1)·S, with S its
    original stakes (before doubles and splits), W what it wagered in all, R what it returned and μ0
    the theoretical RTP, which is stated per original stake. Its mean is 0 at theory whatever the
    doubles and splits; a change of the RTP by δ moves it by δ·S."""
    return returned - wagered - (rtp - 1) * staked


def cusum_step(high: float, low: float, y: float, k: float) -> tuple[float, float]:
    """The two sides after observation y: high = max(0, high + y − k), low = max(0, low − y − k)."""
    return max(0.0, high + y - k), max(0.0, low - y - k)


def crossed(high: float, low: float, h: float) -> str | None:
    """The side that has exceeded h (HIGH: returns above theory, LOW: below), or None. One step raises
    one side only, so with both restarted after their alerts, at most one has."""
    if high > h:
        return HIGH
    if low > h:
        return LOW
    return None


@dataclass(frozen=True)
class DriftDesign:
    """A CUSUM's design: the change of RTP to detect (`shift`, a fraction), the standard deviation at
    theory of a round's residual over its own original stakes, e/S (`sigma`), and in σ units the
    reference value k and the decision interval h."""

    shift: float
    sigma: float
    k: float
    h: float

    def score(self, residual: float, staked: float) -> float:
        """A round's y: its `round_residual` per unit of its own original stakes, over σ (the spread of
        that per-stake residual at theory)."""
        return residual / (staked * self.sigma)

    def step(self, high: float, low: float, y: float) -> tuple[float, float, str | None]:
        """(high, low, the side that alerted or None) after observation y, the side that alerted
        restarted at 0."""
        high, low = cusum_step(high, low, y, self.k)
        side = crossed(high, low, self.h)
        if side == HIGH:
            high = 0.0
        elif side == LOW:
            low = 0.0
        return high, low, side

    @property
    def in_control_arl(self) -> float:
        """Observations between false alerts, both sides together (Siegmund)."""
        return two_sided_arl(self.h, self.k)

    def detection_arl(self, change: float) -> float:
        """Observations until the side facing it alerts, from 0, once the RTP has moved by `change` (a
        fraction, either way; Siegmund, the other side's alerts left out)."""
        return one_sided_arl(self.h, self.k - abs(change) / self.sigma)


def drift_design(shift: float, sigma: float, in_control_arl: float) -> DriftDesign:
    """The CUSUM that detects a change of RTP of `shift` soonest (k = shift/(2σ)) with one false alert
    every `in_control_arl` observations (`false_alert_observations`)."""
    if shift <= 0 or sigma <= 0:
        raise ValueError("shift and sigma must be above 0")
    k = shift / (2 * sigma)
    return DriftDesign(shift, sigma, k, decision_interval(k, in_control_arl))
