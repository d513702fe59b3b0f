"""The report charts are drawn by matplotlib (reports.charts): SVG that is the same for the same
figures, keeps its text as text, spans the days that have figures, and shows hits against expected."""

from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta
from decimal import Decimal
from xml.etree import ElementTree

import matplotlib
import pytest

from reports.charts import (
    PatternHits,
    TrendPoint,
    day_label,
    days_with_figures,
    pattern_hits_svg,
    rtp_trend_svg,
)

SVG = "{http://www.w3.org/2000/svg}"
FIRST = date(2026, 2, 1)


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


def texts(svg: str) -> list[str]:
    """Every text of the chart, as a reader (or the PDF's text) gets it."""
    return ["".join(text.itertext()) for text in ElementTree.fromstring(svg).iter(f"{SVG}text")]


def month() -> list[TrendPoint]:
    return [point(index, str(97 + index % 5), outside=index == 12) for index in range(30)]


HITS = [
    PatternHits("Mixed pair", 40, 20.0, "20.0"),
    PatternHits("Perfect pair", 0, 3.25, "3.25", unlikely=True),
    PatternHits("<Coloured & pair>", 3, None, "—"),
]


def test_the_same_figures_give_the_same_svg_with_its_text_as_text():
    first = rtp_trend_svg(month(), title="DLX1 Main: RTP, 30 days to 2026-03-02")
    assert first == rtp_trend_svg(month(), title="DLX1 Main: RTP, 30 days to 2026-03-02")
    assert first.svg.startswith("<?xml") and "<dc:date>" not in first.svg
    assert "DejaVuSans-" not in first.svg  # no glyphs drawn as paths: the text is <text>
    labels = texts(first.svg)
    assert "DLX1 Main: RTP, 30 days to 2026-03-02" in labels
    assert {"observed", "theoretical", "99% interval", "outside 99%"} <= set(labels)
    assert day_label(FIRST + timedelta(days=29)) == "2 Mar" and "2 Mar" in labels  # the report's day
    assert (first.width, first.height) == (432, 240)  # 4.5 by 2.5 inches at 96 CSS pixels an inch


def test_a_day_inside_its_interval_everywhere_has_no_outside_legend():
    labels = texts(rtp_trend_svg([point(index, "99.0") for index in range(5)], title="t").svg)
    assert "outside 99%" not in labels and "observed" in labels


def test_the_x_axis_spans_the_days_with_figures_not_the_whole_window():
    points = [point(index, None) for index in range(27)] + [
        point(27, "98.0"),
        point(28, None),
        point(29, "99.0"),
    ]
    shown = days_with_figures(points)
    assert [each.day for each in shown] == [FIRST + timedelta(days=index) for index in (27, 28, 29)]
    labels = texts(rtp_trend_svg(points, title="CLS1 Main").svg)
    # A few days: each labelled, the day between without figures too; none of the 27 empty days before.
    assert [label for label in labels if label.endswith(("Feb", "Mar"))] == ["28 Feb", "1 Mar", "2 Mar"]


def test_an_interval_far_above_the_rtp_is_cut_at_the_top_and_marked():
    """A quiet day of a side option: an interval up to ten times its RTP would flatten the lines."""
    points = [point(index, "95.0") for index in range(10)]
    points[4] = TrendPoint(day=points[4].day, observed=Decimal(90), low=Decimal(0), high=Decimal(950))
    labels = texts(rtp_trend_svg(points, title="BND1 Pair").svg)
    ticks = [float(label.removesuffix(" %")) for label in labels if label.endswith(" %")]
    assert max(ticks) < 200 and "interval above" in labels
    assert "interval above" not in texts(rtp_trend_svg(points[5:], title="BND1 Pair").svg)


def test_a_trend_needs_a_day_with_figures():
    with pytest.raises(ValueError):
        rtp_trend_svg([point(index, None) for index in range(30)], title="none")


def test_titles_and_labels_are_escaped():
    drawn = pattern_hits_svg(HITS, title='A "title" <b> & more')
    assert "<Coloured" not in drawn.svg and "&lt;Coloured &amp; pair&gt;" in drawn.svg
    labels = texts(drawn.svg)  # well-formed XML, whatever the labels hold
    assert 'A "title" <b> & more' in labels and "<Coloured & pair>" in labels


def test_hits_are_shown_against_expected_with_their_numbers():
    drawn = pattern_hits_svg(HITS, title="CLS1 Perfect Pairs: hits against expected")
    labels = texts(drawn.svg)
    assert {"Mixed pair", "Perfect pair", "40", "20.0", "3.25", "hits", "expected"} <= set(labels)
    assert "0  low p-value" in labels  # the unlikely count, marked beside its number
    assert "odds not known" in labels  # no expected bar where the exact odds are unknown
    assert drawn.width == 432
    assert pattern_hits_svg(HITS[:1], title="one").height < drawn.height  # a row per pattern


def test_charts_drawn_at_once_in_threads_are_those_drawn_one_after_another():
    titles = [f"T{number}" for number in range(6)]
    alone = [rtp_trend_svg(month(), title=title).svg for title in titles]
    with ThreadPoolExecutor(max_workers=3) as pool:
        together = list(pool.map(lambda title: rtp_trend_svg(month(), title=title).svg, titles))
    assert together == alone


def test_drawing_leaves_matplotlibs_settings_as_they_were():
    before = dict(matplotlib.rcParams)
    pattern_hits_svg(HITS, title="hits")
    rtp_trend_svg(month(), title="trend")
    assert dict(matplotlib.rcParams) == before
