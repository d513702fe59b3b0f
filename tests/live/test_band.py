"""Where an observed RTP stands against its theory (live.selectors.KindFigures.band), worked by hand:
50 rounds of 10.00 wagered, half returning 0 and half returning R, theory 99.52%.

q = R/20 per unit wagered; the residuals R_r − q·W_r are ±R/2, so s² = (R/2)²·50/49 and
se = sqrt(s²/50)/10 = (R/2)/(10·7) = R/140; the 99% interval is q ± 2.575829·se."""

from decimal import Decimal

import pytest

from core.rtp_stats import RoundMoments
from live.selectors import Band, KindFigures


def figures(returned_half: str) -> KindFigures:
    r = Decimal(returned_half)
    moments = RoundMoments(50, Decimal(500), 25 * r, Decimal(5000), 25 * r * r, 250 * r)
    return KindFigures(
        kind="main",
        rounds=50,
        bets=50,
        wagered=Decimal(500),
        returned=25 * r,
        hits=0,
        theoretical=Decimal("99.52"),
        expected_hits=None,
        moments=moments,
    )


@pytest.mark.parametrize(
    ("returned_half", "rtp", "band"),
    [
        # R = 40: q = 200%, se = 0.2857: 126.4%-273.6%, all above 99.52%.
        ("40", Decimal("200.0000"), Band.HIGH),
        # R = 20: q = 100%, se = 0.1429: 63.2%-136.8%, around it.
        ("20", Decimal("100.0000"), Band.WITHIN),
        # R = 4: q = 20%, se = 0.0286: 12.6%-27.4%, all below it.
        ("4", Decimal("20.0000"), Band.LOW),
    ],
)
def test_the_band_by_hand(returned_half, rtp, band):
    line = figures(returned_half)
    assert line.rtp == rtp
    assert line.band == band


def test_no_band_without_a_theory_or_below_two_rounds():
    line = figures("20")
    line.theoretical = None
    assert line.band == Band.UNKNOWN
    one_round = KindFigures(
        "main",
        1,
        1,
        Decimal(10),
        Decimal(20),
        0,
        Decimal("99.52"),
        None,
        RoundMoments(1, Decimal(10), Decimal(20), Decimal(100), Decimal(400), Decimal(200)),
    )
    assert one_round.band == Band.UNKNOWN
