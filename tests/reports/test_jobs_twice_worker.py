"""A task of the daily job delivered twice, on a real Celery worker through the Redis broker, against
PostgreSQL (as in CI): twice in a row (acks_late delivers a task again when its worker is lost after
the work and before the acknowledgement) and twice at once (two workers given the same message: here
a worker of two threads). Either way the run ends succeeded exactly once, with one set of figures,
charts and PDFs, as the day's current run, and no failure recorded anywhere.

The worker runs in threads of this process, so the tests' signal handlers reach its tasks: "at once"
is made certain by holding each delivery, before it runs, until its twin is running too."""

import threading
from collections import defaultdict

import pytest
from celery import current_task

import reports.tasks
from config.celery import app
from reports.models import ReportRun, RunStatus
from reports.records import current_run
from reports.services import report_run_start
from reports.tasks import (
    daily_report_finish,
    daily_report_job,
    daily_report_table,
    daily_reports_when_day_closed,
)
from rounds.totals import player_totals_catch_up
from tables.models import Table
from tests.reports.test_jobs import DAY, demo_day_ingest, stored_rows
from tests.reports.test_jobs_twice import assert_done_once, chart_keys, run_state, run_with_tables_done
from tests.reports.test_jobs_worker import RUN_TIMEOUT, finished

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]
TABLES = 4


def day_on_a_worker(settings, tmp_path, **worker):
    """The played day, committed, and a worker in threads of this process taking the broker's tasks."""
    from celery.contrib.testing import tasks  # noqa: F401  (registers celery.ping)
    from celery.contrib.testing.worker import start_worker

    settings.PITBOSS_REPORTS_DIR = tmp_path
    assert app.conf.task_always_eager is False
    assert demo_day_ingest() > 0
    # The day's bets in the players' totals, as beat's catch-up has them a minute after ingest: two
    # table tasks at once each catch up first, and one skips the rounds the other has claimed
    # (rounds.totals, SKIP LOCKED) and could count the day's players before those are added.
    player_totals_catch_up()
    app.control.purge()  # seed_demo's odds tasks: the played tables have theirs already
    with start_worker(app, perform_ping_check=True, ping_task_timeout=20, shutdown_timeout=30, **worker):
        yield DAY


@pytest.fixture
def day_on_one_worker(settings, tmp_path):
    """One task at a time: a task delivered again runs after the first delivery."""
    yield from day_on_a_worker(settings, tmp_path)


@pytest.fixture
def day_on_two_workers(settings, tmp_path):
    """Two tasks at a time, in two threads, each with its own database connection: two workers."""
    yield from day_on_a_worker(settings, tmp_path, pool="threads", concurrency=2)


class Deliveries:
    """The deliveries of the job, table and finish tasks the worker has started, by task name: each
    begins by looking at its run (reports.tasks._run_in_progress, before any write, in the code before
    issue 43 as after it). `at_once(task)` holds each delivery of `task` there until its twin runs too."""

    def __init__(self, monkeypatch):
        self.started: dict[str, list[str]] = defaultdict(list)
        self.changed = threading.Condition()
        self.meeting: tuple[str, threading.Barrier] | None = None
        self.gave_up: list[str] = []
        look = reports.tasks._run_in_progress

        def looking(run_id):
            name, task_id = current_task.name, current_task.request.id
            with self.changed:
                self.started[name].append(task_id)
                self.changed.notify_all()
                meeting = self.meeting
            if meeting is not None and meeting[0] == name:
                try:
                    meeting[1].wait(timeout=RUN_TIMEOUT)
                except threading.BrokenBarrierError:
                    self.gave_up.append(task_id)
            return look(run_id)

        monkeypatch.setattr(reports.tasks, "_run_in_progress", looking)

    def at_once(self, task, deliveries: int = 2) -> None:
        self.meeting = (task.name, threading.Barrier(deliveries))

    def results(self, task, deliveries: int) -> list:
        """The results of `task`'s deliveries, in the order they started, once `deliveries` have
        started (or RUN_TIMEOUT has passed) and each has ended."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.started[task.name]) >= deliveries, RUN_TIMEOUT)
            started = list(self.started[task.name])
        return [app.AsyncResult(task_id).get(timeout=RUN_TIMEOUT, propagate=False) for task_id in started]

    def forget(self) -> None:
        with self.changed:
            self.started.clear()


@pytest.fixture
def deliveries(monkeypatch) -> Deliveries:
    return Deliveries(monkeypatch)


def day_run_once(day, deliveries: Deliveries) -> ReportRun:
    """The day run once, the usual way: the day's current run, which a second run supersedes. Returns
    once its finish task has ended; its deliveries are then forgotten."""
    run = finished(report_run_start(day=day, trigger="command"))
    assert run.status == RunStatus.SUCCEEDED, run.error
    assert deliveries.results(daily_report_finish, 1)[0]["run"] == run.pk
    deliveries.forget()
    return run


def new_run(earlier: ReportRun) -> ReportRun:
    """A second run of the day, recorded as `report_run_start` records it, its job not sent yet."""
    return ReportRun.objects.create(
        day=earlier.day, number=2, trigger="command", time_zone=earlier.time_zone, cutoff=earlier.cutoff
    )


# --- twice at once ---------------------------------------------------------------------------------


def test_the_finish_delivered_twice_at_once_ends_the_run_once(day_on_two_workers, tmp_path, deliveries):
    earlier = day_run_once(day_on_two_workers, deliveries)
    run = run_with_tables_done(day_on_two_workers)
    deliveries.at_once(daily_report_finish)
    sent = [daily_report_finish.apply_async(([], run.pk)) for _ in range(2)]
    outcomes = [result.get(timeout=RUN_TIMEOUT, propagate=False) for result in sent]
    assert deliveries.gave_up == []
    # One delivery did the work; the other found the run ended, and did nothing.
    assert outcomes.count(None) == 1, outcomes
    (done,) = [outcome for outcome in outcomes if outcome is not None]
    assert (done["run"], len(done["pdfs"])) == (run.pk, 2)
    assert_done_once(run, earlier, tmp_path)


def test_a_table_task_delivered_twice_at_once_stores_its_rows_once(day_on_two_workers, deliveries):
    reference = run_with_tables_done(day_on_two_workers)
    run = new_run(reference)
    deliveries.at_once(daily_report_table)
    for code, table in sorted(Table.objects.in_bulk(field_name="code").items()):
        sent = [daily_report_table.apply_async((run.pk, table.pk)) for _ in range(2)]
        assert [result.get(timeout=RUN_TIMEOUT, propagate=False) for result in sent] == [code, code]
    assert deliveries.gave_up == []
    run.refresh_from_db()
    assert (run.status, run.error) == (RunStatus.RUNNING, "")
    assert stored_rows(run) == stored_rows(reference)


def test_the_job_delivered_twice_at_once_ends_the_run_once(day_on_two_workers, tmp_path, deliveries):
    earlier = day_run_once(day_on_two_workers, deliveries)
    run = new_run(earlier)
    deliveries.at_once(daily_report_job)
    for _ in range(2):
        daily_report_job.apply_async((run.pk,))
    # Both deliveries find the run running and fan out to every table; each fan-out ends in a finish:
    # the first to come ends the run, the second finds it ended.
    assert deliveries.results(daily_report_job, 2) == [TABLES, TABLES]
    tables = deliveries.results(daily_report_table, 2 * TABLES)
    finishes = deliveries.results(daily_report_finish, 2)
    assert deliveries.gave_up == []
    assert len(tables) == 2 * TABLES and not [table for table in tables if isinstance(table, Exception)]
    assert len(finishes) == 2 and finishes.count(None) == 1, finishes
    assert_done_once(run, earlier, tmp_path)


def test_beat_delivered_twice_at_once_starts_the_day_once(day_on_two_workers, monkeypatch):
    met, gave_up = threading.Barrier(2), []

    def last_closed_gaming_day():  # the first thing beat's task does, in either delivery
        try:
            met.wait(timeout=RUN_TIMEOUT)
        except threading.BrokenBarrierError:
            gave_up.append(current_task.request.id)
        return day_on_two_workers

    monkeypatch.setattr("reports.tasks.last_closed_gaming_day", last_closed_gaming_day)
    sent = [daily_reports_when_day_closed.apply_async() for _ in range(2)]
    outcomes = [result.get(timeout=RUN_TIMEOUT, propagate=False) for result in sent]
    assert gave_up == []
    assert outcomes.count(None) == 1, outcomes
    run = finished(ReportRun.objects.get())
    assert [outcome for outcome in outcomes if outcome is not None] == [run.pk]
    assert (run.status, run.error, run.trigger) == (RunStatus.SUCCEEDED, "", "beat")
    monkeypatch.setattr("reports.tasks.last_closed_gaming_day", lambda: day_on_two_workers)
    assert daily_reports_when_day_closed.apply_async().get(timeout=RUN_TIMEOUT) is None  # and in a row
    assert list(ReportRun.objects.all()) == [run] and current_run(run.day) == run


# --- twice in a row ----------------------------------------------------------------------------------


def test_every_task_delivered_again_in_a_row_ends_the_run_once(day_on_one_worker, tmp_path, deliveries):
    earlier = day_run_once(day_on_one_worker, deliveries)
    run = new_run(earlier)
    for _ in range(2):
        daily_report_job.apply_async((run.pk,))
    # The second delivery finds the run running too, so it fans out as well: each fan-out ends in a
    # finish; the first to come ends the run, the second finds it ended.
    assert deliveries.results(daily_report_job, 2) == [TABLES, TABLES]
    finishes = deliveries.results(daily_report_finish, 2)
    assert len(finishes) == 2 and finishes[0]["run"] == run.pk and finishes[1] is None, finishes
    assert_done_once(run, earlier, tmp_path)
    done, charts = run_state(run), chart_keys(run)

    # Every task again, after the run ended: each finds it ended, and leaves it as it is.
    table = Table.objects.get(code="DLX1")
    assert daily_report_finish.apply_async(([], run.pk)).get(timeout=RUN_TIMEOUT) is None
    assert daily_report_table.apply_async((run.pk, table.pk)).get(timeout=RUN_TIMEOUT) is None
    assert daily_report_job.apply_async((run.pk,)).get(timeout=RUN_TIMEOUT) == 0
    assert run_state(run) == done and chart_keys(run) == charts
    assert_done_once(run, earlier, tmp_path)
