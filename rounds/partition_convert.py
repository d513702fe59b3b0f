"""Turning an unpartitioned round table into one partitioned by month (PostgreSQL).

`table_partition` builds the partitioned table beside the old one (same columns, defaults, checks,
indexes and foreign keys; its primary key and unique constraints take the partition key), creates
the months its rows need and the default partition, copies the rows, re-points what pointed at the
old table to the registry, and swaps the two under the old one's name, with the old names of its
indexes and constraints, so that later migrations find them. Migration rounds/0017 runs it on a new
database's empty tables.
"""

import re
from functools import partial

from django.db import connection

from .partitions import (
    MONTHS_AHEAD,
    REGISTRY_OF,
    default_partition_name,
    month_after,
    month_of,
    months_between,
    partition_name,
)

TEMPORARY = "__p"  # the suffix of the new table's names until the swap
BATCH = 50_000  # rows copied a transaction by `rows_copy`


def table_partition(table: str, key: str, today) -> None:
    """Convert `table` (partition key `key`) in the current transaction: all three steps at once
    (a new database's empty tables)."""
    partitioned_prepare(table, key, today)
    while rows_copy(table):
        pass
    partitioned_swap(table)


def partitioned_prepare(table: str, key: str, today) -> None:
    """The partitioned table beside `table`, `<table>__p`, empty, with its partitions."""
    quote = connection.ops.quote_name
    new = table + TEMPORARY
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {quote(new)} (LIKE {quote(table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
            f"INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ({quote(key)})"
        )
        cursor.execute(f"ALTER TABLE {quote(new)} ALTER COLUMN {quote(key)} SET NOT NULL")
        _id_sequence_create(cursor, table, new)
        with_key = partial(_with_key, key=key)
        _constraints_copy(cursor, table, new, primary=with_key, unique=with_key)
        _indexes_copy(cursor, table, new, unique=with_key)
        _partitions_create(cursor, table, new, key, today)


def is_prepared(table: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [table + TEMPORARY])
        return cursor.fetchone()[0]


def rows_copy(table: str, batch: int = BATCH) -> int:
    """The next `batch` rows of `table` (by id) copied into `<table>__p`; how many. Where a copy
    stopped is read from the copied rows themselves, so an interrupted copy goes on from there."""
    quote = connection.ops.quote_name
    new = table + TEMPORARY
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(max(id), 0) FROM {quote(new)}")
        (copied_up_to,) = cursor.fetchone()
        cursor.execute(
            f"INSERT INTO {quote(new)} SELECT * FROM {quote(table)} WHERE id > %s ORDER BY id LIMIT %s",
            [copied_up_to, batch],
        )
        return cursor.rowcount


def partitioned_swap(table: str) -> None:
    """Under a lock that stops writes to `table`: the rows written or changed since they were copied
    brought over, what pointed at `table` pointed at its registry, and `<table>__p` put in its place
    with its names. Run it in a transaction."""
    quote = connection.ops.quote_name
    new = table + TEMPORARY
    with connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {quote(table)} IN EXCLUSIVE MODE")
        # Rows changed since their copy (a round signed off, a day's totals added to) are copied again.
        cursor.execute(
            f"DELETE FROM {quote(new)} copied USING {quote(table)} source "
            "WHERE copied.id = source.id AND row(copied.*) IS DISTINCT FROM row(source.*)"
        )
        cursor.execute(
            f"INSERT INTO {quote(new)} SELECT * FROM {quote(table)} source "
            f"WHERE NOT EXISTS (SELECT 1 FROM {quote(new)} copied WHERE copied.id = source.id)"
        )
        _references_to_registry(cursor, table)
        last_value = _sequence_position(cursor, table)
        _drop(cursor, table)
        cursor.execute(f"ALTER TABLE {quote(new)} RENAME TO {quote(table)}")
        _names_restore(cursor, table)
        sequence = f"{table}_id_seq"
        cursor.execute(f"ALTER SEQUENCE {quote(sequence + TEMPORARY)} RENAME TO {quote(sequence)}")
        cursor.execute(f"ALTER SEQUENCE {quote(sequence)} OWNED BY {quote(table)}.id")
        if last_value is not None:
            cursor.execute("SELECT setval(%s, %s, %s)", [sequence, *last_value])


def table_unpartition(table: str, key: str, *, unique_with_key: bool = True) -> None:
    """The reverse (migration rounds/0017 backwards): `table` one plain table again, its rows and
    the names of its indexes and constraints kept. Its primary key is its id alone again, an identity
    column; its unique constraints keep the partition key unless `unique_with_key` is false (it was
    added to them)."""
    quote = connection.ops.quote_name
    new = table + TEMPORARY
    sequence = f"{table}_id_seq"
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {quote(new)} (LIKE {quote(table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
            "INCLUDING STORAGE INCLUDING COMPRESSION)"
        )
        # Its ids from an identity column again, as Django made it (a partitioned table's come from a
        # sequence of its own: _id_sequence_create), taking up where that sequence stands.
        cursor.execute(f"ALTER TABLE {quote(new)} ALTER COLUMN id DROP DEFAULT")
        cursor.execute(
            f"ALTER TABLE {quote(new)} ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY "
            f"(SEQUENCE NAME {quote(sequence + TEMPORARY)})"
        )
        without_key = partial(_without_key, key=key)
        unique = _as_it_is if unique_with_key else without_key
        _constraints_copy(cursor, table, new, primary=without_key, unique=unique)
        _indexes_copy(cursor, table, new, unique=unique)
        cursor.execute(f"INSERT INTO {quote(new)} SELECT * FROM {quote(table)}")
        last_value = _sequence_position(cursor, table)
        _drop(cursor, table)  # and its sequence, which it owns
        cursor.execute(f"ALTER TABLE {quote(new)} RENAME TO {quote(table)}")
        _names_restore(cursor, table)
        cursor.execute(f"ALTER SEQUENCE {quote(sequence + TEMPORARY)} RENAME TO {quote(sequence)}")
        if last_value is not None:
            cursor.execute("SELECT setval(%s, %s, %s)", [sequence, *last_value])


def _drop(cursor, table: str) -> None:
    """Drop `table`; the foreign-key checks of rows written in this transaction run first (Django's
    constraints wait for the commit, and PostgreSQL drops no table with checks pending), then wait
    again."""
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    cursor.execute(f"DROP TABLE {connection.ops.quote_name(table)}")
    cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def _names_restore(cursor, table: str) -> None:
    quote = connection.ops.quote_name
    for kind, temporary in _temporary_names(cursor, table):
        name = temporary.removesuffix(TEMPORARY)
        if kind == "constraint":
            cursor.execute(
                f"ALTER TABLE {quote(table)} RENAME CONSTRAINT {quote(temporary)} TO {quote(name)}"
            )
        else:
            cursor.execute(f"ALTER INDEX {quote(temporary)} RENAME TO {quote(name)}")


def _temporary_names(cursor, table: str) -> list[tuple[str, str]]:
    """(kind, name) of `table`'s constraints and other indexes still under a temporary name."""
    cursor.execute(
        "SELECT 'constraint', conname FROM pg_constraint WHERE conrelid = to_regclass(%s) "
        "UNION ALL SELECT 'index', index.relname FROM pg_index JOIN pg_class index ON index.oid = indexrelid "
        "WHERE indrelid = to_regclass(%s) "
        "AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = indexrelid)",
        [table, table],
    )
    return [(kind, name) for kind, name in cursor.fetchall() if name.endswith(TEMPORARY)]


def _sequence_position(cursor, table: str):
    """(last_value, is_called) of the sequence `table`'s ids come from, or None."""
    cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
    (sequence,) = cursor.fetchone()
    if not sequence:
        return None
    cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
    return cursor.fetchone()


def _id_sequence_create(cursor, table: str, new: str) -> None:
    """The new table's ids come from a sequence of its own (an identity column cannot be partitioned
    before PostgreSQL 17), set at the swap to where the old one stands."""
    quote = connection.ops.quote_name
    sequence = f"{table}_id_seq{TEMPORARY}"
    cursor.execute(f"CREATE SEQUENCE {quote(sequence)} AS bigint")
    cursor.execute(f"ALTER TABLE {quote(new)} ALTER COLUMN id SET DEFAULT nextval(%s::regclass)", [sequence])


def _temporary(name: str) -> str:
    assert len(name + TEMPORARY) <= 63, f"{name}: too long for a temporary name"
    return name + TEMPORARY


def _with_key(columns_definition: str, key: str) -> str:
    """'UNIQUE (a, b)' -> 'UNIQUE (a, b, key)': PostgreSQL enforces uniqueness in a partitioned
    table only with its partition key."""
    head, columns, tail = _columns_split(columns_definition)
    names = [name.strip().strip('"') for name in columns.split(",")]
    return columns_definition if key in names else f"{head}{columns}, {key}{tail}"


def _without_key(columns_definition: str, key: str) -> str:
    """'PRIMARY KEY (id, key)' -> 'PRIMARY KEY (id)': the reverse of _with_key."""
    head, columns, tail = _columns_split(columns_definition)
    kept = [name.strip() for name in columns.split(",") if name.strip().strip('"') != key]
    return f"{head}{', '.join(kept)}{tail}"


def _as_it_is(columns_definition: str) -> str:
    return columns_definition


def _columns_split(columns_definition: str) -> tuple[str, str, str]:
    """'UNIQUE (a, b) ...' -> ('UNIQUE (', 'a, b', ') ...')."""
    return re.match(r"^(.*?\()(.*?)(\).*)$", columns_definition, re.S).groups()


def _constraints_copy(cursor, table: str, new: str, *, primary, unique) -> None:
    """The primary key, unique constraints and foreign keys of `table` on `new`, under temporary
    names; the definitions of the primary key and of unique constraints as `primary` and `unique`
    make them."""
    quote = connection.ops.quote_name
    cursor.execute(
        "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = to_regclass(%s) AND contype IN ('p', 'u', 'f') ORDER BY contype DESC, conname",
        [table],
    )
    for name, kind, definition in cursor.fetchall():
        if kind == "p":
            definition = primary(definition)
        elif kind == "u":
            definition = unique(definition)
        temporary = _temporary(name)
        cursor.execute(f"ALTER TABLE {quote(new)} ADD CONSTRAINT {quote(temporary)} {definition}")


def _indexes_copy(cursor, table: str, new: str, *, unique) -> None:
    """The other indexes of `table` on `new` (a unique one's columns as `unique` makes them)."""
    quote = connection.ops.quote_name
    cursor.execute(
        "SELECT index.relname, pg_get_indexdef(pg_index.indexrelid), pg_index.indisunique "
        "FROM pg_index JOIN pg_class index ON index.oid = pg_index.indexrelid "
        "WHERE pg_index.indrelid = to_regclass(%s) AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint WHERE conindid = pg_index.indexrelid)",
        [table],
    )
    for name, definition, is_unique in cursor.fetchall():
        temporary = _temporary(name)
        using = definition.split(" USING ", 1)[1]
        if is_unique:
            using = unique(using)
        index = "UNIQUE INDEX" if is_unique else "INDEX"
        cursor.execute(f"CREATE {index} {quote(temporary)} ON {quote(new)} USING {using}")


def _partitions_create(cursor, table: str, new: str, key: str, today) -> None:
    """The months from the oldest row's to MONTHS_AHEAD after today's, and the default partition."""
    quote = connection.ops.quote_name
    cursor.execute(f"SELECT min({quote(key)}) FROM {quote(table)}")
    (oldest,) = cursor.fetchone()
    last = month_of(today)
    for _ in range(MONTHS_AHEAD):
        last = month_after(last)
    for month in months_between(min(oldest or today, today), last):
        cursor.execute(
            f"CREATE TABLE {quote(partition_name(table, month))} PARTITION OF {quote(new)} "
            "FOR VALUES FROM (%s) TO (%s)",
            [month, month_after(month)],
        )
    cursor.execute(f"CREATE TABLE {quote(default_partition_name(table))} PARTITION OF {quote(new)} DEFAULT")


def _references_to_registry(cursor, table: str) -> None:
    """Foreign keys from other tables to `table`: to its registry (same ids) where it has one."""
    quote = connection.ops.quote_name
    cursor.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE confrelid = to_regclass(%s) AND contype = 'f' AND conrelid <> confrelid",
        [table],
    )
    for referencing, name, definition in cursor.fetchall():
        cursor.execute(f"ALTER TABLE {referencing} DROP CONSTRAINT {quote(name)}")
        if table not in REGISTRY_OF:
            raise RuntimeError(f"{referencing}.{name} points at {table}, which has no registry")
        definition = definition.replace(f"REFERENCES {table}(", f"REFERENCES {REGISTRY_OF[table]}(")
        cursor.execute(f"ALTER TABLE {referencing} ADD CONSTRAINT {quote(name)} {definition}")
