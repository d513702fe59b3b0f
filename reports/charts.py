"""Charts for the report PDFs, as inline SVG (no chart library, nothing loaded).

Each chart's geometry is worked out here as plain data: coordinates, ticks, bars, legend positions,
rounded to a tenth of an SVG user unit. Its template in templates/reports/charts/ draws it (the
markup, colours and font), so the result is safe to put in a page: every text in it is escaped. The
report templates scale a chart to the width of the page.
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from math import ceil, floor

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

# Round steps for an axis, in its units; the first that gives at most MAX_TICKS ticks is used.
TICK_STEPS = [Decimal(step) for step in ("0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10", "20", "50", "100")]
MAX_TICKS = 6
TITLE_Y = 12  # the title's baseline, and the legend's, above the plot


@dataclass(frozen=True)
class TrendPoint:
    """One gaming day of a bet kind at a table, in percent; None where the day has no figures."""

    day: date
    observed: Decimal | None = None
    low: Decimal | None = None  # the 99% interval of the observed RTP
    high: Decimal | None = None
    theoretical: Decimal | None = None
    outside: bool = False  # the theoretical RTP lies outside the interval


def _at(value) -> float:
    """A coordinate or length as the SVG gives it: to a tenth of a unit."""
    return round(float(value), 1)


def _percent_label(value: Decimal, step: Decimal) -> str:
    places = max(0, -step.normalize().as_tuple().exponent)
    return f"{value:.{places}f} %"


def axis_ticks(low: Decimal, high: Decimal) -> list[Decimal]:
    """Round values from at or below `low` to at or above `high`, at most MAX_TICKS of them."""
    if high <= low:
        low, high = low - 1, high + 1
    for step in TICK_STEPS:
        first = floor(low / step) * step
        last = ceil(high / step) * step
        if (last - first) / step + 1 <= MAX_TICKS:
            break
    count = int((last - first) / step) + 1
    return [first + step * index for index in range(count)]


def _legend(items: list[tuple[str, str]], *, right: float) -> list[dict]:
    """Legend entries laid out from the right edge leftwards, the last item rightmost: each a
    swatch (its name in the template) 14 units wide at `x` and its label after it."""
    entries = []
    x = right
    for swatch, label in reversed(items):
        x -= 6.0 * len(label) + 20
        entries.append({"swatch": swatch, "label": label, "x": _at(x), "text_x": _at(x + 18)})
    return entries


def rtp_trend_svg(points: list[TrendPoint], *, title: str, width: int = 760, height: int = 190) -> SafeString:
    """Observed RTP per day (line and dots) with its 99% interval as a band, and the theoretical RTP
    as a dashed line. A day outside its interval has a red dot; a day with no play has nothing."""
    left, right, top, bottom = 52, 10, 26, 24
    plot_width = width - left - right
    plot_height = height - top - bottom
    plot_bottom = top + plot_height
    step = plot_width / max(len(points), 1)
    chart = {"width": width, "height": height, "title": title, "title_x": _at(left), "title_y": _at(TITLE_Y)}
    values = [
        value
        for point in points
        for value in (point.observed, point.low, point.high, point.theoretical)
        if value is not None
    ]
    if not values:
        chart["empty"] = {"x": _at(left + plot_width / 2), "y": _at(top + plot_height / 2)}
        return render_to_string("reports/charts/rtp_trend.svg", chart)

    ticks = axis_ticks(min(values), max(values))
    y_low, y_high = float(ticks[0]), float(ticks[-1])

    def x_of(index: float) -> float:
        return left + (index + 0.5) * step

    def y_of(value: Decimal) -> float:
        return top + plot_height * (1 - (float(value) - y_low) / (y_high - y_low))

    tick_step = ticks[1] - ticks[0]
    chart["grid"] = {"x1": _at(left), "x2": _at(left + plot_width), "label_x": _at(left - 4)}
    chart["ticks"] = [
        {"y": _at(y_of(tick)), "label_y": _at(y_of(tick) + 3), "label": _percent_label(tick, tick_step)}
        for tick in ticks
    ]
    # The band: one rectangle a day wide per day, so neighbouring days join into a band.
    chart["bands"] = [
        {
            "x": _at(x_of(index) - step / 2),
            "y": _at(y_of(point.high)),
            "width": _at(step),
            "height": _at(max(y_of(point.low) - y_of(point.high), 0.5)),
        }
        for index, point in enumerate(points)
        if point.low is not None and point.high is not None
    ]
    chart["lines"] = []
    for series in ("theoretical", "observed"):
        for days in _runs_of_days(points, series):
            if len(days) == 1:  # a lone day: a short level mark, so that it still shows
                index, value = days[0]
                days = [(index - 1 / 3, value), (index + 1 / 3, value)]
            coordinates = [(_at(x_of(index)), _at(y_of(value))) for index, value in days]
            chart["lines"].append({"series": series, "points": coordinates})
    chart["dots"] = [
        {"x": _at(x_of(index)), "y": _at(y_of(point.observed)), "outside": point.outside}
        for index, point in enumerate(points)
        if point.observed is not None
    ]
    # Day labels: every fifth day back from the last, so that the report's own day is labelled.
    chart["axis"] = {"y": _at(plot_bottom), "tick_y": _at(plot_bottom + 3), "label_y": _at(plot_bottom + 13)}
    chart["days"] = [
        {"x": _at(x_of(index)), "label": points[index].day.strftime("%d %b")}
        for index in range(len(points) - 1, -1, -5)
    ]
    chart["frame"] = {"x": _at(left), "y": _at(top), "width": _at(plot_width), "height": _at(plot_height)}
    legend = [
        ("observed", "observed RTP"),
        ("band", "99% interval"),
        ("theoretical", "theoretical"),
        ("outside", "outside 99%"),
    ]
    chart["legend"] = _legend(legend, right=width - right)
    chart["legend_y"] = _at(TITLE_Y - 4)
    return render_to_string("reports/charts/rtp_trend.svg", chart)


def _runs_of_days(points: list[TrendPoint], field: str) -> list[list[tuple[float, Decimal]]]:
    """Consecutive days that have a value for `field`: a line is not drawn across a day without play."""
    runs: list[list[tuple[float, Decimal]]] = []
    current: list[tuple[float, Decimal]] = []
    for index, point in enumerate(points):
        value = getattr(point, field)
        if value is None:
            if current:
                runs.append(current)
            current = []
        else:
            current.append((index, value))
    if current:
        runs.append(current)
    return runs


def pattern_hits_svg(rows: list[dict], *, title: str, width: int = 760) -> SafeString:
    """Hits per pattern against the number expected from the exact odds, as pairs of horizontal
    bars: `rows` are [{"pattern": label, "hits": n, "expected": x or None (odds unknown)}]."""
    label_width, value_width, top, row_height = 170, 90, 26, 26
    height = top + row_height * max(len(rows), 1) + 6
    bar_width = width - label_width - value_width
    values = [float(row["hits"]) for row in rows] + [float(row["expected"] or 0) for row in rows]
    largest = max([*values, 1.0])

    def bar(y: float, offset: int, series: str, value: float, label: str) -> dict:
        length = bar_width * value / largest
        return {
            "series": series,
            "y": _at(y + offset),
            "length": _at(max(length, 0.8)),
            "label": label,
            "label_x": _at(label_width + length + 4),
            "label_y": _at(y + offset + 8),
        }

    chart_rows = []
    for index, row in enumerate(rows):
        y = top + index * row_height
        bars = [bar(y, 2, "hits", float(row["hits"]), f"{row['hits']:,}")]
        expected = row["expected"]
        if expected is not None:
            expected = float(expected)
            label = f"{expected:,.2f}" if expected < 10 else f"{expected:,.1f}"
            bars.append(bar(y, 12, "expected", expected, label))
        chart_rows.append(
            {
                "pattern": str(row["pattern"]),
                "label_y": _at(y + 13),
                "odds_known": expected is not None,
                "note_y": _at(y + 20),
                "bars": bars,
            }
        )
    chart = {
        "width": width,
        "height": height,
        "title": title,
        "title_x": _at(0),
        "title_y": _at(TITLE_Y),
        "legend": _legend([("hits", "hits"), ("expected", "expected")], right=width),
        "legend_y": _at(TITLE_Y - 4),
        "rows": chart_rows,
        "bars_x": _at(label_width),
        "label_x": _at(label_width - 6),
        "note_x": _at(label_width + 4),
        "empty_y": _at(top + 12),
        "axis": {"x": _at(label_width), "y1": _at(top - 2), "y2": _at(height - 4)},
    }
    return render_to_string("reports/charts/pattern_hits.svg", chart)
