"""The cumulative RTP chart of a table's live page, as coordinates for an SVG its template draws: the
observed RTP slot by slot against the band its theoretical RTP allows at that many rounds."""

from dataclasses import dataclass
from decimal import Decimal

from live.selectors import ChartPoint

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 28  # room for the axes' labels


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # the observed RTP: an SVG polyline's points
    band: str  # the expected band: an SVG polygon's points ("" without one)
    theoretical_y: float | None
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    plot_left: int
    plot_right: int
    plot_bottom: int


def rtp_chart(points: list[ChartPoint], theoretical: Decimal | None) -> Chart | None:
    """None below two points: nothing to draw."""
    if len(points) < 2:
        return None
    values = [point.rtp for point in points]
    values += [value for point in points for value in (point.low, point.high) if value is not None]
    if theoretical is not None:
        values.append(theoretical)
    low, high = float(min(values)), float(max(values))
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    most_rounds = points[-1].rounds

    def x(rounds: int) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * rounds / most_rounds, 1)

    def y(value) -> float:
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (high - float(value)) / (high - low), 1)

    banded = [point for point in points if point.low is not None]
    band = ""
    if len(banded) >= 2:
        upper = [f"{x(p.rounds)},{y(p.high)}" for p in banded]
        lower = [f"{x(p.rounds)},{y(p.low)}" for p in reversed(banded)]
        band = " ".join(upper + lower)
    step = (high - low) / 4
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        line=" ".join(f"{x(p.rounds)},{y(p.rtp)}" for p in points),
        band=band,
        theoretical_y=None if theoretical is None else y(theoretical),
        y_ticks=[Tick(y(low + step * i), f"{low + step * i:.1f}%") for i in range(5)],
        x_ticks=[Tick(x(rounds), f"{rounds:,}") for rounds in (0, most_rounds // 2, most_rounds)],
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        plot_bottom=HEIGHT - BOTTOM,
    )
