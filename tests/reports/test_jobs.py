"""The daily job, eagerly (no worker): a run for a closed day computes every table and both PDFs and
records who started it, how long it took and how it ended; open days and running days are refused;
a failing table fails the run; running a day again writes the new run's rows and files beside the
first run's, which it supersedes; beat starts a day
once; `manage.py report daily` prints the outcome and exits accordingly."""

import hashlib
import json
from datetime import date, timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.utils import timezone

import reports.daily
from blackjack.rules import preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day, last_closed_gaming_day
from reports.models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportDocument,
    ReportRun,
    RunStatus,
)
from reports.services import report_run_start
from reports.tasks import BEAT_ATTEMPTS_PER_DAY, daily_reports_when_day_closed
from rounds.ingest import round_ingest
from rounds.models import Round
from tables.models import Table
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force
from tests.factories import user

DAY = date(2026, 3, 2)
# Each (table, players, seed): one shoe; the classic table also gets planted wrong payouts and
# cancelled rounds, so that its day has findings, an incident and flags.
SHOES = (("DLX1", 3, 11, 0.0, 0.0), ("CLS1", 3, 12, 0.05, 0.05))

pytestmark = pytest.mark.django_db


# --- test data, also used by test_pdfs.py and test_jobs_worker.py ------------------------------


def demo_day_ingest(day: date = DAY) -> int:
    """seed_demo's tables (with their theoretical odds kept), and a shoe of simulated rounds at DLX1
    and at CLS1 sent through the real ingest, inside the gaming day. Returns the rounds stored."""
    call_command("seed_demo", stdout=StringIO())
    start = gaming_day(day).starts_at + timedelta(hours=2)
    for code, players, seed, wrong_payout_rate, cancel_rate in SHOES:
        table = Table.objects.get(code=code)
        configuration_odds_compute(configuration=configuration_in_force(table))
        for document in simulate(
            preset(table.game),
            table=code,
            shoes=1,
            players=players,
            seed=seed,
            start=start,
            wrong_payout_rate=wrong_payout_rate,
            cancel_rate=cancel_rate,
        ):
            round_ingest(document=json.loads(json.dumps(document)))
    return Round.objects.count()


def stored_rows(run: ReportRun) -> dict[str, list[tuple]]:
    """The run's daily rows, every value but the id and run: what a second run of an unchanged day
    must reproduce exactly."""
    rows = {}
    for model in (DailyFigures, DailyTableSummary, DailyExposure):
        fields = [field.attname for field in model._meta.concrete_fields if field.name not in ("id", "run")]
        rows[model.__name__] = sorted(
            model.objects.filter(run=run).values_list(*fields), key=lambda row: json.dumps(row, default=str)
        )
    return rows


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def reports_dir(settings, tmp_path) -> Path:
    settings.PITBOSS_REPORTS_DIR = tmp_path / "reports"
    return settings.PITBOSS_REPORTS_DIR


@pytest.fixture
def day_played(db) -> date:
    assert demo_day_ingest() > 0
    return DAY


@pytest.fixture
def run_day(django_capture_on_commit_callbacks):
    """Start a run as the portal would and let the job run (eagerly) when the start commits."""

    def run(day: date, trigger: str = "portal", started_by=None) -> ReportRun:
        with django_capture_on_commit_callbacks(execute=True):
            started = report_run_start(day=day, trigger=trigger, started_by=started_by)
        started.refresh_from_db()
        return started

    return run


# --- a run -------------------------------------------------------------------------------------


def test_a_run_for_a_played_day_succeeds_and_records_who_when_how_long(day_played, run_day):
    supervisor = user("supervisor", username="pit-supervisor")
    before = timezone.now()
    run = run_day(day_played, started_by=supervisor)
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert (run.trigger, run.started_by, run.error) == ("portal", supervisor, "")
    assert run.started_at >= before and run.finished_at >= run.started_at
    assert run.seconds is not None and run.seconds > 0
    assert (run.time_zone, run.cutoff.strftime("%H:%M")) == ("Europe/Malta", "06:00")
    assert run.tables == Table.objects.count() == 4
    played = {"DLX1", "CLS1"}
    assert set(DailyTableSummary.objects.filter(day=DAY).values_list("table__code", flat=True)) >= played
    assert set(DailyFigures.objects.filter(day=DAY, run=run).values_list("table_code", flat=True)) >= played
    assert DailyFigures.objects.filter(day=DAY, table=None).exists()  # the totals ran after the tables
    documents = ReportDocument.objects.filter(day=DAY, run=run)
    assert sorted(documents.values_list("kind", flat=True)) == ["daily_rtp", "exposure"]


def test_it_refuses_a_gaming_day_that_has_not_closed_naming_the_day(db):
    today = last_closed_gaming_day() + timedelta(days=1)
    with pytest.raises(ValidationError) as refused:
        report_run_start(day=today, trigger="portal")
    assert "day" in refused.value.message_dict
    assert "not closed" in refused.value.message_dict["day"][0]
    assert not ReportRun.objects.exists()


def test_it_refuses_a_day_whose_run_is_still_running_naming_the_day(db, run_day):
    running = ReportRun.objects.create(day=DAY, trigger="beat", time_zone="Europe/Malta", cutoff="06:00")
    with pytest.raises(ValidationError) as refused:
        run_day(DAY)
    assert f"Run {running.pk}" in refused.value.message_dict["day"][0]
    assert ReportRun.objects.count() == 1


def test_a_run_left_running_for_hours_is_taken_as_failed_and_the_day_runs_again(db, run_day):
    lost = ReportRun.objects.create(day=DAY, trigger="beat", time_zone="Europe/Malta", cutoff="06:00")
    ReportRun.objects.filter(pk=lost.pk).update(started_at=timezone.now() - timedelta(hours=3))
    run = run_day(DAY)
    lost.refresh_from_db()
    assert lost.status == RunStatus.FAILED and "worker was lost" in lost.error
    assert run.status == RunStatus.SUCCEEDED


def test_a_failing_table_task_marks_the_run_failed_with_the_error(day_played, run_day, monkeypatch):
    real = reports.daily.table_day_compute
    totals = []

    def table_day_compute(*, table, day, run, **options):
        if table.code == "CLS1":
            raise ValueError("no figures for you")
        real(table=table, day=day, run=run, **options)

    monkeypatch.setattr(reports.daily, "table_day_compute", table_day_compute)
    monkeypatch.setattr(reports.daily, "totals_compute", lambda **kwargs: totals.append(kwargs))
    run = run_day(day_played)
    assert run.status == RunStatus.FAILED
    assert run.error == "Table CLS1: ValueError: no figures for you"
    assert run.finished_at is not None
    assert totals == []  # the chord never reached the finish task
    assert not ReportDocument.objects.exists()


def test_run_eagerly_a_database_error_fails_the_run_at_once(day_played, run_day, monkeypatch):
    """Without a broker Celery cannot retry (an eager task raises its retry); a worker retries:
    test_jobs_worker.py."""
    calls = []

    def table_day_compute(*, table, day, run, **options):
        calls.append(table.code)
        raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(reports.daily, "table_day_compute", table_day_compute)
    run = run_day(day_played)
    assert run.status == RunStatus.FAILED
    assert run.error == "Table BND1: OperationalError: the database system is shutting down"
    assert calls == ["BND1"]


def test_without_a_result_backend_the_tables_run_one_after_another(day_played, run_day, monkeypatch):
    real = reports.daily.table_day_compute
    order = []

    def table_day_compute(*, table, day, run, **options):
        order.append(table.code)
        real(table=table, day=day, run=run, **options)

    monkeypatch.setattr(reports.daily, "table_day_compute", table_day_compute)
    monkeypatch.setattr("reports.tasks.chords_possible", lambda: False)
    run = run_day(day_played)
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert order == ["BND1", "CLS1", "DLX1", "MPB1"]
    assert ReportDocument.objects.filter(run=run).count() == 2


def test_running_a_day_twice_keeps_both_runs_figures_and_pdfs_the_second_superseding(
    day_played, run_day, reports_dir
):
    first = run_day(day_played)
    rows = stored_rows(first)
    files = sorted(path.name for path in reports_dir.rglob("*") if path.is_file())
    assert files == [f"daily_rtp-{DAY}-run-{first.pk}.pdf", f"exposure-{DAY}-run-{first.pk}.pdf"]

    second = run_day(day_played)
    first.refresh_from_db()
    assert second.status == RunStatus.SUCCEEDED, second.error
    assert stored_rows(second) == rows == stored_rows(first)  # the same day, the same figures
    assert (first.superseded_by, second.superseded_by) == (second, None)
    assert first.figures_sha256 == second.figures_sha256 != ""
    files = sorted(path.name for path in reports_dir.rglob("*") if path.is_file())
    assert files == sorted(  # and no temporary file left
        f"{kind}-{DAY}-run-{run.pk}.pdf" for kind in ("daily_rtp", "exposure") for run in (first, second)
    )
    documents = ReportDocument.objects.filter(day=DAY)
    assert documents.count() == 4 and set(documents.values_list("run", flat=True)) == {first.pk, second.pk}
    for document in documents:
        content = (reports_dir / document.path).read_bytes()
        assert hashlib.sha256(content).hexdigest() == document.sha256 and len(content) == document.size


# --- Celery beat ---------------------------------------------------------------------------------


@pytest.fixture
def beat(django_capture_on_commit_callbacks, monkeypatch):
    """Beat's task as if DAY were the last closed gaming day."""
    monkeypatch.setattr("reports.tasks.last_closed_gaming_day", lambda: DAY)

    def tick() -> int | None:
        with django_capture_on_commit_callbacks(execute=True):
            return daily_reports_when_day_closed.delay().get()

    return tick


def test_beat_starts_the_last_closed_day_once(day_played, beat):
    run_id = beat()
    run = ReportRun.objects.get(pk=run_id)
    assert (run.day, run.trigger, run.started_by, run.status) == (DAY, "beat", None, RunStatus.SUCCEEDED)
    assert beat() is None
    assert beat() is None
    assert ReportRun.objects.count() == 1


def test_beat_leaves_a_day_whose_run_is_running(db, beat):
    ReportRun.objects.create(day=DAY, trigger="portal", time_zone="Europe/Malta", cutoff="06:00")
    assert beat() is None
    assert ReportRun.objects.count() == 1


def test_beat_tries_a_failed_day_again_but_not_endlessly(db, beat, monkeypatch):
    def table_day_compute(**kwargs):
        raise ValueError("broken")

    monkeypatch.setattr(reports.daily, "table_day_compute", table_day_compute)
    call_command("seed_demo", stdout=StringIO())
    started = [beat() for _ in range(BEAT_ATTEMPTS_PER_DAY + 2)]
    assert all(started[:BEAT_ATTEMPTS_PER_DAY]) and started[BEAT_ATTEMPTS_PER_DAY:] == [None, None]
    assert ReportRun.objects.filter(status=RunStatus.FAILED).count() == BEAT_ATTEMPTS_PER_DAY


# --- manage.py report daily ------------------------------------------------------------------------
# The command waits for the run it starts, which (without a broker) runs when the start commits: these
# tests commit for real.


def report(*arguments: str) -> str:
    out = StringIO()
    call_command("report", *arguments, stdout=out)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_command_runs_a_day_and_prints_outcome_seconds_and_pdfs(day_played, reports_dir):
    output = report("daily", "--date", DAY.isoformat())
    run = ReportRun.objects.get()
    assert run.trigger == "command" and run.status == RunStatus.SUCCEEDED
    assert f"Run {run.pk} for the gaming day {DAY} (Europe/Malta, cut-off 06:00): started." in output
    assert f"Run {run.pk} succeeded in {run.seconds:.1f} s (4 tables)." in output
    for kind in ("daily_rtp", "exposure"):
        path = reports_dir / DAY.isoformat() / f"{kind}-{DAY}-run-{run.pk}.pdf"
        assert f": {path} (" in output and path.is_file()


@pytest.mark.django_db(transaction=True)
def test_the_command_runs_the_last_closed_day_by_default():
    call_command("seed_demo", stdout=StringIO())
    output = report("daily")
    run = ReportRun.objects.get()
    assert run.day == last_closed_gaming_day()
    assert f"Run {run.pk} succeeded" in output


def test_the_command_refuses_an_open_day_with_exit_code_2_naming_the_field(db):
    today = last_closed_gaming_day() + timedelta(days=1)
    with pytest.raises(CommandError) as refused:
        report("daily", "--date", today.isoformat())
    assert refused.value.returncode == 2
    assert str(refused.value).startswith("Refused. day: The gaming day")
    assert not ReportRun.objects.exists()


def test_the_command_refuses_a_date_that_is_not_one(db):
    with pytest.raises(CommandError) as refused:
        report("daily", "--date", "2026-02-30")
    assert refused.value.returncode == 2 and str(refused.value).startswith("date:")


@pytest.mark.django_db(transaction=True)
def test_the_command_exits_1_with_the_error_when_the_run_fails(day_played, monkeypatch):
    def table_day_compute(**kwargs):
        raise ValueError("broken")

    monkeypatch.setattr(reports.daily, "table_day_compute", table_day_compute)
    with pytest.raises(CommandError) as failed:
        report("daily", "--date", DAY.isoformat())
    run = ReportRun.objects.get()
    assert failed.value.returncode == 1
    assert (
        str(failed.value) == f"Run {run.pk} failed after {run.seconds:.1f} s: Table BND1: ValueError: broken"
    )
