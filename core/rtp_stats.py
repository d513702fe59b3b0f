"""RTP figures and their intervals, in plain Python on a few sums the database returns: for the daily
reports (reports) and the live floor (live).

- `money`, `rtp`: amounts to the cent, RTPs to 4 places (SQLite sums decimals as floats).
- `rtp_interval`: the confidence interval of an observed RTP from the spread of per-round results
  (rounds, not bets, are the unit: the hands of one round share the dealer's cards), by the method
  that fits the bet (`interval_method`): never below 0.

No scipy here, so that the pages that show an interval do not import it: Z95 and Z99 are the normal
quantiles to the 6 places every stored report was worked out with (reports.stats.normal_quantile,
checked by a test).
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from blackjack.rules import SIDE_OPTION_KINDS

from .money import exact_sum

Z95 = Decimal("1.959964")
Z99 = Decimal("2.575829")

CENT = Decimal("0.01")
RTP_PLACES = Decimal("0.0001")
ZERO = Decimal(0)
NORMAL, LOG = "normal", "log"  # reports.models.IntervalMethod
# A standard error this small against the ratio is no spread at all (rounding of q = ΣR/ΣW).
NO_SPREAD = Decimal("1e-12")


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
        """Every digit kept: the moments of busy days pass the 28 digits of Python's default context."""
        return RoundMoments(
            self.rounds + other.rounds,
            *(exact_sum([getattr(self, name), getattr(other, name)]) for name in MOMENT_SUMS),
        )


def ratio_estimate(moments: RoundMoments) -> tuple[Decimal, Decimal] | None:
    """The ratio estimator q = ΣR/ΣW and its standard error; None below two rounds or without stakes.

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
    return q, (spread / n).sqrt() / (moments.wagered / n)


def ratio_interval(moments: RoundMoments, z: Decimal) -> tuple[Decimal, Decimal] | None:
    """The normal approximation q ± z·se of the ratio estimator, in percent (it can go below 0)."""
    estimate = ratio_estimate(moments)
    if estimate is None:
        return None
    q, standard_error = estimate
    return (q - z * standard_error) * 100, (q + z * standard_error) * 100


def rtp_interval(moments: RoundMoments, z: Decimal, method: str) -> tuple[Decimal, Decimal] | None:
    """The interval of the observed RTP in percent, never below 0; None where there is none.

    - NORMAL, for the main game, bets behind and insurance, whose per-round results are spread
      without a long tail: q ± z·se, the lower end clipped at 0 (a return cannot be negative).
    - LOG, for side options, whose results are a few large payouts among many losses, so that the
      sampling distribution of q is skewed to the right: the delta method on log q, that is
      q·exp(±z·se/q) (se/q is the standard error of log q). It is never below 0 and reaches
      further above q than below, as the skew does. When nothing was returned (q = 0) it has no
      width to give: None (the pattern hits against their exact odds say how unlikely that is).

    Rounds that all returned the same share of their stakes (two insurance bets both paid, say) show
    no spread to estimate one from: None, rather than an interval of no width that every other
    figure falls outside.
    """
    estimate = ratio_estimate(moments)
    if estimate is None:
        return None
    q, standard_error = estimate
    if standard_error <= q * NO_SPREAD:
        return None
    if method == LOG:
        if q <= 0:
            return None
        spread = (z * standard_error / q).exp()
        return q / spread * 100, q * spread * 100
    return max(q - z * standard_error, ZERO) * 100, (q + z * standard_error) * 100


def interval_method(kind: str) -> str:
    """LOG for a side option, NORMAL for the main game, bets behind and insurance (`rtp_interval`)."""
    return LOG if kind in SIDE_OPTION_KINDS else NORMAL
