"""The report's statistics: the ratio estimator's interval and the exact binomial p-value."""

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from core.rtp_stats import Z95, Z99, RoundMoments, money, ratio_interval, rtp
from reports.stats import binomial_p_value, normal_quantile


def brute_force_p_value(hits: int, trials: int, probability: float) -> float:
    """Every outcome's exact chance as a fraction; the total of those no likelier than `hits`."""
    p = Fraction(probability)
    chances = [math.comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(trials + 1)]
    limit = chances[hits] * Fraction(1 + 10**-7)
    return float(sum(chance for chance in chances if chance <= limit))


@pytest.mark.parametrize(
    ("hits", "trials", "probability"),
    [
        (0, 10, 0.5),
        (5, 10, 0.5),
        (7, 10, 0.5),
        (3, 20, 0.3),
        (12, 20, 0.3),
        (0, 40, 0.0385),
        (9, 40, 0.0385),
        (1, 150, 0.000244),
        (0, 150, 0.000244),
        (30, 150, 0.148),
        (150, 150, 0.9),
        (61, 200, 0.3),
    ],
)
def test_the_p_value_is_the_exact_binomial_one(hits, trials, probability):
    assert binomial_p_value(hits, trials, probability) == pytest.approx(
        brute_force_p_value(hits, trials, probability), rel=1e-9, abs=1e-300
    )


def test_known_two_sided_values():
    assert binomial_p_value(0, 10, 0.5) == pytest.approx(2 / 1024)
    assert binomial_p_value(5, 10, 0.5) == 1.0  # the most likely count
    assert binomial_p_value(0, 1000, 0.1) < 1e-40  # far in the tail, without underflowing to nonsense


def test_a_huge_count_uses_the_normal_approximation():
    trials, probability = 10**10, 0.5
    mean, sd = trials * probability, math.sqrt(trials * probability * (1 - probability))
    assert binomial_p_value(int(mean), trials, probability) == 1.0
    assert binomial_p_value(int(mean + 2 * sd), trials, probability) == pytest.approx(0.0455, abs=1e-3)


def test_certain_and_impossible_patterns():
    assert binomial_p_value(0, 50, 0.0) == 1.0
    assert binomial_p_value(1, 50, 0.0) == 0.0
    assert binomial_p_value(50, 50, 1.0) == 1.0
    with pytest.raises(ValueError):
        binomial_p_value(51, 50, 0.5)


def moments(results: list[tuple[str, str]]) -> RoundMoments:
    total = RoundMoments()
    for wagered, returned in results:
        w, r = Decimal(wagered), Decimal(returned)
        total += RoundMoments(1, w, r, w * w, r * r, w * r)
    return total


def test_the_quantiles_are_the_normal_distributions_to_six_places():
    assert (Z95, Z99) == (Decimal("1.959964"), Decimal("2.575829"))


def test_the_interval_follows_the_spread_of_round_results():
    results = [("10.00", "0.00"), ("10.00", "20.00"), ("20.00", "20.00"), ("5.00", "10.00"), ("25.50", "0")]
    low, high = ratio_interval(moments(results), Z95)
    wagered = [float(w) for w, _ in results]
    returned = [float(r) for _, r in results]
    n = len(results)
    q = sum(returned) / sum(wagered)
    residuals = [r - q * w for w, r in zip(wagered, returned, strict=True)]
    se = math.sqrt(sum(e * e for e in residuals) / (n - 1) / n) / (sum(wagered) / n)
    assert float(low) == pytest.approx((q - 1.959964 * se) * 100, rel=1e-12)
    assert float(high) == pytest.approx((q + 1.959964 * se) * 100, rel=1e-12)
    low99, high99 = ratio_interval(moments(results), Z99)
    assert low99 < low < q * 100 < high < high99


def test_no_interval_below_two_rounds_or_without_stakes():
    assert ratio_interval(moments([("10.00", "20.00")]), Z95) is None
    assert ratio_interval(moments([("0", "0"), ("0", "0")]), Z95) is None


def test_rounds_that_all_return_the_same_share_have_no_spread():
    low, high = ratio_interval(moments([("10.00", "9.50"), ("20.00", "19.00"), ("4.00", "3.80")]), Z99)
    assert low == high == Decimal("95.00")


def test_moments_add_up_over_versions_and_tables():
    first, second = moments([("1.00", "2.00")]), moments([("3.00", "0.00"), ("2.00", "2.00")])
    assert first + second == moments([("1.00", "2.00"), ("3.00", "0.00"), ("2.00", "2.00")])


def test_amounts_and_percentages_are_rounded_half_up():
    assert money(12.509999999999) == Decimal("12.51")  # SQLite's float sums
    assert money(None) == Decimal("0.00")
    assert rtp(Decimal("99.51505")) == Decimal("99.5151")


def test_the_intervals_quantiles_are_the_normal_ones_to_six_places():
    assert (Z95, Z99) == (normal_quantile(0.95), normal_quantile(0.99))
