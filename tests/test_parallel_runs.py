"""make test splits the suite over the machine's cores (pytest-xdist): each process has its own test
database and its own Celery queue, and a split run still says what it left out."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings

from config.celery import app
from tests.conftest import CELERY_TEST_QUEUE, TEST_PROCESS

PROBE = Path(__file__).parent / "parallel" / "probe.py"


@pytest.fixture(scope="module")
def split_run(tmp_path_factory):
    """tests/parallel/probe.py run in two processes, on SQLite and without a broker (as on a laptop)."""
    probe_dir = tmp_path_factory.mktemp("probe")
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "CELERY_BROKER_URL", "PITBOSS_REQUIRE_SERVICES"}
        and not name.startswith("PYTEST_")  # this run's own (PYTEST_XDIST_WORKER, PYTEST_ADDOPTS)
    }
    env["PITBOSS_PROBE_DIR"] = str(probe_dir)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "load",
            "--no-migrations",
            "-p",
            "no:cacheprovider",
            str(PROBE),
        ],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    seen = [json.loads(path.read_text()) for path in sorted(probe_dir.glob("*.json"))]
    return result, seen


def test_each_process_has_its_own_database_and_queue(split_run):
    result, seen = split_run
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(seen) == 4
    by_process = {entry["process"]: entry for entry in seen}
    assert set(by_process) == {"gw0", "gw1"}, "four tests handed out one by one reach both processes"
    for process, entry in by_process.items():
        assert entry["database"].endswith(f"test-{process}.sqlite3")
        assert entry["queue"] == f"pitboss-tests-{process}"
        # Its own default queue and its own notifications queue (tests/conftest.py), no other's.
        assert sorted(entry["consumed"]) == [
            f"pitboss-tests-{process}",
            f"pitboss-tests-{process}-notifications",
        ]


def test_a_split_run_still_says_what_it_left_out(split_run):
    result, _ = split_run
    assert "left out: services not available" in result.stdout
    assert "1 postgres test skipped: DATABASE_URL is not set, so the tests ran on SQLite" in result.stdout


@pytest.mark.redis
@pytest.mark.celery_worker
def test_a_task_waits_in_the_queue_of_its_own_test_process():
    """Sent without a worker: the task lies in Redis under this process's queue and nowhere else."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=5)
    other = "pitboss-tests-" + ("gw1" if TEST_PROCESS == "gw0" else "gw0")
    before = client.llen(CELERY_TEST_QUEUE), client.llen(other), client.llen("celery")
    app.send_task("celery.ping")
    try:
        assert client.llen(CELERY_TEST_QUEUE) == before[0] + 1
        assert (client.llen(other), client.llen("celery")) == before[1:]
    finally:
        app.control.purge()
