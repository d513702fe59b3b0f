"""make soak, tiny: the entry point run in a subprocess as `make soak` runs it, its checks read from
the JSON report it writes. With PostgreSQL's server programs it soaks a private primary and standby
(its replica lag reported); without them a scratch database on DATABASE_URL's server. It uses the
tests' Redis server (CELERY_BROKER_URL's) but a database of its own, which it flushes: the other test
process's worker tests keep their messages in theirs. No timing is asserted: its figures are printed."""

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests.replica_support import server_problem

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 600  # a busy machine; about 90 s on a quiet one
SOAK_REDIS_DATABASE = "/15"


def test_a_tiny_soak_loses_nothing_and_does_nothing_twice(tmp_path):
    report_path = tmp_path / "soak.json"
    command = [sys.executable, "-m", "tests.soak.run", "--scale", "tiny", "--report", str(report_path)]
    with_replica = server_problem() is None
    if not with_replica:
        command.append("--no-replica")
    broker = urlsplit(settings.CELERY_BROKER_URL)
    soak_redis = f"{broker.scheme}://{broker.netloc}{SOAK_REDIS_DATABASE}"
    environ = {**os.environ, "SOAK_REDIS_URL": soak_redis}
    done = subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=TIMEOUT)
    print(done.stdout)
    assert report_path.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(report_path.read_text())
    failed = [check for check in report["checks"] if not check["ok"]]
    assert not failed, json.dumps(failed, indent=2)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert report["ok"]
    assert not any(report["drain"]["waiting"].values())
    rounds = next(check for check in report["checks"] if check["name"] == "every round stored exactly once")
    assert rounds["rounds_stored"] == rounds["rounds_posted"] > 0
    done_midway = [event["what"] for event in report["disruptions"]]
    assert done_midway[0].startswith("worker killed (SIGKILL)")
    assert (
        done_midway[1].endswith("connections to pitboss_soak terminated") or "pitboss_soak_" in done_midway[1]
    )
    assert report["soak"]["rounds"] > 0
    if with_replica:
        assert report["replica_lag"]["end_bytes"] is not None
        assert "standby started" in [event["what"] for event in report["disruptions"]]
