"""The daily job draws each run's charts once (reports.run_charts) and stores them with the run: a
trend per table, bet kind and window over the days that have figures (a message for one day), the
hits of each side option; the PDFs embed those very charts, and their text reads back."""

import base64
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import transaction
from django.test import override_settings

from reports.models import (
    TREND_WINDOWS,
    ChartSubject,
    DailyExposure,
    DailyFigures,
    ReportChart,
    ReportDocument,
    ReportRun,
)
from reports.pdf import report_html
from reports.run_charts import hits_title, report_charts_draw, trend_title
from tests.pdf_text import pdf_pages
from tests.reports.chart_support import days_played, days_reported

# The module's runs are made once, in `charted`; the mark has pytest-django set up the test database
# (for the collected tests that carry it) even when only these tests run.
pytestmark = pytest.mark.django_db


@dataclass
class Charted:
    """What the module's runs made, kept after their transaction is rolled back."""

    run: ReportRun
    earlier: list[ReportRun]
    charts: list[ReportChart]
    kinds: dict[str, set[str]]  # table code -> the bet kinds with figures on any of the days
    exposures: list[DailyExposure]
    documents: dict[str, ReportDocument]
    html: dict[str, str]
    redrawn: list[tuple]
    reports_dir: Path

    def pages(self, kind: str) -> str:
        """The PDF's text, each page's lines joined with single spaces."""
        return " ".join(
            " ".join(page.split()) for page in pdf_pages(self.reports_dir / self.documents[kind].path)
        )

    def chart(self, subject: str, code: str, kind: str, window: int = 1) -> ReportChart:
        (chart,) = [
            chart
            for chart in self.charts
            if (chart.subject, chart.table.code, chart.kind, chart.window_days)
            == (subject, code, kind, window)
        ]
        return chart


def comparable(charts) -> list[tuple]:
    fields = ("subject", "table_id", "kind", "window_days", "position", "svg", "message")
    return sorted(tuple(getattr(chart, name) for name in fields) for chart in charts)


@pytest.fixture(scope="module")
def charted(django_db_setup, django_db_blocker, tmp_path_factory) -> Charted:
    """Three played days reported (the job and both PDFs take seconds), once for the module, inside a
    transaction rolled back at the end."""
    reports_dir = tmp_path_factory.mktemp("reports")
    with django_db_blocker.unblock(), override_settings(PITBOSS_REPORTS_DIR=reports_dir):
        with transaction.atomic():
            played = days_played(3)
            run = days_reported(played)
            charts = list(ReportChart.objects.filter(run=run).select_related("table"))
            kinds = {}
            for code, kind in DailyFigures.objects.exclude(table=None).values_list("table_code", "kind"):
                kinds.setdefault(code, set()).add(kind)
            report_charts_draw(run)  # as a task delivered twice would
            result = Charted(
                run=run,
                earlier=list(ReportRun.objects.exclude(pk=run.pk).order_by("day")),
                charts=charts,
                kinds=kinds,
                exposures=list(DailyExposure.objects.filter(run=run).select_related("table")),
                documents={document.kind: document for document in ReportDocument.objects.filter(run=run)},
                html={kind: report_html(run, kind) for kind in ("daily_rtp", "exposure")},
                redrawn=comparable(ReportChart.objects.filter(run=run)),
                reports_dir=reports_dir,
            )
            assert ReportChart.objects.filter(run__in=result.earlier).count() == 0
            transaction.set_rollback(True)
    return result


def test_every_kind_of_every_table_played_has_a_trend_in_each_window(charted):
    day = charted.run.day
    trends = [chart for chart in charted.charts if chart.subject == ChartSubject.TREND]
    assert {(chart.table.code, chart.kind) for chart in trends} == {
        (code, kind) for code, kinds in charted.kinds.items() for kind in kinds
    }
    for window in TREND_WINDOWS:
        of_window = [chart for chart in trends if chart.window_days == window]
        assert [chart.position for chart in sorted(of_window, key=lambda chart: chart.position)] == list(
            range(len(of_window))
        )
        main = charted.chart(ChartSubject.TREND, "DLX1", "main", window)
        assert (
            main.title
            == trend_title("DLX1", "main", window, day)
            == f"DLX1 Main: RTP, {window} days to {day}"
        )
        assert (main.days, main.message, main.width, main.height) == (3, "", 432, 240)
        assert main.svg.startswith("<?xml") and main.title in main.svg
        assert "3 of " in main.description and str(day) in main.description


def test_a_kind_with_one_day_of_figures_says_so_instead_of_a_chart(charted):
    one_day = charted.chart(ChartSubject.TREND, "CLS1", "main", TREND_WINDOWS[0])
    assert (one_day.days, one_day.svg, one_day.width) == (1, "", 0)
    assert one_day.message == (
        f"One gaming day with figures ({charted.run.day}) in these 30 days: the trend shows from the second."
    )
    assert not one_day.drawn


def test_each_side_option_has_its_hits_against_expected(charted):
    hits = [chart for chart in charted.charts if chart.subject == ChartSubject.HITS]
    assert {(chart.table_id, chart.kind) for chart in hits} == {
        (row.table_id, row.kind) for row in charted.exposures
    }
    for exposure in charted.exposures:
        chart = charted.chart(ChartSubject.HITS, exposure.table.code, exposure.kind)
        assert chart.title == hits_title(exposure.table.code, exposure.kind) and chart.drawn
        for hit in exposure.pattern_hits:
            assert f"{hit['hits']:,} against" in chart.description


def test_the_earlier_days_stored_figures_only(charted):
    assert [run.figures_only for run in charted.earlier] == [True, True]
    assert all(run.status == "succeeded" and not run.superseded_by_id for run in charted.earlier)
    assert not charted.run.figures_only and sorted(charted.documents) == ["daily_rtp", "exposure"]


def test_drawn_again_the_run_has_the_same_charts_not_more(charted):
    assert charted.redrawn == comparable(charted.charts)


def test_the_pdfs_embed_the_stored_charts_as_data_urls_and_load_nothing(charted):
    daily, exposure = charted.html["daily_rtp"], charted.html["exposure"]
    sources = re.findall(r'src="([^"]*)"', daily + exposure)
    assert sources and all(source.startswith("data:image/svg+xml;base64,") for source in sources)
    stored = {chart.svg for chart in charted.charts if chart.drawn}
    assert {base64.b64decode(source.split(",", 1)[1]).decode() for source in sources} <= stored
    thirty = [
        c for c in charted.charts if c.drawn and c.subject == ChartSubject.TREND and c.window_days == 30
    ]
    hits = [c for c in charted.charts if c.subject == ChartSubject.HITS]
    assert len(sources) == len(thirty) + len(hits)  # the PDF shows the 30-day trends, not the 90-day ones


def test_the_pdfs_read_back_with_the_chart_titles_and_the_one_day_message(charted):
    daily = charted.pages("daily_rtp")
    day = charted.run.day
    for kind in charted.kinds["DLX1"]:
        assert trend_title("DLX1", kind, 30, day) in daily  # the SVG's own title, as text in the PDF
    assert "observed" in daily and "99% interval" in daily  # its legend
    assert f"CLS1 Main: RTP, 30 days to {day}" in daily
    assert f"One gaming day with figures ({day}) in these 30 days" in daily
    assert "No figures at this table in these 30 days: no trend." in daily  # BND1 and MPB1 did not play
    exposure = charted.pages("exposure")
    for row in charted.exposures:
        assert hits_title(row.table.code, row.kind) in exposure
