"""The round migrations go back past the registry and the partitioning, and forward again
(PostgreSQL), on a scratch database of their own, as `manage.py migrate` runs them.

Found reading the migrations: rounds 0017 backwards turned the partitioned tables into plain ones
that kept the partition key in their primary keys, so 0016 backwards, which lets the gaming day be
empty again, stopped with 'column "gaming_day" is in a primary key'.
"""

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def scratch_database():
    """An empty database beside the tests' own, and a DATABASE_URL for it; dropped at the end."""
    default = settings.DATABASES["default"]
    name = f"{default['NAME']}_migrations_back"
    server = {
        "host": default["HOST"] or None,
        "port": default["PORT"] or None,
        "user": default["USER"] or None,
        "password": default["PASSWORD"] or None,
    }

    def admin(statement):
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as connection:
            connection.execute(statement)

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    admin(drop)
    admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    password = f":{default['PASSWORD']}" if default["PASSWORD"] else ""
    host = f"{default['HOST'] or '127.0.0.1'}:{default['PORT'] or 5432}"
    try:
        yield f"postgres://{default['USER']}{password}@{host}/{name}", server | {"dbname": name}
    finally:
        admin(drop)


def migrate(url: str, *target: str) -> None:
    environment = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0", *target],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def primary_keys(server: dict) -> dict[str, list[str]]:
    """Each round table's primary key columns."""
    with psycopg.connect(**server) as connection:
        rows = connection.execute(
            "SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint c "
            "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) "
            "WHERE c.contype = 'p' AND c.conrelid::regclass::text IN ('rounds_bet', 'rounds_round', "
            "'rounds_refund', 'rounds_playerdaytotal') ORDER BY 1, array_position(c.conkey, a.attnum)"
        ).fetchall()
    keys: dict[str, list[str]] = {}
    for table, column in rows:
        keys.setdefault(table, []).append(column)
    return keys


def test_the_round_migrations_go_back_before_partitioning_and_forward_again(scratch_database):
    url, server = scratch_database
    migrate(url)
    partitioned = primary_keys(server)
    assert partitioned["rounds_bet"] == ["id", "gaming_day"]
    assert partitioned["rounds_playerdaytotal"] == ["id", "day"]

    migrate(url, "rounds", "0015")  # before the registry and the gaming day on every row
    assert primary_keys(server) == {table: ["id"] for table in partitioned}
    with psycopg.connect(**server) as connection:
        (kind,) = connection.execute("SELECT relkind FROM pg_class WHERE relname = 'rounds_bet'").fetchone()
    assert kind == "r"  # a plain table

    migrate(url)
    assert primary_keys(server) == partitioned
