"""A task of the daily job delivered twice in a row, eagerly (no worker; SQLite or PostgreSQL): Celery's
acks_late delivers a task again when its worker is lost after the work and before the acknowledgement,
and the outbox sends a message again when a process dies after sending it. Delivered again after the
run ended, the finish, the job and a table task change nothing; a finish lost half-way and delivered
again ends the run once, with one set of figures, charts and PDFs, as the day's current run. Twice at
once, on a real worker: test_jobs_twice_worker.py."""

import hashlib
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings

import reports.pdf
from reports.models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportChart,
    ReportDocument,
    ReportKind,
    ReportRun,
    RunStatus,
    RunTrigger,
)
from reports.pdf import document_file
from reports.records import current_run, figures_digest, ordinal
from reports.services import report_run_tables_set
from reports.tasks import daily_report_finish, daily_report_job, daily_report_table
from tables.models import Table
from tests.pdf_text import pdf_text
from tests.reports.test_jobs import DAY, demo_day_ingest, stored_rows

pytestmark = pytest.mark.django_db


class WorkerLost(BaseException):
    """What a worker killed in the middle of a task leaves: no failure recorded, no acknowledgement."""


# --- shared with test_jobs_twice_worker.py ---------------------------------------------------------


def run_with_tables_done(day: date) -> ReportRun:
    """A new run of the day whose table tasks have run (here, in this process) and whose finish has
    not: what the chord hands to its finish. Made without `report_run_start`, which queues the job."""
    run = ReportRun.objects.create(
        day=day,
        number=ReportRun.objects.filter(day=day).count() + 1,
        trigger=RunTrigger.COMMAND,
        time_zone=settings.PITBOSS_GAMING_DAY_TIME_ZONE,
        cutoff=settings.PITBOSS_GAMING_DAY_CUTOFF,
    )
    tables = list(Table.objects.order_by("code").values_list("pk", flat=True))
    for table_id in tables:
        assert daily_report_table.apply(args=(run.pk, table_id)).get() is not None
    report_run_tables_set(run_id=run.pk, tables=len(tables))
    return run


def chart_keys(run: ReportRun) -> list[tuple]:
    """The run's charts, one a row: what each shows and where (not the SVG, whose ids matplotlib draws
    at random)."""
    fields = ("subject", "table_id", "kind", "window_days", "days", "position", "title", "message")
    return sorted(ReportChart.objects.filter(run=run).values_list(*fields))


def run_state(run: ReportRun) -> dict:
    """Everything the run stored, ids and timestamps included, and its PDFs' bytes: unchanged by a
    task delivered again after the run ended."""
    run = ReportRun.objects.get(pk=run.pk)
    documents = ReportDocument.objects.filter(run=run).order_by("kind")
    return {
        "run": (run.status, run.error, run.finished_at, run.figures_sha256, run.superseded_by_id, run.tables),
        "rows": {
            model.__name__: sorted(model.objects.filter(run=run).values_list("pk", flat=True))
            for model in (DailyFigures, DailyTableSummary, DailyExposure)
        },
        "charts": sorted(ReportChart.objects.filter(run=run).values_list("pk", "svg")),
        "documents": list(documents.values_list("pk", "kind", "path", "sha256", "size", "generated_at")),
        "files": {document.path: document_file(document).read_bytes() for document in documents},
    }


def assert_done_once(run: ReportRun, earlier: ReportRun, reports_dir: Path) -> None:
    """The run ended succeeded, once, as the day's current run, superseding `earlier` (a run of the same
    day, run once): the same figures and charts as it, one of each, both PDFs (their checksums the
    files', their text readable, naming the run), no temporary file, and no failure anywhere."""
    run.refresh_from_db()
    earlier.refresh_from_db()
    assert (run.status, run.error, run.superseded_by_id) == (RunStatus.SUCCEEDED, "", None)
    assert run.finished_at is not None
    assert current_run(run.day) == run and earlier.superseded_by_id == run.pk
    assert not ReportRun.objects.filter(status__in=[RunStatus.FAILED, RunStatus.RUNNING]).exists()
    assert stored_rows(run) == stored_rows(earlier)  # one set of figures, the day's
    assert run.figures_sha256 == figures_digest(run) == earlier.figures_sha256 != ""
    charts = chart_keys(run)
    assert charts == chart_keys(earlier) and len(charts) == len(set(charts)) > 0
    assert len({(subject, table, kind, window) for subject, table, kind, window, *_ in charts}) == len(charts)
    documents = ReportDocument.objects.filter(run=run).order_by("kind")
    assert [document.kind for document in documents] == sorted(ReportKind.values)
    for document in documents:
        path = document_file(document)
        content = path.read_bytes()
        assert hashlib.sha256(content).hexdigest() == document.sha256 and len(content) == document.size
        text = pdf_text(path)
        assert f"daily run {run.pk}, the day's {ordinal(run.number)} run" in " ".join(text.split())
        assert run.figures_sha256 in "".join(text.split())
    files = sorted(path.name for path in (reports_dir / run.day.isoformat()).iterdir())
    assert files == sorted(  # and no temporary file left
        f"{kind}-{run.day}-run-{each.pk}.pdf" for kind in ReportKind.values for each in (earlier, run)
    )


# --- eagerly ---------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def reports_dir(settings, tmp_path) -> Path:
    settings.PITBOSS_REPORTS_DIR = tmp_path / "reports"
    return settings.PITBOSS_REPORTS_DIR


@pytest.fixture
def day_run_once(db) -> ReportRun:
    """The played day, run once: the day's current run, which a second run supersedes."""
    assert demo_day_ingest() > 0
    run = run_with_tables_done(DAY)
    assert daily_report_finish.apply(args=([], run.pk)).get() is not None
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED and current_run(DAY) == run
    return run


def test_the_finish_delivered_again_after_the_run_ended_changes_nothing(day_run_once, reports_dir):
    run = run_with_tables_done(DAY)
    finished = daily_report_finish.apply(args=([], run.pk)).get()
    assert finished["run"] == run.pk and len(finished["pdfs"]) == 2
    done = run_state(run)
    assert daily_report_finish.apply(args=([], run.pk)).get() is None
    assert daily_report_finish.apply(args=([], run.pk)).get() is None
    assert run_state(run) == done
    assert_done_once(run, day_run_once, reports_dir)


def test_the_job_and_a_table_task_delivered_again_after_the_run_ended_change_nothing(
    day_run_once, reports_dir
):
    run = run_with_tables_done(DAY)
    daily_report_finish.apply(args=([], run.pk)).get()
    done = run_state(run)
    table = Table.objects.get(code="DLX1")
    assert daily_report_job.apply(args=(run.pk,)).get() == 0
    assert daily_report_table.apply(args=(run.pk, table.pk)).get() is None
    assert run_state(run) == done
    assert_done_once(run, day_run_once, reports_dir)


def test_a_finish_lost_half_way_and_delivered_again_ends_the_run_once(day_run_once, reports_dir, monkeypatch):
    """The first delivery's worker is lost after one PDF: the second makes the run as if it had been the
    only one."""
    run = run_with_tables_done(DAY)
    real = reports.pdf.documents_render

    def lost_after_one_pdf(run):
        reports.pdf.document_render(run, ReportKind.DAILY_RTP)
        raise WorkerLost

    monkeypatch.setattr(reports.pdf, "documents_render", lost_after_one_pdf)
    with pytest.raises(WorkerLost):
        daily_report_finish.apply(args=([], run.pk))
    run.refresh_from_db()
    assert (run.status, run.error) == (RunStatus.RUNNING, "")  # nobody knows yet
    assert current_run(DAY) == day_run_once

    monkeypatch.setattr(reports.pdf, "documents_render", real)
    assert daily_report_finish.apply(args=([], run.pk)).get()["run"] == run.pk
    assert_done_once(run, day_run_once, reports_dir)
    assert daily_report_finish.apply(args=([], run.pk)).get() is None
