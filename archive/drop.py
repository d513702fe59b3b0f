"""Drop a month of round history from PostgreSQL, once the archive holds all of it.

A month's partitions (one per table of rounds.partitions.PARTITIONED) are detached and dropped only
when every casino table with rows in that month has a verified export of it, no row of the month
waits in a default partition, and no round of it awaits its player day totals. Under a lock that
stops writes to those partitions, the database's counts and sums are held against each verified
manifest once more: a month that changed since it was verified (a late round, a correction) is not
dropped, and its export is marked failed so that the next run exports it again.

The registry (rounds.registry: RoundKey, BetKey) keeps the month's round and bet ids: they stay
unique, and corrections, incidents and the archive's recall find the rounds through it.
"""

from datetime import date

from django.db import OperationalError, connection, transaction
from django.utils import timezone

from rounds.models import PlayerTotalsPending
from rounds.partitions import (
    PARTITION_COMMAND,
    PARTITIONED,
    default_partition_name,
    is_partitioned,
    month_after,
    partition_name,
)

from .errors import ArchiveError
from .models import ArchivedMonth, ArchiveStatus
from .slices import PART_OF_TABLE, month_tables, slice_facts
from .window import hot_window_start

# How long the drop waits for a lock (a long report reading the month, a page scanning every
# partition) before it gives up until the next run, rather than stall every reader queued behind it.
LOCK_TIMEOUT = "10s"


def month_drop_blockers(
    month: date, *, today: date | None = None, exports: bool = True, recheck: bool = False
) -> tuple[list[str], list[ArchivedMonth]]:
    """Why `month`'s partitions may not be dropped yet (nothing: they may), and, with `recheck`, the
    verified exports whose month changed in the database since (holding the manifests against it).
    Without `exports`, only what no export will change (a dry run's question)."""
    if connection.vendor != "postgresql":
        return ["round history is partitioned on PostgreSQL only; this database is not one"], []
    blockers = []
    if month >= hot_window_start(today):
        blockers.append(f"{month:%Y-%m} is in the hot window (from {hot_window_start(today):%Y-%m})")
    for table, key in PARTITIONED.items():
        if table not in PART_OF_TABLE:
            blockers.append(f"{table} is partitioned but not exported to the archive")
            continue
        if not is_partitioned(table):
            blockers.append(f"{table} is not partitioned (manage.py history_partition)")
            continue
        rows = _default_rows(table, key, month)
        if rows:
            blockers.append(
                f"{rows:,} row(s) of {month:%Y-%m} are in {default_partition_name(table)}: make the month's "
                f"partitions ({PARTITION_COMMAND.format(month=month)}) to move them into them, then run again"
            )
    pending = PlayerTotalsPending.objects.filter(day__gte=month, day__lt=month_after(month)).count()
    if pending:
        blockers.append(f"{pending:,} round(s) of {month:%Y-%m} await their player day totals")
    changed = []
    if not exports:
        return blockers, changed
    records = {record.table_id: record for record in ArchivedMonth.objects.filter(month=month)}
    for table in month_tables(month):
        record = records.get(table.pk)
        if record is None or record.status != ArchiveStatus.VERIFIED:
            state = "no export" if record is None else f"its export is {record.get_status_display().lower()}"
            blockers.append(f"{table.code} has rounds in {month:%Y-%m} and {state}, not verified")
        elif recheck:
            facts = slice_facts(table, month)
            manifest = record.manifest
            archived_rows = {name: entry["rows"] for name, entry in manifest["files"].items()}
            if facts["rows"] != archived_rows or facts["totals"] != manifest["totals"]:
                blockers.append(f"{table.code}: the database's {month:%Y-%m} changed since it was verified")
                changed.append(record)
    return blockers, changed


def month_drop(month: date, *, today: date | None = None) -> list[str]:
    """Detach and drop `month`'s partitions; their names. Raises ArchiveError naming every reason
    when the month may not be dropped (and nothing is)."""
    blockers, _ = month_drop_blockers(month, today=today)
    if blockers:
        raise ArchiveError("; ".join(blockers))
    try:
        blockers, changed, partitions = _locked_drop(month, today)
    except OperationalError as error:  # a lock not had in LOCK_TIMEOUT, a deadlock with a late write
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ArchiveError(f"the partitions could not be dropped now ({first_line}); run again") from error
    if blockers:
        for record in changed:
            record.status = ArchiveStatus.FAILED
            record.error = "changed in the database since it was verified: export it again"
            record.save(update_fields=["status", "error", "updated_at"])
        raise ArchiveError("; ".join(blockers))
    return partitions


def _locked_drop(month: date, today: date | None) -> tuple[list[str], list[ArchivedMonth], list[str]]:
    """In one transaction: the month's partitions locked against writes, checked again, detached and
    dropped; or, if anything blocks it, nothing done."""
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
        partitions = {table: partition_name(table, month) for table in PARTITIONED}
        for table, partition in list(partitions.items()):
            cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [partition])
            if not cursor.fetchone()[0]:
                del partitions[table]
        if partitions:
            # No row of the month is written or changed from here until the partitions are gone.
            names = ", ".join(quote(partition) for partition in partitions.values())
            cursor.execute(f"LOCK TABLE {names} IN SHARE MODE")
        blockers, changed = month_drop_blockers(month, today=today, recheck=True)
        if blockers:
            return blockers, changed, []
        # PostgreSQL drops no table with deferred checks pending on it (rows written earlier in the
        # same transaction, such as a test's): they are made now.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table, partition in partitions.items():
            # Not CONCURRENTLY: PostgreSQL refuses it for a table with a default partition.
            cursor.execute(f"ALTER TABLE {quote(table)} DETACH PARTITION {quote(partition)}")
            cursor.execute(f"DROP TABLE {quote(partition)}")
        ArchivedMonth.objects.filter(month=month, status=ArchiveStatus.VERIFIED).update(
            status=ArchiveStatus.DROPPED, dropped_at=timezone.now(), error=""
        )
    return [], [], list(partitions.values())


def _default_rows(table: str, key: str, month: date) -> int:
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*) FROM {quote(default_partition_name(table))} "
            f"WHERE {quote(key)} >= %s AND {quote(key)} < %s",
            [month, month_after(month)],
        )
        return cursor.fetchone()[0]
