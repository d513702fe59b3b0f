"""/metrics under gunicorn (deploy/gunicorn.conf.py) with two workers and PROMETHEUS_MULTIPROC_DIR:
each worker counts the requests it answers in its own files, and one scrape, whichever worker takes it,
sums them. Against PostgreSQL (the test database, committed rows), the server on a free loopback port;
no timing is asserted."""

import os
import secrets
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from django.conf import settings

from tests.metrics.support import samples, value
from tests.replica_support import free_port, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 90


def database_url() -> str:
    database = settings.DATABASES["default"]
    user, host, port = database["USER"], database["HOST"] or "127.0.0.1", database["PORT"] or 5432
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{port}/{database['NAME']}"


@pytest.fixture
def server(tmp_path):
    metrics_dir = tmp_path / "prometheus"
    metrics_dir.mkdir()
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "REPLICA_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url(),
        PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
        PITBOSS_BIND=f"127.0.0.1:{port}",
        PITBOSS_WORKERS="2",
    )
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    process = subprocess.Popen([gunicorn, "-c", "deploy/gunicorn.conf.py", "config.wsgi"], env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(url + "/healthz", READY_SECONDS)
        yield url, metrics_dir
    finally:
        process.terminate()
        process.wait(timeout=30)


def counting_processes(metrics_dir: Path) -> set[str]:
    """The processes that wrote counts: prometheus_client's files are named <kind>_<pid>.db."""
    return {path.stem.rpartition("_")[2] for path in metrics_dir.glob("counter_*.db")}


def test_one_scrape_sums_the_requests_of_both_workers(server):
    url, metrics_dir = server
    sent = 1  # wait_for's
    statuses = []
    deadline = time.monotonic() + READY_SECONDS
    # Requests at once, each on a connection of its own, until both workers have answered some.
    with ThreadPoolExecutor(max_workers=8) as pool:
        while len(counting_processes(metrics_dir)) < 2:
            assert time.monotonic() < deadline, "one worker answered everything"
            statuses += pool.map(lambda _: requests.get(url + "/healthz", timeout=30).status_code, range(16))
            sent += 16
    assert set(statuses) == {200}
    assert requests.get(url + "/no/such/page/", timeout=30).status_code == 404

    response = requests.get(url + "/metrics", timeout=30)
    assert response.status_code == 200
    scraped = samples(response.text)
    assert value(scraped, "pitboss_http_requests_total", view="healthz", method="GET", status="200") == sent
    assert value(scraped, "pitboss_http_request_duration_seconds_count", view="healthz") == sent
    assert value(scraped, "pitboss_http_requests_total", view="unresolved", method="GET", status="404") == 1
    # The database's figures are served beside the processes' counts.
    assert value(scraped, "pitboss_outbox_pending") == 0
    assert len(counting_processes(metrics_dir)) == 2
