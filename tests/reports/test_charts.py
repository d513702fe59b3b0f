"""The report charts are SVG drawn by the app: a trend with its interval band, hits against expected."""

import re
from datetime import date, timedelta
from decimal import Decimal
from xml.etree import ElementTree

from reports.charts import TrendPoint, axis_ticks, pattern_hits_svg, rtp_trend_svg

SVG = "{http://www.w3.org/2000/svg}"
FIRST = date(2026, 2, 1)


def parsed(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def point(index: int, observed: str | None, *, outside: bool = False) -> TrendPoint:
    day = FIRST + timedelta(days=index)
    if observed is None:
        return TrendPoint(day=day)
    value = Decimal(observed)
    return TrendPoint(
        day=day,
        observed=value,
        low=value - 2,
        high=value + 2,
        theoretical=Decimal("99.5150"),
        outside=outside,
    )


def test_axis_ticks_are_round_and_cover_the_values():
    ticks = axis_ticks(Decimal("97.3"), Decimal("101.8"))
    assert ticks[0] <= Decimal("97.3") and ticks[-1] >= Decimal("101.8")
    assert len(ticks) <= 6
    steps = {later - earlier for earlier, later in zip(ticks, ticks[1:], strict=False)}
    assert steps == {Decimal(1)}


def test_axis_ticks_of_a_single_value_still_make_an_axis():
    ticks = axis_ticks(Decimal("100"), Decimal("100"))
    assert ticks[0] < 100 < ticks[-1]


def test_the_trend_has_a_band_a_line_the_theoretical_and_a_red_dot_for_a_day_outside():
    points = [point(index, "99.0") for index in range(29)] + [point(29, "104.0", outside=True)]
    svg = rtp_trend_svg(points, title="DLX1 main")
    root = parsed(svg)
    assert len(root.findall(f"{SVG}rect")) >= 30  # a band piece a day, plus the frame and legend
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2  # one unbroken theoretical line and one observed line
    assert any("stroke-dasharray" in line.attrib for line in lines)
    dots = root.findall(f"{SVG}circle")  # the legend's swatches are inside a <g>, not found here
    red = [dot for dot in dots if dot.attrib["fill"] == "#c0392b"]
    assert len(dots) == 30 and len(red) == 1
    labels = [text.text for text in root.iter(f"{SVG}text")]
    assert "02 Mar" in labels  # the last day is labelled (1 February + 29 days)


def test_a_day_without_play_breaks_the_lines_and_a_lone_day_still_shows():
    points = [point(index, "99.0") for index in range(10)] + [point(10, None), point(11, "98.0")]
    points += [point(index, None) for index in range(12, 30)]
    root = parsed(rtp_trend_svg(points, title="CLS1 main"))
    observed = [line for line in root.findall(f"{SVG}polyline") if "stroke-dasharray" not in line.attrib]
    assert len(observed) == 2
    assert len(observed[1].attrib["points"].split()) == 2  # the lone day: a short level mark


def test_thirty_days_without_play_say_so():
    svg = rtp_trend_svg([point(index, None) for index in range(30)], title="MPB1 main")
    assert "No play on these days" in svg
    parsed(svg)


def test_titles_and_labels_are_escaped():
    svg = pattern_hits_svg([{"pattern": "<Mixed & pair>", "hits": 3, "expected": 2.5}], title='A "title" <b>')
    parsed(svg)  # well-formed XML
    assert "<Mixed" not in svg and "&lt;Mixed &amp; pair&gt;" in svg


def test_hit_bars_are_in_proportion_to_hits_and_expected():
    svg = pattern_hits_svg(
        [
            {"pattern": "Mixed pair", "hits": 40, "expected": 20.0},
            {"pattern": "Perfect pair", "hits": 0, "expected": 10.0},
        ],
        title="CLS1 Perfect Pairs",
    )
    root = parsed(svg)
    widths = [
        float(rect.attrib["width"])
        for rect in root.findall(f"{SVG}rect")
        if float(rect.attrib["y"]) > 20  # below the legend
    ]
    hits_mixed, expected_mixed, hits_perfect, expected_perfect = widths
    assert hits_mixed == 2 * expected_mixed
    assert expected_perfect * 2 == expected_mixed
    assert hits_perfect < 1  # a sliver, so the row is not mistaken for a missing one
    assert re.search(r">40<", svg) and re.search(r">20\.0<", svg)


def test_a_pattern_whose_odds_are_not_known_has_no_expected_bar():
    svg = pattern_hits_svg([{"pattern": "Mixed pair", "hits": 3, "expected": None}], title="DLX1 Pair")
    root = parsed(svg)
    bars = [rect for rect in root.findall(f"{SVG}rect") if float(rect.attrib["y"]) > 20]
    assert len(bars) == 1
    assert "expected: odds not known" in svg
