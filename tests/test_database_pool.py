"""Connection pooling (issue 56): PITBOSS_DATABASE_POOL_MAX turns on Django's psycopg pool. The settings
are read from given environments; on PostgreSQL, gunicorn serves pages with the pool on and the
server's own pg_stat_activity shows the same few connections serving request after request."""

import os
import secrets
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from core.env import env_database, env_database_pool, with_pool
from tests.replica_support import free_port, wait_for

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_URL = "postgres://pitboss:secret@db.example.com:5432/pitboss"
POOL_MAX = 2


def test_the_pool_is_off_unless_a_maximum_is_given():
    assert env_database_pool(environ={}) is None
    assert env_database_pool(environ={"PITBOSS_DATABASE_POOL_MAX": "0"}) is None


def test_a_maximum_keeps_one_connection_open_unless_told():
    assert env_database_pool(environ={"PITBOSS_DATABASE_POOL_MAX": "8"}) == {"min_size": 1, "max_size": 8}
    pool = env_database_pool(environ={"PITBOSS_DATABASE_POOL_MAX": "8", "PITBOSS_DATABASE_POOL_MIN": "4"})
    assert pool == {"min_size": 4, "max_size": 8}


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"PITBOSS_DATABASE_POOL_MAX": "many"}, "PITBOSS_DATABASE_POOL_MAX"),
        ({"PITBOSS_DATABASE_POOL_MAX": "-2"}, "PITBOSS_DATABASE_POOL_MAX"),
        ({"PITBOSS_DATABASE_POOL_MAX": "4", "PITBOSS_DATABASE_POOL_MIN": "1.5"}, "PITBOSS_DATABASE_POOL_MIN"),
        ({"PITBOSS_DATABASE_POOL_MAX": "4", "PITBOSS_DATABASE_POOL_MIN": "5"}, "PITBOSS_DATABASE_POOL_MIN"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable(environ, named):
    with pytest.raises(ImproperlyConfigured, match=named):
        env_database_pool(environ=environ)


def test_with_the_pool_connections_are_not_kept_by_django_too():
    config = env_database(
        "DATABASE_URL", sqlite_path=Path("unused"), conn_max_age=60, environ={"DATABASE_URL": POSTGRES_URL}
    )
    pooled = with_pool("DATABASE_URL", config, {"min_size": 1, "max_size": 4})
    assert pooled["CONN_MAX_AGE"] == 0
    assert pooled["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 4}
    assert config["CONN_MAX_AGE"] == 60  # the given settings are left as they were
    assert with_pool("DATABASE_URL", config, None) is config


def test_sqlite_refuses_a_pool(tmp_path):
    config = env_database("DATABASE_URL", sqlite_path=tmp_path / "db.sqlite3", conn_max_age=60, environ={})
    with pytest.raises(ImproperlyConfigured, match="PITBOSS_DATABASE_POOL_MAX is for PostgreSQL"):
        with_pool("DATABASE_URL", config, {"min_size": 1, "max_size": 4})


def test_the_settings_refuse_a_pool_on_sqlite():
    environ = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env={**environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PITBOSS_DATABASE_POOL_MAX": "4"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "PITBOSS_DATABASE_POOL_MAX is for PostgreSQL" in done.stderr


def backends(application_name: str) -> dict[int, str]:
    """The server's connections of that application: pid -> when it was opened."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start::text FROM pg_stat_activity WHERE application_name = %s",
            [application_name],
        )
        return dict(cursor.fetchall())


@pytest.mark.postgres
@pytest.mark.django_db
def test_pages_are_served_by_the_same_pooled_connections():
    application_name = f"pitboss-pool-{secrets.token_hex(4)}"
    url = connection.settings_dict
    database_url = f"postgres://{url['USER']}@{url['HOST']}:{url['PORT']}/{url['NAME']}"
    environ = {key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "REPLICA_"))}
    environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        PITBOSS_DATABASE_POOL_MAX=str(POOL_MAX),
        PITBOSS_SHEET_REQUESTS_PER_MINUTE="0",
        PGAPPNAME=application_name,  # libpq names each connection so
    )
    port = free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    command = [gunicorn, "config.wsgi", "-w", "1", "--threads", "4", "-b", f"127.0.0.1:{port}"]
    process = subprocess.Popen(command, env=environ, cwd=ROOT)
    server = f"http://127.0.0.1:{port}"
    page = server + "/rules/NO-SUCH-TABLE/"  # a query for the table, then 404

    def ask(_):
        return requests.get(page, timeout=60).status_code

    try:
        wait_for(server + "/healthz")
        with ThreadPoolExecutor(8) as threads:
            assert set(threads.map(ask, range(24))) == {404}
            first = backends(application_name)
            assert 1 <= len(first) <= POOL_MAX
            assert set(threads.map(ask, range(24))) == {404}
        then = backends(application_name)
        assert len(then) <= POOL_MAX
        # Every connection open after the first requests served the next ones too: none was closed.
        assert {pid: then.get(pid) for pid in first} == first
    finally:
        process.terminate()
        process.wait(timeout=30)
