"""Which tests need an outside service, and what happens when it is missing.

Markers: `postgres` (DATABASE_URL points at PostgreSQL), `redis` (CELERY_BROKER_URL is a Redis
that answers), `celery_worker` (CELERY_BROKER_URL answers, for a real worker), `browser`
(/usr/bin/chromium runs), `redis_server` (the redis-server program, which such a test starts, stops
and freezes on a port of its own), `replica` (PostgreSQL's server programs,
/usr/lib/postgresql/*/bin, with which tests/replica makes a private primary and standby and
tests/backup backs up and restores a scratch cluster). On a
laptop without them such tests are skipped and the run ends with a summary of what was left out
and why. With PITBOSS_REQUIRE_SERVICES=1 (CI) a missing service stops the run at start-up instead:
nothing is skipped silently.

Under pytest-xdist (make test runs on every core) each process has its own test database
(pytest-django's suffix: test_pitboss_gw0, ...) and its own Celery queue, so that a real worker
started by one process never takes another's tasks.
"""

import functools
import os
import re
import shutil
import subprocess
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from core.env import is_redis_url

REQUIRE_SERVICES = os.environ.get("PITBOSS_REQUIRE_SERVICES") == "1"
# "gw0", "gw1", ... in pytest-xdist's worker processes; absent in a run that is not split.
TEST_PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "main")
CELERY_TEST_QUEUE = f"pitboss-tests-{TEST_PROCESS}"
# The figures of the rule sets the tests approve, beside the presets' (tables/known_odds.py).
TESTS_KNOWN_ODDS = Path(__file__).parent / "fixtures" / "known_odds.json"
CHROMIUM = "/usr/bin/chromium"
REDIS_SERVER = "redis-server"
SERVICE_MARKERS = ("postgres", "redis", "celery_worker", "browser", "redis_server", "replica")
CONNECT_TIMEOUT = 5

SKIP_REASON = re.compile(r"needs (?P<marker>\w+): (?P<problem>.+)")


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def _postgres_problem() -> str | None:
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL is not set, so the tests ran on SQLite"
    import psycopg

    where = f"{db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}/{db['NAME']}"
    try:
        psycopg.connect(
            host=db.get("HOST") or None,
            port=db.get("PORT") or None,
            user=db.get("USER") or None,
            password=db.get("PASSWORD") or None,
            dbname=db["NAME"],
            connect_timeout=CONNECT_TIMEOUT,
        ).close()
    except psycopg.Error as error:
        return f"PostgreSQL at {where} does not answer: {_first_line(error)}"
    return None


def _redis_problem() -> str | None:
    url = None if settings.CELERY_TASK_ALWAYS_EAGER else settings.CELERY_BROKER_URL
    if url is None:
        return "CELERY_BROKER_URL is not set, so Celery ran eagerly"
    if not is_redis_url(url):
        return "CELERY_BROKER_URL is not a Redis URL"
    import redis

    try:
        redis.Redis.from_url(
            url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=CONNECT_TIMEOUT
        ).ping()
    except redis.RedisError as error:
        return f"Redis at CELERY_BROKER_URL does not answer a ping: {_first_line(error)}"
    return None


def _broker_problem() -> str | None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "CELERY_BROKER_URL is not set, so Celery ran eagerly"
    if is_redis_url(settings.CELERY_BROKER_URL):
        return _redis_problem()
    from kombu import Connection

    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=CONNECT_TIMEOUT) as connection:
            connection.ensure_connection(max_retries=1)
    except Exception as error:
        return f"the broker at CELERY_BROKER_URL does not answer: {_first_line(error)}"
    return None


def _browser_problem() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    try:
        subprocess.run([CHROMIUM, "--version"], capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        return f"`chromium --version` failed: {_first_line(error)}"
    return None


def _redis_server_problem() -> str | None:
    program = shutil.which(REDIS_SERVER)
    if program is None:
        return f"{REDIS_SERVER} is not installed (apt-get install redis-server)"
    try:
        subprocess.run([program, "--version"], capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        return f"`redis-server --version` failed: {_first_line(error)}"
    return None


def _replica_problem() -> str | None:
    from tests.replica_support import server_problem

    return server_problem()


_CHECKS = {
    "postgres": _postgres_problem,
    "redis": _redis_problem,
    "celery_worker": _broker_problem,
    "browser": _browser_problem,
    "redis_server": _redis_server_problem,
    "replica": _replica_problem,
}


@functools.cache
def service_problem(marker: str) -> str | None:
    """Why the service behind `marker` cannot be used, or None when it can."""
    return _CHECKS[marker]()


def pytest_sessionstart(session: pytest.Session) -> None:
    if not REQUIRE_SERVICES:
        return
    problems = [
        f"  {marker}: {problem}" for marker in SERVICE_MARKERS if (problem := service_problem(marker))
    ]
    if problems:
        pytest.exit(
            "PITBOSS_REQUIRE_SERVICES=1, but these services are unreachable:\n" + "\n".join(problems),
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker in SERVICE_MARKERS:
            if item.get_closest_marker(marker) is None:
                continue
            problem = service_problem(marker)
            # Under PITBOSS_REQUIRE_SERVICES the start-up check has passed: never skip, let it fail.
            if problem is None or REQUIRE_SERVICES:
                continue
            item.add_marker(pytest.mark.skip(reason=f"needs {marker}: {problem}"))
            break


def left_out(reports) -> dict[tuple[str, str], int]:
    """(marker, problem): how many tests were skipped for want of that service. Read from the test
    reports, which pytest-xdist's workers send to the process that prints the summary."""
    counts: Counter[tuple[str, str]] = Counter()
    for report in reports:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        found = SKIP_REASON.fullmatch(reason.removeprefix("Skipped: "))
        if found and found["marker"] in SERVICE_MARKERS:
            counts[found["marker"], found["problem"]] += 1
    return counts


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    counts = left_out(terminalreporter.stats.get("skipped", []))
    if not counts:
        return
    terminalreporter.section("left out: services not available", sep="-", yellow=True)
    for (marker, problem), count in sorted(counts.items()):
        tests = "test" if count == 1 else "tests"
        terminalreporter.write_line(f"{count} {marker} {tests} skipped: {problem}")
    terminalreporter.write_line(
        "Set DATABASE_URL and CELERY_BROKER_URL and install chromium, redis-server and postgresql "
        "to run them (see README.md)."
    )


@pytest.fixture(scope="session", autouse=True)
def _celery_queue_of_this_process():
    """Tasks go to, and a test's real worker takes them from, this test process's own queues (its
    notifications have one of their own, as in production: settings.CELERY_TASK_ROUTES)."""
    from kombu import Queue

    from config.celery import app

    notifications = f"{CELERY_TEST_QUEUE}-notifications"
    app.conf.task_default_queue = CELERY_TEST_QUEUE
    app.conf.task_queues = (Queue(CELERY_TEST_QUEUE), Queue(notifications))
    app.conf.task_routes = {"notifications.tasks.deliver_task": {"queue": notifications}}
    return CELERY_TEST_QUEUE


@pytest.fixture(autouse=True)
def _celery_eager_unless_worker(request: pytest.FixtureRequest):
    """Tasks run in-process, even with a broker set, except in tests that start a real worker."""
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    from config.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _known_odds(settings):
    """Approving a configuration costs a test no odds: its rules' figures are known in advance. The
    tests about working the figures out use `odds_worked_out`."""
    settings.PITBOSS_KNOWN_ODDS_FILES = [*settings.PITBOSS_KNOWN_ODDS_FILES, TESTS_KNOWN_ODDS]


@pytest.fixture
def odds_worked_out(settings):
    """For the tests about working the figures out: no figures are known in advance."""
    settings.PITBOSS_KNOWN_ODDS_FILES = []


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests create many users; the production hasher's deliberate slowness is not under test here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _public_sheets_unthrottled(settings):
    """Every test client asks from 127.0.0.1, and a module asks for more sheets in a minute than the
    public sheets' throttle allows an address: it is off but in tests/sheets/test_throttle.py."""
    settings.PITBOSS_SHEET_REQUESTS_PER_MINUTE = 0


@pytest.fixture(autouse=True)
def _codes_used_forgotten():
    """A second-factor code is accepted once: django-allauth remembers the used ones in the cache for
    their period. Each test starts with none remembered, as its database starts with no users (whose
    ids, and so the cache's keys, the next test may give again)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def gaming_day_clear_of_now(settings):
    """The gaming day's cut-off moved 12 hours from now: rounds dealt in the last hours and read as
    today's fall in one gaming day whenever the test runs. At the real cut-off (06:00 in Malta) a
    test that dealt rounds over the last minutes found some in yesterday's day (a CI run at 05:00 UTC
    failed so)."""
    local_now = datetime.now(ZoneInfo(settings.PITBOSS_GAMING_DAY_TIME_ZONE))
    half_a_day_ago = local_now - timedelta(hours=12)
    settings.PITBOSS_GAMING_DAY_CUTOFF = half_a_day_ago.time().replace(second=0, microsecond=0)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, request, tmp_path_factory):
    """On SQLite, the test database is a file, not Django's default in-memory one. In memory, the
    live server's request threads all share the test's one connection (Django's documented
    limitation), and a page whose images load at once (the report's lazy charts) could leave one
    request waiting past a browser test's timeout. A file gives each thread its own connection: a
    fresh one per run, or with --reuse-db one kept in var/ per test process (test-main.sqlite3,
    test-gw0.sqlite3, ...)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    if request.config.getoption("reuse_db"):
        folder = settings.VAR_DIR
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = tmp_path_factory.mktemp("sqlite")
    database.setdefault("TEST", {})["NAME"] = str(folder / f"test-{TEST_PROCESS}.sqlite3")
