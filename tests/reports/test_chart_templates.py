"""The report charts are drawn by templates/reports/charts/ from geometry worked out in
reports/charts.py, and draw exactly what they drew when Python wrote their SVG: the checksums below
are of that SVG (commit fd914b4) for the same inputs."""

import hashlib
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.test import override_settings
from django.utils import translation

from reports.charts import TrendPoint, pattern_hits_svg, rtp_trend_svg


def month() -> list[TrendPoint]:
    """30 days with gaps, a day without the theoretical RTP and two days outside the interval."""
    points = []
    for index in range(30):
        day = date(2026, 11, 1) + timedelta(days=index)
        if index in (4, 5, 17):
            points.append(TrendPoint(day=day))
            continue
        observed = Decimal(97) + Decimal((index * 37) % 11) / 2
        points.append(
            TrendPoint(
                day=day,
                observed=observed,
                low=observed - 3 + Decimal(index % 3),
                high=observed + 2,
                theoretical=Decimal("99.51") if index != 9 else None,
                outside=index in (8, 22),
            )
        )
    return points


CHARTS = {
    "a month": (
        lambda: rtp_trend_svg(month(), title='BND1: "main" <&>'),
        "47aedee1172660ffbfbc2d1fa71be9880740aebd10ae1929be682591a945640a",
    ),
    "a lone day": (
        lambda: rtp_trend_svg(month()[:1], title="one day", width=500, height=150),
        "7041337e02c4192ae2f100458ac54e8726bd77085585462bc9d8db665ab4ed50",
    ),
    "no play": (
        lambda: rtp_trend_svg([TrendPoint(day=date(2026, 1, 1))], title="none"),
        "9105c83af2e51420b6a62f30f376407e504c3cc4d09b7c69a720bf1a51177061",
    ),
    "hits": (
        lambda: pattern_hits_svg(
            [
                {"pattern": "Suited trips", "hits": 3, "expected": 2.5},
                {"pattern": "Mixed <pair>", "hits": 1200, "expected": None},
                {"pattern": "Colored", "hits": 0, "expected": Decimal("41.25")},
            ],
            title="hits",
        ),
        "03433d0ea4484479a2e3ebf21e4fc227de333e73ded7fee6c07091cee859369f",
    ),
    "no pattern": (
        lambda: pattern_hits_svg([], title="empty", width=600),
        "6d6b2987f4876a821e05facfe3e3aa527c068bd22d863bb79675d78fcb893437",
    ),
}


@pytest.mark.parametrize("name", CHARTS)
def test_each_chart_is_the_svg_it_was(name):
    draw, checksum = CHARTS[name]
    assert hashlib.sha256(draw().encode()).hexdigest() == checksum


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_coordinates_are_never_localised():
    """SVG numbers are data: a language with a decimal comma and thousand separators leaves them be."""
    draw, checksum = CHARTS["a month"]
    with translation.override("de"):
        assert hashlib.sha256(draw().encode()).hexdigest() == checksum
        wide = rtp_trend_svg(month(), title="x", width=2000)
    assert 'width="2000"' in wide and 'x2="1990.0"' in wide
