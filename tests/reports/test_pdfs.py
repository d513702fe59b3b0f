"""The report PDFs, read back as text with pypdf: the cover states the day, time zone, cut-off, tables and
how the report was made; every stored figure appears as stored; pages are numbered "page X of Y";
the recorded checksum, size and page count are the file's; the charts are the run's stored SVG."""

import hashlib
import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
import weasyprint
from django.db import transaction
from django.test import override_settings

from blackjack.rules import pattern_label
from config.celery import app
from core.money import money_text
from reports.models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportDocument,
    ReportRun,
    RunStatus,
)
from reports.pdf import (
    document_file,
    expected_text,
    kind_label,
    p_value_text,
    pitboss_version,
    report_html,
    rtp_text,
)
from reports.services import report_run_start
from reports.tasks import daily_report_job
from tests.pdf_text import pdf_page_count, pdf_pages
from tests.reports.test_jobs import DAY, demo_day_ingest


def line_with(pages: list[str], *parts: str) -> str | None:
    """The first line of any page holding every one of `parts`, in that order."""
    pattern = re.compile(".*".join(re.escape(part) for part in parts))
    for page in pages:
        for line in page.splitlines():
            if pattern.search(line):
                return line
    return None


@dataclass
class Reported:
    """What the module's one run made, kept after its transaction is rolled back."""

    run: ReportRun
    figures: list[DailyFigures]
    summaries: list[DailyTableSummary]
    exposures: list[DailyExposure]
    documents: dict[str, ReportDocument]
    html: dict[str, str]
    reports_dir: Path

    def pages(self, kind: str) -> list[str]:
        return pdf_pages(self.reports_dir / self.documents[kind].path)


@pytest.fixture(scope="module")
def reported(django_db_setup, django_db_blocker, tmp_path_factory) -> Reported:
    """One played day, run once for the whole module (the job and both PDFs take seconds): eagerly,
    inside a transaction rolled back at the end so that the tests' database stays empty."""
    reports_dir = tmp_path_factory.mktemp("reports")
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        with django_db_blocker.unblock(), override_settings(PITBOSS_REPORTS_DIR=reports_dir):
            with transaction.atomic():
                demo_day_ingest()
                run = report_run_start(day=DAY, trigger="command")
                daily_report_job.delay(run.pk)  # what the start queues when it commits
                run.refresh_from_db()
                assert run.status == RunStatus.SUCCEEDED, run.error
                result = Reported(
                    run=run,
                    figures=list(DailyFigures.objects.filter(day=DAY)),
                    summaries=list(DailyTableSummary.objects.filter(day=DAY).select_related("table")),
                    exposures=list(DailyExposure.objects.filter(day=DAY).select_related("table")),
                    documents={
                        document.kind: document for document in ReportDocument.objects.filter(day=DAY)
                    },
                    html={kind: report_html(run, kind) for kind in ("daily_rtp", "exposure")},
                    reports_dir=reports_dir,
                )
                transaction.set_rollback(True)
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved
    return result


@pytest.mark.parametrize("kind", ["daily_rtp", "exposure"])
def test_the_cover_states_the_day_time_zone_cutoff_tables_and_how_it_was_made(reported, kind):
    cover = reported.pages(kind)[0]
    assert f"Gaming day {DAY}" in cover
    assert (
        "From 06:00 on Mon 2 Mar 2026 to 06:00 on Tue 3 Mar 2026, Europe/Malta time (cut-off 06:00)" in cover
    )
    for code in ("DLX1", "CLS1"):
        assert code in cover
    run = reported.run
    assert f"daily run {run.pk}, the day's 1st run (manage.py report)" in cover
    assert len(run.figures_sha256) == 64 and run.figures_sha256 in "".join(cover.split())
    assert f"Pitboss {pitboss_version()}, WeasyPrint {weasyprint.__version__}" in cover


def test_the_rtp_report_shows_every_stored_figure_as_stored(reported):
    pages = reported.pages("daily_rtp")
    assert reported.figures
    for row in reported.figures:
        line = line_with(
            pages,
            kind_label(row.kind),
            f"{row.rounds:,}",
            money_text(row.wagered),
            money_text(row.returned),
            money_text(row.gross_gaming_revenue),
            rtp_text(row.observed_rtp),
            rtp_text(row.theoretical_rtp),
        )
        assert line is not None, f"{row} is not in the PDF"
        assert ("outside 99%" in line) == row.outside_99


def test_each_table_has_its_page_with_its_figures_and_flags(reported):
    pages = reported.pages("daily_rtp")
    for summary in reported.summaries:
        code = summary.table.code
        (page,) = [page for page in pages if re.search(rf"^\s*{code} · ", page, re.MULTILINE)]
        for row in reported.figures:
            if row.table_code == code:
                assert line_with([page], kind_label(row.kind), money_text(row.wagered))
        if summary.cancelled_rounds:
            assert f"{summary.cancelled_rounds} cancelled round" in page
        for finding, count in summary.finding_codes.items():
            assert line_with([page], finding, str(count))
        text = " ".join(page.split())
        if any(row.table_code == code for row in reported.figures):
            assert f"{code} Main: RTP, 30 days to {DAY}" in text  # its trend (one day: a message)
        else:
            assert "No figures at this table in these 30 days: no trend." in text


def test_the_classic_day_counts_cancelled_rounds_and_findings_apart_from_the_rtp_flag(reported):
    (classic,) = [summary for summary in reported.summaries if summary.table.code == "CLS1"]
    assert classic.cancelled_rounds > 0 and classic.money_findings > 0
    outside = [row for row in reported.figures if row.table_code == "CLS1" and row.outside_99]
    assert classic.flagged == bool(outside) and classic.kinds_outside_99 == len(outside)
    (page,) = [page for page in reported.pages("daily_rtp") if re.search(r"^\s*CLS1 · ", page, re.MULTILINE)]
    text = " ".join(page.split())
    assert f"{classic.money_findings} money finding" in text
    assert ("Theoretical RTP outside the 99% interval" in text) == classic.flagged


def test_the_exposure_report_shows_each_side_option_per_table_as_stored(reported):
    pages = reported.pages("exposure")
    assert reported.exposures
    for row in reported.exposures:
        code = row.table.code
        assert line_with(
            pages, code, money_text(row.stakes), money_text(row.returned), money_text(row.liability_total)
        ), f"{row} is not in the summary table"
        (page,) = [page for page in pages if f"{kind_label(row.kind)} · {code}" in page]
        for hit in row.pattern_hits:
            assert line_with(
                [page],
                pattern_label(hit["pattern"]),
                str(hit["hits"]),
                expected_text(hit["expected"]),
                p_value_text(hit["p_value"]),
            )
        for player in row.top_players[:10]:
            assert line_with([page], str(player["player"]), money_text(player["liability"]))


@pytest.mark.parametrize("kind", ["daily_rtp", "exposure"])
def test_every_page_is_numbered_page_x_of_y(reported, kind):
    pages = reported.pages(kind)
    assert len(pages) == reported.documents[kind].pages >= 2
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in page


@pytest.mark.parametrize("kind", ["daily_rtp", "exposure"])
def test_the_recorded_checksum_size_and_pages_are_the_files(reported, kind):
    document = reported.documents[kind]
    with override_settings(PITBOSS_REPORTS_DIR=reported.reports_dir):
        path = document_file(document)
    assert path == reported.reports_dir / str(DAY) / f"{kind}-{DAY}-run-{reported.run.pk}.pdf"
    content = path.read_bytes()
    assert content.startswith(b"%PDF-")
    assert hashlib.sha256(content).hexdigest() == document.sha256
    assert len(content) == document.size
    assert pdf_page_count(path) == document.pages
    assert document.run_id == reported.run.pk


def test_the_charts_are_the_runs_stored_charts_in_the_html(reported):
    """The charts the run stored (reports.run_charts), as data: URLs; tests/reports/test_chart_runs.py
    has days enough for trends."""
    daily = reported.html["daily_rtp"]
    played = [row for row in reported.figures if row.table_id and row.observed_rtp is not None]
    assert daily.count("One gaming day with figures") == len(played)  # a trend per table and kind
    exposure = reported.html["exposure"]
    assert exposure.count('src="data:image/svg+xml;base64,') == len(reported.exposures)  # hits per option
    assert "hits against expected" in "".join(reported.pages("exposure"))  # the SVG's text
    assert "http://" not in daily + exposure and "https://" not in daily + exposure


@pytest.mark.django_db
def test_a_day_without_play_still_makes_both_pdfs(settings, tmp_path, django_capture_on_commit_callbacks):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    demo_day_ingest()
    quiet = DAY - timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        run = report_run_start(day=quiet, trigger="portal")
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED, run.error
    documents = ReportDocument.objects.filter(day=quiet)
    assert documents.count() == 2
    for document in documents:
        pages = pdf_pages(tmp_path / document.path)
        assert f"Gaming day {quiet}" in pages[0]
        assert f"page {len(pages)} of {len(pages)}" in pages[-1]
    daily = pdf_pages(tmp_path / documents.get(kind="daily_rtp").path)
    assert sum("No bets at this table on this gaming day." in page for page in daily) == 4
    # The played day comes after: no table has figures in the 30 days to this one.
    assert report_html(run, "daily_rtp").count("No figures at this table in these 30 days: no trend.") == 4
    exposure = "".join(pdf_pages(tmp_path / documents.get(kind="exposure").path))
    assert "No side option was staked on this gaming day." in exposure
