"""The report charts, drawn by matplotlib as SVG: the RTP trend of a bet kind at a table, and a side
option's hits per pattern against the number expected.

The daily job draws each run's charts once and stores them (reports.run_charts); nothing else calls
this module, and no page request imports it. Only matplotlib's object-oriented API is used: a Figure
of its own per chart, saved to SVG, no pyplot and so no global figure state. Its style (rcParams) is
set for each drawing, under a lock so that two threads never interleave theirs. The SVG is the same
for the same input (fixed ids, no date) and keeps its text as text (`svg.fonttype: none`): a page
search, a screen reader and the PDF's text see the titles, labels and legends.
"""

import io
import textwrap
import threading
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from math import ceil, nan

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

# Okabe and Ito's colours, told apart with every common colour-vision deficiency; each series also
# differs in shape (line, dashes, band, diamond), so that none is told by its colour alone.
BLUE = "#0072B2"
SKY = "#56B4E9"
ORANGE = "#E69F00"
VERMILION = "#D55E00"
INK = "#1f2933"
MUTED = "#52606d"
GRID = "#d9dee3"

STYLE = {
    "svg.fonttype": "none",  # text as <text>, in the reader's DejaVu Sans (the PDFs' font too)
    "svg.hashsalt": "pitboss-report-chart",  # the same element ids in every drawing
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "axes.linewidth": 0.6,
    "text.color": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "legend.fontsize": 8.5,
    "legend.frameon": False,
    "legend.handlelength": 1.6,
    "legend.columnspacing": 1.2,
}
# The Date matplotlib would write changes every drawing; a stored chart is the same for the same figures.
SVG_METADATA = {"Date": None}
# 4.5 inches: 432 CSS pixels, shown at up to that; on a phone's 340 pixels the text is still 8 or more.
WIDTH_INCHES = 4.5
TREND_HEIGHT_INCHES = 2.5
TITLE_CHARACTERS = 48  # a longer title takes a second line
CSS_PIXELS_PER_INCH = 96  # an SVG's width in pt is shown at 96 CSS pixels per inch
FEW_DAYS = 7  # up to a week, each day's interval is a block of its own, half a day wide
HEADROOM = 1.6  # the y-axis reaches at most this times the highest RTP (_fit_height)
_drawing = threading.Lock()


@dataclass(frozen=True)
class TrendPoint:
    """One gaming day of a bet kind at a table, in percent; None where the day has no figures."""

    day: date
    observed: Decimal | None = None
    low: Decimal | None = None  # the 99% interval of the observed RTP
    high: Decimal | None = None
    theoretical: Decimal | None = None
    outside: bool = False  # the theoretical RTP lies outside the interval


@dataclass(frozen=True)
class PatternHits:
    """A side option's pattern: hits against the number expected (None: the exact odds are unknown)."""

    pattern: str
    hits: int
    expected: float | None
    expected_text: str = ""  # as the report's tables write it
    unlikely: bool = False  # a p-value below the report's threshold


@dataclass(frozen=True)
class DrawnChart:
    svg: str
    width: int  # CSS pixels, for the <img> that shows it
    height: int


def days_with_figures(points: list[TrendPoint]) -> list[TrendPoint]:
    """The span of the chart: from the first day with an observed RTP to the last (days between
    without figures stay, as gaps)."""
    played = [index for index, point in enumerate(points) if point.observed is not None]
    return points[played[0] : played[-1] + 1] if played else []


def day_label(day: date) -> str:
    return f"{day.day} {day:%b}"


def percent_label(value: float, _position=None) -> str:
    return f"{value:.10g} %"


def rtp_trend_svg(points: list[TrendPoint], *, title: str) -> DrawnChart:
    """Observed RTP per day (line and dots) in its 99% interval (a band, a block a day wide) and the
    theoretical RTP (dashed); a day whose theoretical RTP lies outside its interval is a diamond, an
    interval cut at the top of the chart has a triangle there. The x-axis spans the days that have
    figures; a day without any is a gap in the lines."""
    shown = days_with_figures(points)
    if not shown:
        raise ValueError("A trend needs a day with figures.")
    positions = list(range(len(shown)))
    with _drawing, matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(WIDTH_INCHES, TREND_HEIGHT_INCHES), layout="constrained")
        axes = figure.add_subplot()
        observed = axes.plot(
            positions,
            [_value(p.observed) for p in shown],
            color=BLUE,
            linewidth=1.4,
            marker="o",
            markersize=3 if len(shown) > 31 else 4,
            label="observed",
            zorder=3,
        )
        legend = [*observed]
        if any(p.theoretical is not None for p in shown):
            legend.append(
                axes.stairs(  # level across each day, as the band is: it changes only with the configuration
                    [_value(p.theoretical) for p in shown],
                    [x - 0.5 for x in [*positions, len(shown)]],
                    baseline=None,
                    color=INK,
                    linestyle=(0, (4, 2.5)),
                    linewidth=1.1,
                    label="theoretical",
                    zorder=2,
                )
            )
        banded = [
            (x, p) for x, p in zip(positions, shown, strict=True) if p.low is not None and p.high is not None
        ]
        if banded:
            band = axes.bar(
                [x for x, _ in banded],
                [float(p.high - p.low) for _, p in banded],
                bottom=[float(p.low) for _, p in banded],
                width=1.0 if len(shown) > FEW_DAYS else 0.5,  # a few days: a block each, not a band
                color=SKY,
                alpha=0.45,
                linewidth=0,
                label="99% interval",
                zorder=1,
            )
            for block in band:
                block.sticky_edges.y.clear()  # the axis keeps a margin below the lowest interval
            legend.append(band)
        outside = [
            (x, p) for x, p in zip(positions, shown, strict=True) if p.outside and p.observed is not None
        ]
        if outside:
            legend += axes.plot(
                [x for x, _ in outside],
                [float(p.observed) for _, p in outside],
                linestyle="none",
                marker="D",
                markersize=6.5,
                markerfacecolor=VERMILION,
                markeredgecolor="white",
                markeredgewidth=0.8,
                label="outside 99%",
                zorder=4,
            )
        cut = _fit_height(axes, shown)
        if cut:
            legend += axes.plot(
                [positions[index] for index in cut],
                [axes.get_ylim()[1]] * len(cut),
                linestyle="none",
                marker="^",
                markersize=5,
                color=BLUE,
                clip_on=False,
                label="interval above",
                zorder=4,
            )
        axes.set_xlim(-0.5, len(shown) - 0.5)
        ticks = _day_ticks(len(shown))
        axes.set_xticks(ticks, [day_label(shown[index].day) for index in ticks])
        axes.yaxis.set_major_locator(MaxNLocator(nbins=5))
        axes.yaxis.set_major_formatter(FuncFormatter(percent_label))
        axes.grid(axis="y", color=GRID, linewidth=0.6)
        axes.set_axisbelow(True)
        axes.spines[["top", "right"]].set_visible(False)
        axes.tick_params(length=3, width=0.6)
        _title(figure, title)
        figure.legend(handles=legend, loc="outside lower center", ncols=len(legend) if len(legend) < 5 else 3)
        return _drawn(figure)


def pattern_hits_svg(rows: list[PatternHits], *, title: str) -> DrawnChart:
    """Hits per pattern (solid bars) against the number expected from the exact odds (lighter,
    hatched bars), a pair per pattern, each with its number; "odds not known" where none is expected,
    and a pattern whose hits are unlikely marked beside its number."""
    if not rows:
        raise ValueError("A hits chart needs a pattern.")
    height = 1.0 + 0.34 * len(rows)
    with _drawing, matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(WIDTH_INCHES, height), layout="constrained")
        axes = figure.add_subplot()
        places = [len(rows) - 1 - index for index in range(len(rows))]  # the first pattern on top
        hits = axes.barh(
            [y + 0.2 for y in places], [row.hits for row in rows], height=0.38, color=BLUE, label="hits"
        )
        numbers = axes.bar_label(
            hits,
            labels=[f"{row.hits:,}" + ("  low p-value" if row.unlikely else "") for row in rows],
            padding=3,
            fontsize=8.5,
        )
        for number, row in zip(numbers, rows, strict=True):
            if row.unlikely:
                number.set(color=VERMILION, fontweight="bold")
        known = [(y, row) for y, row in zip(places, rows, strict=True) if row.expected is not None]
        expected = axes.barh(
            [y - 0.2 for y, _ in known],
            [row.expected for _, row in known],
            height=0.38,
            color=ORANGE,
            hatch="////",
            edgecolor="white",
            linewidth=0,
            label="expected",
        )
        axes.bar_label(expected, labels=[row.expected_text for _, row in known], padding=3, fontsize=8.5)
        for y, row in zip(places, rows, strict=True):
            if row.expected is None:
                axes.annotate(
                    "odds not known",
                    (0, y - 0.2),
                    xytext=(4, 0),
                    textcoords="offset points",
                    verticalalignment="center",
                    fontsize=8.5,
                    color=MUTED,
                )
        largest = max([row.hits for row in rows] + [row.expected for _, row in known] + [1])
        axes.set_xlim(0, largest * 1.3)
        axes.set_ylim(-0.6, len(rows) - 0.4)
        axes.set_yticks(places, [row.pattern for row in rows])
        axes.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        axes.grid(axis="x", color=GRID, linewidth=0.6)
        axes.set_axisbelow(True)
        axes.spines[["top", "right"]].set_visible(False)
        axes.tick_params(length=3, width=0.6)
        _title(figure, title)
        figure.legend(loc="outside lower center", ncols=2)
        return _drawn(figure)


def _fit_height(axes, shown: list[TrendPoint]) -> list[int]:
    """Set the y-axis to the observed and theoretical RTP and the intervals, but no higher than
    HEADROOM times the highest RTP: a side option's interval of a quiet day can reach ten times its
    RTP and would flatten the lines. Returns the days whose interval goes on above the top."""
    rtps = [float(value) for p in shown for value in (p.observed, p.theoretical) if value is not None]
    lows = [float(p.low) for p in shown if p.low is not None]
    highs = [float(p.high) for p in shown if p.high is not None]
    bottom, top = min(rtps + lows), max(rtps + highs)
    if max(rtps) > 0:
        top = min(top, HEADROOM * max(rtps))
    margin = (top - bottom) * 0.06 or 1.0
    axes.set_ylim(bottom - margin, top + margin)
    return [index for index, p in enumerate(shown) if p.high is not None and float(p.high) > top + margin]


def _title(figure: Figure, title: str) -> None:
    """Above the plot, from the figure's left edge: the room of the whole width (two lines if need be)."""
    figure.suptitle(
        "\n".join(textwrap.wrap(title, TITLE_CHARACTERS)),
        x=0.01,
        horizontalalignment="left",
        fontsize=10,
        fontweight="bold",
    )


def _value(value: Decimal | None) -> float:
    return nan if value is None else float(value)


def _day_ticks(days: int) -> list[int]:
    """Every day up to a week; beyond, at most about seven labels a round number of days apart,
    counted back from the last day so that the report's own day is labelled."""
    step = next((step for step in (1, 2, 5, 7, 14, 30) if ceil(days / step) <= 7), 30)
    return sorted(range(days - 1, -1, -step))


def _drawn(figure: Figure) -> DrawnChart:
    width, height = figure.get_size_inches()
    output = io.StringIO()
    figure.savefig(output, format="svg", metadata=SVG_METADATA)
    return DrawnChart(
        svg=output.getvalue(),
        width=round(width * CSS_PIXELS_PER_INCH),
        height=round(height * CSS_PIXELS_PER_INCH),
    )
