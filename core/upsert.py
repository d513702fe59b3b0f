"""Rows that are added to, never rewritten: the totals kept as rounds arrive (rounds.totals, live).

`upsert_add` inserts rows, or adds them to the rows of the same key (INSERT ... ON CONFLICT DO
UPDATE), in one statement, on PostgreSQL and SQLite alike. Callers pass the rows in key order, so
that two writers of overlapping rows take their locks in the same order.
"""

from collections.abc import Sequence

from django.db import connection


def upsert_add(
    model,
    rows: Sequence[tuple],
    *,
    keys: Sequence[str],
    sums: Sequence[str],
    kept_if_larger: Sequence[str] = (),
) -> None:
    """Insert `rows` (values in the order: keys, sums, kept_if_larger), or add their `sums` to the
    rows of the same key. `kept_if_larger` names a measure and what goes with it (the first is
    compared): the row keeps the larger, and the first stored among equals."""
    if not rows:
        return
    table = model._meta.db_table
    columns = [*keys, *sums, *kept_if_larger]
    assignments = [f"{name} = {table}.{name} + excluded.{name}" for name in sums]
    if kept_if_larger:
        larger = f"excluded.{kept_if_larger[0]} > {table}.{kept_if_larger[0]}"
        assignments += [
            f"{name} = CASE WHEN {larger} THEN excluded.{name} ELSE {table}.{name} END"
            for name in kept_if_larger
        ]
    row_sql = f"({', '.join(['%s'] * len(columns))})"
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row_sql] * len(rows))} "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {', '.join(assignments)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in row])
