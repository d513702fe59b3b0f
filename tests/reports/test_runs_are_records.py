"""An issued report is a record: running a day again keeps the first run's figures and PDFs as they
were (readable, downloadable, their checksums the files'), and marks that run superseded by the new
one. The pages and PDFs name the run that made the figures, and say when a correction recorded after
it started makes it stale, with a button to run the day again."""

import hashlib
import html
import json

import pytest
from django.urls import reverse

from reports.models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportDocument,
    ReportRun,
    RunStatus,
)
from reports.records import figures_digest
from reports.services import report_run_start
from rounds import services
from rounds.models import Round
from tests import factories
from tests.pdf_text import pdf_text
from tests.reports.corrections import resettle, void
from tests.reports.test_jobs import DAY, demo_day_ingest

pytestmark = pytest.mark.django_db
MODELS = (DailyFigures, DailyTableSummary, DailyExposure)


@pytest.fixture(autouse=True)
def reports_dir(settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path / "reports"
    return settings.PITBOSS_REPORTS_DIR


@pytest.fixture
def run_day(django_capture_on_commit_callbacks):
    def run(trigger: str = "portal", started_by=None) -> ReportRun:
        with django_capture_on_commit_callbacks(execute=True):
            started = report_run_start(day=DAY, trigger=trigger, started_by=started_by)
        started.refresh_from_db()
        assert started.status == RunStatus.SUCCEEDED, started.error
        return started

    return run


def rows_of(run: ReportRun) -> dict[str, list]:
    """The run's stored rows, every value but the id."""
    rows = {}
    for model in MODELS:
        fields = [field.attname for field in model._meta.concrete_fields if field.name != "id"]
        values = model.objects.filter(run=run).values_list(*fields)
        rows[model.__name__] = sorted(values, key=lambda row: json.dumps(row, default=str))
    return rows


def page(client, name: str, **query) -> str:
    """The page's text with its entities read (the day&#x27;s -> the day's)."""
    return html.unescape(client.get(reverse(name), query).content.decode())


def wrongly_paid_classic_round() -> Round:
    rounds = Round.objects.filter(
        table__code="CLS1", gaming_day=DAY, status="completed", correction__isnull=True
    ).order_by("pk")
    return next(round_ for round_ in rounds if services.bets_to_adjust(round_).exists())


@pytest.fixture
def two_runs(run_day, reports_dir):
    """The day run by compliance, a re-settlement approved, then the day run again."""
    demo_day_ingest()
    first = run_day(started_by=factories.user("compliance"))
    before = {
        "rows": rows_of(first),
        "documents": {d.kind: d for d in ReportDocument.objects.filter(run=first)},
    }
    before["texts"] = {kind: pdf_text(reports_dir / d.path) for kind, d in before["documents"].items()}
    resettled = wrongly_paid_classic_round()
    resettle(resettled)
    second = run_day(trigger="command")
    first.refresh_from_db()
    return {"first": first, "second": second, "before": before, "resettled": resettled}


def test_a_rerun_keeps_the_first_runs_figures_and_pdfs_unchanged(two_runs, reports_dir):
    first, second, before = two_runs["first"], two_runs["second"], two_runs["before"]
    assert rows_of(first) == before["rows"] and before["rows"]["DailyFigures"]
    # The second run counts the re-settlement; the first run's figures stay as issued.
    classic = {
        run: DailyFigures.objects.get(run=run, table_code="CLS1", kind="main") for run in (first, second)
    }
    assert classic[second].returned != classic[first].returned
    documents = ReportDocument.objects.filter(day=DAY)
    assert documents.count() == 4
    assert {d.run_id for d in documents} == {first.pk, second.pk}
    for kind, document in before["documents"].items():
        kept = ReportDocument.objects.get(run=first, kind=kind)
        assert (kept.path, kept.sha256, kept.size) == (document.path, document.sha256, document.size)
        content = (reports_dir / kept.path).read_bytes()
        assert hashlib.sha256(content).hexdigest() == kept.sha256 and len(content) == kept.size
        assert pdf_text(reports_dir / kept.path) == before["texts"][kind]
        newer = ReportDocument.objects.get(run=second, kind=kind)
        assert newer.path != kept.path and f"run-{second.pk}" in newer.path
        newer_content = (reports_dir / newer.path).read_bytes()
        assert hashlib.sha256(newer_content).hexdigest() == newer.sha256 != kept.sha256


def test_the_newer_run_supersedes_the_older_and_each_keeps_its_figures_checksum(two_runs):
    first, second = two_runs["first"], two_runs["second"]
    assert first.superseded_by == second and first.superseded_at >= second.started_at
    assert second.superseded_by is None and (first.number, second.number) == (1, 2)
    for run in (first, second):
        assert run.figures_sha256 == figures_digest(run) and len(run.figures_sha256) == 64
    assert first.figures_sha256 != second.figures_sha256


def test_both_runs_stay_downloadable(two_runs, client):
    client.force_login(factories.user("compliance"))
    for run in (two_runs["first"], two_runs["second"]):
        for document in ReportDocument.objects.filter(run=run):
            response = client.get(reverse("reports:document_download", args=[document.pk]))
            assert response.status_code == 200
            content = b"".join(response.streaming_content)
            assert hashlib.sha256(content).hexdigest() == document.sha256 == response["X-Checksum-SHA256"]
            assert f"run-{run.pk}" in response["Content-Disposition"]


def test_the_archive_lists_every_runs_documents(two_runs, client):
    client.force_login(factories.user("compliance"))
    archive = page(client, "reports:archive")
    for document in ReportDocument.objects.all():
        assert document.sha256 in archive
        assert reverse("reports:document_download", args=[document.pk]) in archive
    assert f"superseded by run {two_runs['second'].pk}" in archive


def test_the_pages_show_the_current_run_and_an_older_one_on_request(two_runs, client):
    first, second = two_runs["first"], two_runs["second"]
    client.force_login(factories.user("compliance"))
    for name in ("reports:daily_report", "reports:exposure_report"):
        current = page(client, name, day=DAY.isoformat())
        assert f"Figures of run {second.pk}" in current and "Superseded" not in current
        older = page(client, name, run=first.pk)
        assert f"Figures of run {first.pk}" in older
        assert f"Superseded by run {second.pk}" in older
        assert (
            reverse(
                "reports:document_download", args=[ReportDocument.objects.get(run=first, kind="daily_rtp").pk]
            )
            in older
        )
    # The table of figures is the run's: CLS1's main bet as each run computed it.
    for run in (first, second):
        main = DailyFigures.objects.get(run=run, table_code="CLS1", kind="main")
        shown = page(client, "reports:daily_report", run=run.pk, table="CLS1")
        assert f"{main.returned:,}" in shown
    api = client.get("/api/reports/daily-figures/", {"day": DAY.isoformat(), "table": "CLS1", "kind": "main"})
    assert [row["run"] for row in api.json()["results"]] == [second.pk]
    api = client.get("/api/reports/daily-figures/", {"run": first.pk, "table": "CLS1", "kind": "main"})
    assert [row["run"] for row in api.json()["results"]] == [first.pk]
    # A run that cannot be: the page shows the day's current run, the API names the field.
    assert f"Figures of run {second.pk}" in page(client, "reports:daily_report", run="9" * 30)
    assert "run" in client.get("/api/reports/daily-figures/", {"run": "9" * 30}).json()


def test_the_page_and_pdf_name_the_run_and_a_later_correction_makes_it_stale(
    two_runs, run_day, client, reports_dir
):
    first, second = two_runs["first"], two_runs["second"]
    client.force_login(factories.user("compliance"))
    older = page(client, "reports:daily_report", run=first.pk)
    # Run 1 was made before the re-settlement: stale, with the button to run the day again.
    assert "the day's 1st run" in older and "compliance-user" in older and "Portal" in older
    assert "Stale:" in older and "1 re-settled" in older
    assert f'action="{reverse("reports:run_start")}"' in older and "Run the day again" in older
    current = page(client, "reports:daily_report", day=DAY.isoformat())
    assert "the day's 2nd run" in current and "manage.py report" in current
    assert "Stale:" not in current
    cover = pdf_text(reports_dir / ReportDocument.objects.get(run=second, kind="daily_rtp").path)
    assert f"daily run {second.pk}, the day's 2nd run (manage.py report)" in cover
    assert "No correction recorded after the run started" in cover

    void(Round.objects.filter(table__code="DLX1", gaming_day=DAY, status="completed").first())
    stale = page(client, "reports:daily_report", day=DAY.isoformat())
    assert "Stale:" in stale and "1 voided" in stale and "re-settled" not in stale
    client.force_login(factories.user("supervisor", "supervisor-viewer"))
    assert "Run the day again" in page(client, "reports:daily_report")


def test_a_posted_rerun_from_the_page_starts_a_run_of_that_day(
    two_runs, client, django_capture_on_commit_callbacks
):
    client.force_login(factories.user("compliance"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:run_start"), {"day": DAY.isoformat()})
    assert response.status_code == 302
    third = ReportRun.objects.latest("pk")
    assert (third.day, third.number, third.status) == (DAY, 3, RunStatus.SUCCEEDED)
    second = ReportRun.objects.get(pk=two_runs["second"].pk)
    assert second.superseded_by == third
