"""Reads on a real streaming standby (issue 55): a private primary and standby (tests/replica_support.py),
the app served by gunicorn with DATABASE_URL on the primary and REPLICA_DATABASE_URL on the standby.
Where reads went is read from the page's Pitboss-Read-Database header and /healthz; no timing is
asserted. The pair and the server are the module's, stopped and removed at its end; nothing here
uses the test database of the other tests. Skipped without PostgreSQL's server programs."""

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.replica_support import free_port, make_pair, wait_for

pytestmark = pytest.mark.replica

ROOT = Path(__file__).resolve().parents[2]
DATABASE = "pitboss_replica_test"
USERNAME, PASSWORD = "replica-reader", secrets.token_urlsafe(16)
LIST = "/limits/players/"
WINDOW = 2  # PITBOSS_READ_YOUR_WRITES_SECONDS of the server under test


def manage(*args, env) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def base_env() -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "REPLICA_"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", SECRET_KEY=secrets.token_urlsafe(50))
    return env


@pytest.fixture(scope="module")
def pair():
    pair = make_pair()
    try:
        pair.sql(pair.primary_port, f"CREATE DATABASE {DATABASE}")
        env = {**base_env(), "DATABASE_URL": pair.url(pair.primary_port, DATABASE)}
        manage("migrate", "--no-input", env=env)
        manage("create_user", USERNAME, "--role", "customer_service", f"--password={PASSWORD}", env=env)
        pair.replayed()
        yield pair
    finally:
        pair.stop()


@pytest.fixture(scope="module")
def server(pair):
    port = free_port()
    env = {
        **base_env(),
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": pair.url(pair.primary_port, DATABASE),
        "REPLICA_DATABASE_URL": pair.url(pair.standby_port, DATABASE),
        "PITBOSS_READ_YOUR_WRITES_SECONDS": str(WINDOW),
        "PITBOSS_REPLICA_MAX_LAG_BYTES": "1",
        "PITBOSS_REPLICA_LAG_CHECK_SECONDS": "0",  # measured at every request: the tests need no waits
        "PITBOSS_REPLICA_RETRY_SECONDS": "3600",  # open for the rest of the module once the standby stops
    }
    command = [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi", "-w", "1"]
    process = subprocess.Popen([*command, "-b", f"127.0.0.1:{port}"], env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(url + "/healthz")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def session(server):
    """The customer service user signed in (no second factor), with the CSRF token at hand."""
    browser = requests.Session()
    browser.get(server + "/accounts/login/", timeout=10)
    answer = browser.post(
        server + "/accounts/login/",
        data={"login": USERNAME, "password": PASSWORD, "csrfmiddlewaretoken": browser.cookies["csrftoken"]},
        headers={"Referer": server + "/accounts/login/"},
        timeout=10,
        allow_redirects=False,
    )
    assert answer.status_code == 302, answer.text[-2000:]
    time.sleep(WINDOW)  # the sign-in was a write of this user's
    return browser


def read_from(session, server) -> str:
    answer = session.get(server + LIST, timeout=10)
    assert answer.status_code == 200, answer.text[-2000:]
    return answer.headers["Pitboss-Read-Database"]


def replica_health(server) -> dict:
    # /healthz keeps its checks' verdict a few seconds; the replica's part is measured each time.
    return requests.get(server + "/healthz", timeout=10).json()["replica"]


def write(session, server) -> None:
    answer = session.post(
        server + "/accounts/preferences/",
        data={"time_zone": "Europe/Malta", "csrfmiddlewaretoken": session.cookies["csrftoken"]},
        headers={"Referer": server + "/accounts/preferences/"},
        timeout=10,
        allow_redirects=False,
    )
    assert answer.status_code in (200, 302), answer.text[-2000:]


def test_1_a_list_and_its_export_read_the_replica(pair, server, session):
    pair.replayed()
    assert read_from(session, server) == "replica"
    export = session.get(server + LIST + "?_export=csv", timeout=10)
    assert export.status_code == 200, export.text[-2000:]
    assert export.headers["Pitboss-Read-Database"] == "replica"  # streamed, and read there too
    assert export.text.splitlines()[0]  # the header row
    health = replica_health(server)
    assert (health["configured"], health["state"]) == (True, "ok")
    # The migrations ran on the primary alone; the standby has the tables by replication.
    assert pair.sql(pair.standby_port, "SELECT pg_is_in_recovery()", DATABASE) == "t"


def test_2_after_a_write_its_user_reads_the_primary_for_a_while(pair, server, session):
    write(session, server)
    assert read_from(session, server) == "primary"
    pair.replayed()
    time.sleep(WINDOW + 0.5)  # the window is the setting's; no timing is asserted
    assert read_from(session, server) == "replica"


def test_3_a_lagging_replica_is_left_for_the_primary(pair, server, session):
    pair.sql(pair.standby_port, "SELECT pg_wal_replay_pause()")
    try:
        received = pair.sql(pair.standby_port, "SELECT pg_last_wal_receive_lsn()")
        pair.sql(
            pair.primary_port, "CREATE TABLE lag_maker AS SELECT generate_series(1, 1000) AS n", DATABASE
        )
        deadline = time.monotonic() + 30
        query = f"SELECT pg_wal_lsn_diff(pg_last_wal_receive_lsn(), '{received}') > 0"
        while pair.sql(pair.standby_port, query) != "t":  # received, not replayed
            assert time.monotonic() < deadline, "the standby received nothing"
            time.sleep(0.05)
        assert read_from(session, server) == "primary"
        health = replica_health(server)
        assert health["state"] == "lagging" and health["lag_bytes"] > 1
    finally:
        pair.sql(pair.standby_port, "SELECT pg_wal_replay_resume()")
        pair.sql(pair.primary_port, "DROP TABLE IF EXISTS lag_maker", DATABASE)
    pair.replayed()
    assert read_from(session, server) == "replica"


def test_4_a_stopped_replica_never_stops_a_page(pair, server, session):
    pair.stop_standby()
    try:
        assert read_from(session, server) == "primary"
        # The breaker is open: later pages read the primary without trying the replica again.
        assert read_from(session, server) == "primary"
        health = replica_health(server)
        assert (health["state"], health["lag_bytes"]) == ("down", None)
        assert requests.get(server + "/healthz", timeout=10).status_code == 200
    finally:
        pair.start_standby()
