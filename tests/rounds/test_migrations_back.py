"""The round migrations go back past the registry and the partitioning, and forward again
(PostgreSQL), on a scratch database of their own, as `manage.py migrate` runs them.

Found reading the migrations: rounds 0017 backwards turned the partitioned tables into plain ones
that kept the partition key in their primary keys, so 0016 backwards, which lets the gaming day be
empty again, stopped with 'column "gaming_day" is in a primary key'.
"""

import os
import subprocess
import sys
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
# The tables migration 0017 partitions, as it names them.
PARTITIONED_BY_0017 = import_module("rounds.migrations.0017_partition_round_history").PARTITIONED


@contextmanager
def _scratch(suffix: str):
    """An empty database beside the tests' own, and a DATABASE_URL for it; dropped at the end."""
    default = settings.DATABASES["default"]
    name = f"{default['NAME']}_{suffix}"
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


@pytest.fixture
def scratch_database():
    with _scratch("migrations_back") as database:
        yield database


@pytest.fixture
def fresh_database():
    """Another, for a schema migrated only forward."""
    with _scratch("migrations_fresh") as database:
        yield database


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


def schema(server: dict) -> dict:
    """What Django and later migrations rely on in the tables 0017 converts: each column's type,
    nullability, identity and default, and each constraint's and index's name and definition."""
    tables = tuple(PARTITIONED_BY_0017)
    with psycopg.connect(**server) as connection:
        columns = connection.execute(
            "SELECT table_name, column_name, data_type, is_nullable, is_identity, identity_generation, "
            "column_default FROM information_schema.columns WHERE table_name = ANY(%s) "
            "ORDER BY table_name, ordinal_position",
            [list(tables)],
        ).fetchall()
        constraints = connection.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid::regclass::text = ANY(%s) ORDER BY 1, 2",
            [list(tables)],
        ).fetchall()
        indexes = connection.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s) ORDER BY 1, 2",
            [list(tables)],
        ).fetchall()
    return {"columns": columns, "constraints": constraints, "indexes": indexes}


def test_going_back_past_the_partitioning_gives_the_schema_those_migrations_made(
    scratch_database, fresh_database
):
    """Found reading table_unpartition: back past 0017 the ids came from a sequence (a column default),
    where Django had made identity columns (the constraints and indexes were already the same)."""
    (url, server), (fresh_url, fresh_server) = scratch_database, fresh_database
    migrate(url)
    migrate(url, "rounds", "0016")
    migrate(fresh_url, "auth")  # at its last state: post_migrate writes every permission
    migrate(fresh_url, "rounds", "0016")
    back, fresh = schema(server), schema(fresh_server)
    differences = {
        part: (sorted(set(back[part]) - set(fresh[part])), sorted(set(fresh[part]) - set(back[part])))
        for part in back
    }
    assert differences == {part: ([], []) for part in back}
