"""What only the daily job needs of scipy: the normal quantiles the reports' intervals use (core.rtp_stats
holds them to 6 places) and how unlikely a count of side-option pattern hits is under the exact odds
(`binomial_p_value`).

Only the daily job imports this module (reports.tasks imports it when it runs), so the time scipy.stats
takes to import is not spent by the web pages.
"""

from decimal import ROUND_HALF_UP, Decimal

from scipy.stats import binomtest, norm

Z_PLACES = Decimal("0.000001")


def normal_quantile(confidence: float) -> Decimal:
    """z of a two-sided interval of `confidence` (0.95: 1.959964), to the 6 places every stored report
    was worked out with."""
    return Decimal(float(norm.ppf((1 + confidence) / 2))).quantize(Z_PLACES, ROUND_HALF_UP)


def binomial_p_value(hits: int, trials: int, probability: float) -> float:
    """Two-sided p-value of `hits` successes in `trials` independent trials of chance `probability`:
    the exact binomial test (scipy.stats.binomtest: the total chance of every outcome no more likely
    than the one observed, as R's binom.test)."""
    if not 0 <= hits <= trials:
        raise ValueError(f"{hits} hits in {trials} trials")
    if probability <= 0 or probability >= 1:
        certain = 0 if probability <= 0 else trials
        return 1.0 if hits == certain else 0.0
    return float(binomtest(hits, trials, probability).pvalue)
