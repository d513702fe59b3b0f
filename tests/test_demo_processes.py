"""make demo's three processes together (manage.py demo_run): the web server, a Celery worker and
Celery beat on kombu's filesystem broker, all writing one SQLite file. Nothing outside is needed (no
Redis, no PostgreSQL, whatever DATABASE_URL and CELERY_BROKER_URL say), so these tests always run.

A compliance user starts a daily report run on its page; the request answers at once with the run's
progress, the worker writes the run to the end; beat has the worker deal rounds at the open tables
(the demo's game servers), which the floor shows; and a SIGINT to the runner stops all three processes.
"""

import html
import http.cookiejar
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest

from demo.management.commands.demo_run import group_alive
from demo.second_factor import totp_code
from tests.benchmarks.support import free_port
from tests.second_factor_support import CODE_AT_SIGN_IN, secret_of

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
STARTED = re.compile(r"web server \(pid (\d+)\), worker \(pid (\d+)\), beat \(pid (\d+)\)")
# The runner gives its three STOP_SECONDS (20) before it kills them; a worker at rest stops in seconds.
STOP_TIMEOUT = 30
RUN_TIMEOUT = 40
DEALT_TIMEOUT = 30
# make demo's first steps, in one process: migrate, then seed_demo (its users and tables).
SEED = (
    "import django; django.setup(); from django.core.management import call_command; "
    "call_command('migrate', interactive=False, verbosity=0); call_command('seed_demo', verbosity=0)"
)
RUNNING_STAGES = (
    "Waiting for a worker to start the job.",
    "Working out each table's figures",
    "Every table done",
)


@pytest.fixture
def demo_environ(tmp_path):
    """The demo's environment in tmp_path: its SQLite file, the broker's folder, the reports' folder."""
    environ = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "CELERY_BROKER_URL", "DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        PITBOSS_SQLITE_PATH=str(tmp_path / "demo.sqlite3"),
        PITBOSS_BROKER_FOLDER=str(tmp_path / "broker"),
        PITBOSS_REPORTS_DIR=str(tmp_path / "reports"),
    )
    return environ


@pytest.fixture
def demo(tmp_path, demo_environ):
    """The database migrated and seeded as make demo does it, eagerly, before the worker starts; then
    the environment demo_run gets (the filesystem broker)."""
    subprocess.run(
        [PYTHON, "-c", SEED], cwd=REPO, env=demo_environ, check=True, capture_output=True, timeout=120
    )
    return tmp_path, demo_environ | {"CELERY_BROKER_URL": "filesystem://", "PITBOSS_DEMO_DEALING": "2"}


class Demo:
    """The runner, started as make demo starts it, its output in a file."""

    def __init__(self, folder: Path, environ: dict[str, str], address: str):
        self.log = folder / "demo_run.log"
        self.groups: list[int] = []
        with self.log.open("wb") as log:
            self.runner = subprocess.Popen(
                [
                    PYTHON,
                    "manage.py",
                    "demo_run",
                    "--address",
                    address,
                    "--beat-schedule",
                    str(folder / "beat"),
                ],
                cwd=REPO,
                env=environ,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for_pids(self, timeout: float = 30) -> list[int]:
        deadline = time.monotonic() + timeout
        while (found := STARTED.search(self.output())) is None:
            assert self.runner.poll() is None, f"the runner ended:\n{self.output()}"
            assert time.monotonic() < deadline, f"the runner started nothing:\n{self.output()}"
            time.sleep(0.2)
        self.groups = [int(pid) for pid in found.groups()]
        return self.groups

    def kill(self) -> None:
        """After a failure: nothing of the demo outlives the test."""
        for pid in self.groups:
            if group_alive(pid):
                os.killpg(pid, signal.SIGKILL)
        if self.runner.poll() is None:
            self.runner.kill()
        self.runner.wait()


class Browser:
    """A signed-in session over HTTP, as a browser without scripts makes it."""

    def __init__(self, base: str):
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str):
        return self.opener.open(self.base + path, timeout=30)

    def post_form(self, path: str, fields: dict[str, str]):
        self.get(path).read()  # the form, and the CSRF cookie
        token = next(cookie.value for cookie in self.cookies if cookie.name == "csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        return self.opener.open(self.base + path, data=body, timeout=30)

    def wait_until_served(self, demo: Demo, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.get("/accounts/login/").read()
                return
            except OSError:
                assert demo.runner.poll() is None, f"the runner ended:\n{demo.output()}"
                assert time.monotonic() < deadline, f"the web server never answered:\n{demo.output()}"
                time.sleep(0.3)


def test_a_report_run_is_queued_to_the_worker_and_ctrl_c_stops_all_three(demo):
    folder, environ = demo
    port = free_port()
    runner = Demo(folder, environ, f"127.0.0.1:{port}")
    try:
        groups = runner.wait_for_pids()
        browser = Browser(f"http://127.0.0.1:{port}")
        browser.wait_until_served(runner)
        asked_for_code = browser.post_form(
            "/accounts/login/", {"login": "compliance", "password": "compliance-demo"}
        )
        assert asked_for_code.url.endswith(CODE_AT_SIGN_IN), asked_for_code.url  # compliance has one
        code = totp_code(secret_of("compliance"), time.time())
        signed_in = browser.post_form(CODE_AT_SIGN_IN, {"code": code})
        assert signed_in.url.endswith("/"), signed_in.url

        asked = time.monotonic()
        started = browser.post_form("/reports/runs/new/", {"day": "2026-03-01"})
        page = html.unescape(started.read().decode())
        answered = time.monotonic() - asked
        # Queued, not run in the request: the run's page comes back at once, showing how far it has got.
        assert answered < 5, answered
        run_id = int(re.search(r"/reports/runs/(\d+)/$", started.url)[1])
        assert any(stage in page for stage in RUNNING_STAGES), page

        deadline = time.monotonic() + RUN_TIMEOUT
        while (run := json.load(browser.get(f"/api/reports/runs/{run_id}/")))["status"] == "running":
            assert time.monotonic() < deadline, f"run {run_id} still running:\n{runner.output()}"
            time.sleep(0.5)
        assert run["status"] == "succeeded", run
        assert re.search(r"Task reports\.tasks\.daily_report_finish\[[\w-]+\] succeeded", runner.output())
        assert sorted(path.name for path in (folder / "reports" / "2026-03-01").iterdir()) == [
            f"daily_rtp-2026-03-01-run-{run_id}.pdf",
            f"exposure-2026-03-01-run-{run_id}.pdf",
        ]
        assert "Succeeded" in browser.get(f"/reports/runs/{run_id}/").read().decode()

        # Beat's game servers deal at the open tables every 2 s, through the worker: the floor moves.
        deadline = time.monotonic() + DEALT_TIMEOUT
        while not any(tile["today"]["rounds"] for tile in json.load(browser.get("/api/floor/"))["tables"]):
            assert time.monotonic() < deadline, f"no round dealt:\n{runner.output()}"
            time.sleep(0.5)
        assert re.search(r"Task demo\.tasks\.demo_deal_task\[[\w-]+\] succeeded", runner.output())

        runner.runner.send_signal(signal.SIGINT)
        assert runner.runner.wait(timeout=STOP_TIMEOUT) == 0, runner.output()
        assert [pid for pid in groups if group_alive(pid)] == [], runner.output()
    finally:
        runner.kill()
    with closing(sqlite3.connect(folder / "demo.sqlite3")) as database:
        assert database.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_when_one_process_ends_the_runner_stops_the_others_and_fails(tmp_path, demo_environ):
    environ = demo_environ | {"CELERY_BROKER_URL": "filesystem://"}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        runner = Demo(tmp_path, environ, address)  # the web server cannot listen there, and ends
        try:
            groups = runner.wait_for_pids()
            assert runner.runner.wait(timeout=STOP_TIMEOUT) == 1, runner.output()
            assert "The web server stopped (exit status" in runner.output()
            assert [pid for pid in groups if group_alive(pid)] == [], runner.output()
        finally:
            runner.kill()
