"""Charts for the report PDFs, drawn here as inline SVG (no chart library, nothing loaded).

Each function takes plain values and returns SVG markup, safe to put in a template: every text in
it is escaped. Sizes are in SVG user units; the templates scale a chart to the width of the page.
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from math import ceil, floor

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

INK = "#1f2933"
GRID = "#d9dee3"
OBSERVED = "#1d4e89"
BAND = "#9cc3e6"
THEORETICAL = "#b5482b"
OUTSIDE = "#c0392b"
EXPECTED = "#f0b35c"
DASHED = ' stroke-dasharray="5,3"'
FONT = 'font-family="DejaVu Sans Condensed, DejaVu Sans, sans-serif"'

# Round steps for an axis, in its units; the first that gives at most MAX_TICKS ticks is used.
TICK_STEPS = [Decimal(step) for step in ("0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10", "20", "50", "100")]
MAX_TICKS = 6


@dataclass(frozen=True)
class TrendPoint:
    """One gaming day of a bet kind at a table, in percent; None where the day has no figures."""

    day: date
    observed: Decimal | None = None
    low: Decimal | None = None  # the 99% interval of the observed RTP
    high: Decimal | None = None
    theoretical: Decimal | None = None
    outside: bool = False  # the theoretical RTP lies outside the interval


def _number(value: float) -> str:
    return f"{value:.1f}"


def _text(x: float, y: float, text: str, *, size: float = 9, anchor: str = "start", fill: str = INK) -> str:
    return (
        f'<text x="{_number(x)}" y="{_number(y)}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}" {FONT}>{escape(text)}</text>'
    )


def _line(
    x1: float, y1: float, x2: float, y2: float, colour: str = INK, width: float = 0.6, extra: str = ""
) -> str:
    return (
        f'<line x1="{_number(x1)}" y1="{_number(y1)}" x2="{_number(x2)}" y2="{_number(y2)}" '
        f'stroke="{colour}" stroke-width="{width}"{extra}/>'
    )


def _rect(x: float, y: float, width: float, height: float, fill: str, extra: str = "") -> str:
    return (
        f'<rect x="{_number(x)}" y="{_number(y)}" width="{_number(width)}" height="{_number(height)}" '
        f'fill="{fill}"{extra}/>'
    )


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


def _legend(items: list[tuple[str, str]], *, right: float, y: float) -> list[str]:
    """Legend swatches from the right edge leftwards: [(svg of a 14-unit swatch at x=0, label)]."""
    parts = []
    x = right
    for swatch, label in reversed(items):
        width = 6.0 * len(label) + 20
        x -= width
        parts.append(f'<g transform="translate({_number(x)},{_number(y - 4)})">{swatch}</g>')
        parts.append(_text(x + 18, y, label, size=8.5))
    return parts


def _svg_open(width: int, height: int, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">'
    )


def rtp_trend_svg(points: list[TrendPoint], *, title: str, width: int = 760, height: int = 190) -> SafeString:
    """Observed RTP per day (line and dots) with its 99% interval as a band, and the theoretical RTP
    as a dashed line. A day outside its interval has a red dot; a day with no play has nothing."""
    left, right, top, bottom = 52, 10, 26, 24
    plot_width = width - left - right
    plot_height = height - top - bottom
    plot_bottom = top + plot_height
    step = plot_width / max(len(points), 1)

    parts = [_svg_open(width, height, title), _text(left, 12, title, size=10)]
    values = [
        value
        for point in points
        for value in (point.observed, point.low, point.high, point.theoretical)
        if value is not None
    ]
    if not values:
        parts.append(
            _text(left + plot_width / 2, top + plot_height / 2, "No play on these days", anchor="middle")
        )
        parts.append("</svg>")
        return mark_safe("".join(parts))

    ticks = axis_ticks(min(values), max(values))
    y_low, y_high = float(ticks[0]), float(ticks[-1])

    def x_of(index: int) -> float:
        return left + (index + 0.5) * step

    def y_of(value: Decimal) -> float:
        return top + plot_height * (1 - (float(value) - y_low) / (y_high - y_low))

    for tick in ticks:
        y = y_of(tick)
        parts.append(_line(left, y, left + plot_width, y, GRID))
        parts.append(_text(left - 4, y + 3, _percent_label(tick, ticks[1] - ticks[0]), size=8, anchor="end"))

    # The band: one rectangle a day wide per day, so neighbouring days join into a band.
    for index, point in enumerate(points):
        if point.low is not None and point.high is not None:
            y_top = y_of(point.high)
            band_height = max(y_of(point.low) - y_top, 0.5)
            parts.append(
                _rect(x_of(index) - step / 2, y_top, step, band_height, BAND, ' fill-opacity="0.55"')
            )

    for field, colour, dash in (("theoretical", THEORETICAL, DASHED), ("observed", OBSERVED, "")):
        for days in _runs_of_days(points, field):
            if len(days) == 1:  # a lone day: a short level mark, so that it still shows
                index, value = days[0]
                days = [(index - 1 / 3, value), (index + 1 / 3, value)]
            coordinates = " ".join(f"{_number(x_of(index))},{_number(y_of(value))}" for index, value in days)
            parts.append(
                f'<polyline points="{coordinates}" fill="none" stroke="{colour}" stroke-width="1.4"{dash}/>'
            )
    for index, point in enumerate(points):
        if point.observed is not None:
            colour, radius = (OUTSIDE, 3) if point.outside else (OBSERVED, 2)
            x, y = _number(x_of(index)), _number(y_of(point.observed))
            parts.append(f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{colour}"/>')

    # Day labels: every fifth day back from the last, so that the report's own day is labelled.
    for index in range(len(points) - 1, -1, -5):
        x = x_of(index)
        parts.append(_line(x, plot_bottom, x, plot_bottom + 3))
        parts.append(_text(x, plot_bottom + 13, points[index].day.strftime("%d %b"), size=8, anchor="middle"))
    parts.append(_rect(left, top, plot_width, plot_height, "none", f' stroke="{INK}" stroke-width="0.6"'))
    legend = [
        (_line(0, 4, 14, 4, OBSERVED, 1.4), "observed RTP"),
        (_rect(0, 0, 14, 8, BAND, ' fill-opacity="0.55"'), "99% interval"),
        (_line(0, 4, 14, 4, THEORETICAL, 1.4, DASHED), "theoretical"),
        (f'<circle cx="7" cy="4" r="3" fill="{OUTSIDE}"/>', "outside 99%"),
    ]
    parts.extend(_legend(legend, right=width - right, y=12))
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _runs_of_days(points: list[TrendPoint], field: str) -> list[list[tuple[int, Decimal]]]:
    """Consecutive days that have a value for `field`: a line is not drawn across a day without play."""
    runs: list[list[tuple[int, Decimal]]] = []
    current: list[tuple[int, Decimal]] = []
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

    parts = [_svg_open(width, height, title), _text(0, 12, title, size=10)]
    legend = [(_rect(0, 0, 14, 8, OBSERVED), "hits"), (_rect(0, 0, 14, 8, EXPECTED), "expected")]
    parts.extend(_legend(legend, right=width, y=12))
    if not rows:
        parts.append(_text(label_width, top + 12, "No pattern figures for this option."))
    for index, row in enumerate(rows):
        y = top + index * row_height
        parts.append(_text(label_width - 6, y + 13, str(row["pattern"]), anchor="end"))
        expected = row["expected"]
        bars = [(2, float(row["hits"]), OBSERVED, f"{row['hits']:,}")]
        if expected is None:
            parts.append(_text(label_width + 4, y + 20, "expected: odds not known", size=8))
        else:
            expected = float(expected)
            bars.append((12, expected, EXPECTED, f"{expected:,.2f}" if expected < 10 else f"{expected:,.1f}"))
        for offset, value, colour, label in bars:
            length = bar_width * value / largest
            parts.append(_rect(label_width, y + offset, max(length, 0.8), 9, colour))
            parts.append(_text(label_width + length + 4, y + offset + 8, label, size=8))
    parts.append(_line(label_width, top - 2, label_width, height - 4))
    parts.append("</svg>")
    return mark_safe("".join(parts))
