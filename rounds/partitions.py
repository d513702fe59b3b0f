"""Round history partitioned by month of the gaming day (PostgreSQL's declarative partitioning).

Every table written per round is partitioned by RANGE of its gaming day, one partition a month
(`rounds_bet_2026_11` holds November 2026's bets), with a DEFAULT partition that takes a row no
month's partition takes yet, so that no insert ever fails for want of one. A beat task
(`rounds.tasks.partitions_ahead_task`) creates the coming months' partitions ahead of time; a month's
rows found in the default partition are moved into the month's partition as it is created.

A partitioned table's primary key and unique constraints include its partition key, and nothing can
point at it by a foreign key: the registry (rounds.registry) keeps round and bet ids unique and is
what corrections point at. A query that names a day (`gaming_day = ...`, or a range of days) reads
only the partitions of those months.

SQLite (`make demo`) keeps the same tables unpartitioned: nothing here runs there.
"""

import re
from datetime import date

from django.db import connection, transaction

# Each partitioned table and its partition key, in the order they are converted.
PARTITIONED = {
    "rounds_round": "gaming_day",
    "rounds_bet": "gaming_day",
    "rounds_finding": "gaming_day",
    "rounds_tabledaytotal": "day",
    "rounds_tabledaypatternhits": "day",
    "rounds_playerdaytotal": "day",
    "rounds_adjustment": "gaming_day",
    "rounds_refund": "gaming_day",
}
# What points at a partitioned table's rows from outside it points at the registry instead.
REGISTRY_OF = {"rounds_round": "rounds_roundkey", "rounds_bet": "rounds_betkey"}
MONTHS_AHEAD = 3  # the beat task keeps this many months' partitions ready beyond the current one
# What makes a past month's partitions by hand (the beat task makes the coming months').
PARTITION_COMMAND = "python manage.py history_partition --month {month:%Y-%m}"


def month_of(day: date) -> date:
    return day.replace(day=1)


def month_after(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def months_between(first: date, last: date) -> list[date]:
    """The first days of every month from `first`'s to `last`'s, both included."""
    months, month = [], month_of(first)
    while month <= last:
        months.append(month)
        month = month_after(month)
    return months


def partition_name(table: str, month: date) -> str:
    return f"{table}_{month:%Y_%m}"


def default_partition_name(table: str) -> str:
    return f"{table}_default"


def is_partitioned(table: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_partitioned_table WHERE partrelid = to_regclass(%s)", [table])
        return cursor.fetchone() is not None


def month_partitions(table: str) -> list[date]:
    """The months `table` has a partition of (not counting the default partition), in order."""
    pattern = re.compile(rf"^{re.escape(table)}_(\d{{4}})_(\d{{2}})$")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT child.relname FROM pg_inherits JOIN pg_class child ON child.oid = inhrelid "
            "WHERE inhparent = to_regclass(%s)",
            [table],
        )
        names = [row[0] for row in cursor.fetchall()]
    return sorted(date(int(m[1]), int(m[2]), 1) for name in names if (m := pattern.match(name)))


def month_unpartitioned(month: date) -> bool:
    """Whether round history is partitioned (PostgreSQL) and `month` has no partition of its rounds: a
    round of it would land in the default partition. One query."""
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = to_regclass(%s)) "
            "AND to_regclass(%s) IS NULL",
            ["rounds_round", partition_name("rounds_round", month)],
        )
        return cursor.fetchone()[0]


def partitions_ensure(months: list[date]) -> list[str]:
    """Make sure every partitioned table has a partition for each of `months`; the names of those
    created. A month's rows already in the default partition move into its new partition, in the
    same transaction."""
    created = []
    with transaction.atomic():
        for table, key in PARTITIONED.items():
            if not is_partitioned(table):
                continue
            existing = set(month_partitions(table))
            for month in sorted(set(months) - existing):
                _month_partition_create(table, key, month)
                created.append(partition_name(table, month))
    return created


def partitions_ahead(today: date, months_ahead: int = MONTHS_AHEAD) -> list[str]:
    """The current month's partitions and the next `months_ahead` months', created where missing."""
    months = [month_of(today)]
    for _ in range(months_ahead):
        months.append(month_after(months[-1]))
    return partitions_ensure(months)


def _month_partition_create(table: str, key: str, month: date) -> None:
    """One month's partition of `table`. Rows of the month in the default partition would make
    PostgreSQL refuse the new one: they are moved into it first (the new table is filled while
    standalone, then attached)."""
    quote = connection.ops.quote_name
    name, default = partition_name(table, month), default_partition_name(table)
    bounds = [month, month_after(month)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {quote(default)} WHERE {quote(key)} >= %s AND {quote(key)} < %s LIMIT 1", bounds
        )
        if cursor.fetchone() is None:
            cursor.execute(
                f"CREATE TABLE {quote(name)} PARTITION OF {quote(table)} FOR VALUES FROM (%s) TO (%s)", bounds
            )
            return
        cursor.execute(f"CREATE TABLE {quote(name)} (LIKE {quote(table)} INCLUDING ALL)")
        cursor.execute(
            f"WITH moved AS (DELETE FROM {quote(default)} WHERE {quote(key)} >= %s AND {quote(key)} < %s "
            f"RETURNING *) INSERT INTO {quote(name)} SELECT * FROM moved",
            bounds,
        )
        cursor.execute(
            f"ALTER TABLE {quote(table)} ATTACH PARTITION {quote(name)} FOR VALUES FROM (%s) TO (%s)", bounds
        )
