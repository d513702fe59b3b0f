"""Each run's charts, drawn once by the daily job and stored with the run (ReportChart).

reports.tasks.daily_report_finish calls `report_charts_draw` after the figures are sealed and before
the PDFs: the PDFs embed these charts, and the report pages serve them as stored
(reports.views.ReportChartView), so neither a PDF nor a page request draws. Drawn for every table of
the run and every bet kind it had figures for in the window:

- a *trend* per window of TREND_WINDOWS (30 and 90 gaming days up to the run's): the observed RTP of
  each day with its 99% interval and the theoretical RTP, the run's own figures for its day and each
  earlier day's current run's. The x-axis spans the days with figures; a kind with figures on one day
  only gets a message instead of a chart.
- the *hits* of each side option the run has exposure figures for: hits per pattern against expected.

A run of figures only (`ReportRun.figures_only`) draws none. Run twice (a task delivered again), the
run's charts are replaced, never added to; the finish task draws them holding the run's row, so two
finishes at once draw them once (reports.tasks).
"""

from collections import defaultdict
from datetime import date, timedelta

from django.db import transaction

from blackjack.rules import kind_label, pattern_label

from .charts import PatternHits, TrendPoint, days_with_figures, pattern_hits_svg, rtp_trend_svg
from .models import (
    TREND_WINDOWS,
    ChartSubject,
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportChart,
    ReportRun,
)
from .pdf import expected_text, hit_unit, is_unlikely, kind_order
from .records import CURRENT_ROWS

TREND_FIELDS = (
    "table_id",
    "kind",
    "day",
    "observed_rtp",
    "ci99_low",
    "ci99_high",
    "theoretical_rtp",
    "outside_99",
)


def report_charts_draw(run: ReportRun) -> int:
    """Draw the run's charts and store them in place of any it had. Returns how many were stored."""
    if run.figures_only:
        return 0
    charts = [*_trend_charts(run), *_hits_charts(run)]
    with transaction.atomic():
        ReportChart.objects.filter(run=run).delete()
        ReportChart.objects.bulk_create(charts)
    return len(charts)


def trend_title(code: str, kind: str, window: int, day: date) -> str:
    return f"{code} {kind_label(kind)}: RTP, {window} days to {day.isoformat()}"


def hits_title(code: str, kind: str) -> str:
    return f"{code} {kind_label(kind)}: hits against expected"


# --- trends ------------------------------------------------------------------------------------


def _trend_charts(run: ReportRun) -> list[ReportChart]:
    tables = _run_tables(run)
    first = run.day - timedelta(days=max(TREND_WINDOWS) - 1)
    rows = DailyFigures.objects.filter(table_id__in=tables)
    earlier = rows.filter(CURRENT_ROWS, day__gte=first, day__lt=run.day).values(*TREND_FIELDS)
    figures: dict[tuple[int, str], dict[date, dict]] = defaultdict(dict)
    for row in [*earlier, *rows.filter(run=run).values(*TREND_FIELDS)]:
        figures[row["table_id"], row["kind"]][row["day"]] = row
    charts = []
    for window in TREND_WINDOWS:
        days = [run.day - timedelta(days=back) for back in range(window - 1, -1, -1)]
        position = 0
        for table_id, code in sorted(tables.items(), key=lambda item: item[1]):
            kinds = {
                kind
                for (table, kind), by_day in figures.items()
                if table == table_id and by_day.keys() & set(days)
            }
            for kind in sorted(kinds, key=kind_order):
                points = [_point(day, figures[table_id, kind].get(day)) for day in days]
                chart = _trend_chart(run, table_id, code, kind, window, points)
                if chart is not None:
                    chart.position = position
                    charts.append(chart)
                    position += 1
    return charts


def _run_tables(run: ReportRun) -> dict[int, str]:
    """The tables of the run's report: those it has figures or a summary for, by id, with their code."""
    tables = dict(
        DailyFigures.objects.filter(run=run, table__isnull=False).values_list("table_id", "table_code")
    )
    tables |= dict(DailyTableSummary.objects.filter(run=run).values_list("table_id", "table__code"))
    return tables


def _point(day: date, row: dict | None) -> TrendPoint:
    if row is None:
        return TrendPoint(day=day)
    return TrendPoint(
        day=day,
        observed=row["observed_rtp"],
        low=row["ci99_low"],
        high=row["ci99_high"],
        theoretical=row["theoretical_rtp"],
        outside=row["outside_99"],
    )


def _trend_chart(
    run: ReportRun, table_id: int, code: str, kind: str, window: int, points: list[TrendPoint]
) -> ReportChart | None:
    """None when no day of the window has an observed RTP (figures without a wager)."""
    played = [point for point in points if point.observed is not None]
    if not played:
        return None
    chart = ReportChart(
        run=run,
        subject=ChartSubject.TREND,
        table_id=table_id,
        kind=kind,
        window_days=window,
        days=len(played),
        title=trend_title(code, kind, window, run.day),
        description=_trend_description(code, kind, window, played),
    )
    if len(played) == 1:
        chart.message = (
            f"One gaming day with figures ({played[0].day.isoformat()}) in these {window} days: "
            "the trend shows from the second."
        )
        return chart
    drawn = rtp_trend_svg(days_with_figures(points), title=chart.title)
    chart.svg, chart.width, chart.height = drawn.svg, drawn.width, drawn.height
    return chart


def _trend_description(code: str, kind: str, window: int, played: list[TrendPoint]) -> str:
    last = played[-1]
    outside = sum(point.outside for point in played)
    theoretical = "" if last.theoretical is None else f" against {last.theoretical:.2f} % theoretical"
    return (
        f"Observed RTP of {kind_label(kind)} at {code} on the {len(played)} of {window} gaming days with "
        f"figures, from {played[0].day.isoformat()} to {last.day.isoformat()}, each in its 99% interval, "
        f"with the theoretical RTP; {outside} day{'' if outside == 1 else 's'} outside the interval. "
        f"{last.day.isoformat()}: {last.observed:.2f} % observed{theoretical}."
    )


# --- hits against expected ----------------------------------------------------------------------


def _hits_charts(run: ReportRun) -> list[ReportChart]:
    exposures = list(DailyExposure.objects.filter(run=run).select_related("table"))
    exposures.sort(key=lambda row: (kind_order(row.kind), row.table.code))
    return [_hits_chart(run, exposure, position) for position, exposure in enumerate(exposures)]


def _hits_chart(run: ReportRun, exposure: DailyExposure, position: int) -> ReportChart:
    code, kind = exposure.table.code, exposure.kind
    rows = [
        PatternHits(
            pattern=pattern_label(hit["pattern"]),
            hits=int(hit["hits"]),
            expected=None if hit.get("expected") is None else float(hit["expected"]),
            expected_text=expected_text(hit.get("expected")),
            unlikely=is_unlikely(hit),
        )
        for hit in exposure.pattern_hits
    ]
    units = {hit_unit(hit) for hit in exposure.pattern_hits}
    chart = ReportChart(
        run=run,
        subject=ChartSubject.HITS,
        table=exposure.table,
        kind=kind,
        window_days=1,
        days=1,
        position=position,
        title=hits_title(code, kind),
        description=(
            f"Hits per pattern of {kind_label(kind)} at {code} against the number expected from the exact "
            f"odds, counted in {' and '.join(sorted(units)) or 'bets'}: "
            + "; ".join(f"{row.pattern} {row.hits:,} against {row.expected_text}" for row in rows)
            + "."
        ),
    )
    if not rows:
        chart.message = "No pattern figures for this option."
        return chart
    drawn = pattern_hits_svg(rows, title=chart.title)
    chart.svg, chart.width, chart.height = drawn.svg, drawn.width, drawn.height
    return chart
