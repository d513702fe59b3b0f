"""Restore one archived month of one casino table: its verified Parquet files read back into the month's
partitions (made again where they were dropped), every row as it was, its ids kept.

The files are checked first: the manifest in the archive is the one recorded when the month was
exported, and every file has the manifest's bytes and sha256 and the columns the round tables have
now (a file written under another schema is refused, not guessed at). Then, in one transaction, the
month's partitions are made where missing (rounds.partitions.partitions_ensure), the table's rows of
the month, which must not be in the database already, are copied in (COPY), and the database's
counts and sums of the month are held against the manifest: any difference rolls the whole restore
back. The registry (rounds.registry) never lost the month's ids, so they stay unique.

Restored, the month is in PostgreSQL again (ArchivedMonth `restored`): its rounds are found there, and
they can be corrected. It is still past the hot window, so the next archive_months exports, verifies
and drops it again, with whatever was recorded against it since.
"""

import json
from collections.abc import Collection
from datetime import date

import pyarrow as pa
import pyarrow.parquet as pq
from django.db import connection, transaction
from django.utils import timezone

from rounds.partitions import partitions_ensure
from tables.models import Table

from .errors import ArchiveError
from .export import MANIFEST
from .models import ArchivedMonth, ArchiveStatus
from .signing import signature_problem
from .slices import ADDED_COLUMNS, PARTS, Part, part_columns, part_schema, slice_facts
from .storage import ArchiveLocation, archive_location

ROWS_PER_READ = {"rounds": 64}  # rows decoded at a time; documents are large
DEFAULT_ROWS_PER_READ = 65_536


def month_restore(table: Table, month: date, *, location: ArchiveLocation | None = None) -> ArchivedMonth:
    """Read `table`'s archived `month` back into PostgreSQL from where it was exported (or
    `location`); its record, now `restored`. Raises ArchiveError naming what stops it (and then
    nothing is changed)."""
    if connection.vendor != "postgresql":
        raise ArchiveError(
            "round history is archived and restored on PostgreSQL only; this database is not one"
        )
    label = f"{table.code} {month:%Y-%m}"
    record = ArchivedMonth.objects.select_related("table").filter(table=table, month=month).first()
    if record is None:
        raise ArchiveError(f"{label} was never exported to the archive: there is nothing to restore")
    if record.status == ArchiveStatus.DELETED:
        raise ArchiveError(
            f"{label}'s archive was deleted under retention (its ArchiveDeletion record says when, by whom "
            "and why): there is nothing to restore"
        )
    if record.status != ArchiveStatus.DROPPED:
        raise ArchiveError(
            f"{label} is {record.get_status_display().lower()}, not dropped: its rows are in the database "
            "(only a month the archive alone holds is restored)"
        )
    location = location or archive_location(record.archive_url)
    problems = files_check(record, location)
    if problems:
        raise ArchiveError(f"{label} is not restored: " + "; ".join(problems))
    directory = location.month_dir(table.code, month)
    files = record.manifest["files"]
    with transaction.atomic():
        partitions_ensure([month])
        there = {name: rows for name, rows in slice_facts(table, month)["rows"].items() if rows}
        if there:
            held = ", ".join(f"{rows:,} {name}" for name, rows in there.items())
            raise ArchiveError(
                f"{label}: the database already holds {held} of the month; nothing was restored"
            )
        for part in PARTS:
            _part_copy(part, location, f"{directory}/{files[part.name]['path']}")
        facts = slice_facts(table, month)
        archived_rows = {name: entry["rows"] for name, entry in files.items()}
        differences = [
            f"{name}: {archived_rows.get(name)} archived, {rows} restored"
            for name, rows in facts["rows"].items()
            if archived_rows.get(name) != rows
        ] + [
            f"{name}: {record.manifest['totals'].get(name)} archived, {value} restored"
            for name, value in facts["totals"].items()
            if record.manifest["totals"].get(name) != value
        ]
        if differences:
            raise ArchiveError(f"{label} is not restored (rolled back): " + "; ".join(differences))
        record.status, record.restored_at, record.error = ArchiveStatus.RESTORED, timezone.now(), ""
        record.save(update_fields=["status", "restored_at", "error", "updated_at"])
    return record


def files_check(record: ArchivedMonth, location: ArchiveLocation, *, signed: bool = True) -> list[str]:
    """What is wrong with the month's files for a restore (nothing: they may be read back): the
    manifest as recorded (and signed, archive.signing), every file as the manifest says, with the
    round tables' columns. Without `signed`, the signature is not checked (archive_check --sign
    checks an unsigned manifest's files before it signs it)."""
    directory = location.month_dir(record.table.code, record.month)
    try:
        manifest = json.loads(location.read_bytes(f"{directory}/{MANIFEST}"))
    except (OSError, ValueError) as error:
        return [f"{MANIFEST} cannot be read at {location.url}: {error}"]
    if manifest != record.manifest:
        return [f"{MANIFEST} differs from the manifest recorded when the month was exported"]
    if signed and (unsigned := signature_problem(manifest)) is not None:
        return [f"{MANIFEST}: {unsigned}"]
    problems = []
    for part in PARTS:
        entry = manifest["files"].get(part.name)
        if entry is None:
            problems.append(f"{part.name}: not in {MANIFEST}")
            continue
        path = f"{directory}/{entry['path']}"
        try:
            mismatch = location.manifest_mismatch(path, entry)
        except OSError as error:
            problems.append(f"{entry['path']}: {error}")
            continue
        if mismatch is not None:
            problems.append(f"{entry['path']}: {mismatch}")
            continue
        with location.filesystem.open_input_file(path) as source:
            found = pq.ParquetFile(source).schema_arrow.remove_metadata()
        if not columns_fit(found, part_schema(part, {}), added=ADDED_COLUMNS.get(part.name, ())):
            problems.append(
                f"{entry['path']}: its columns are not the {part.model.__name__} table's now "
                "(written under another schema)"
            )
    return problems


def columns_fit(found: pa.Schema, wanted: pa.Schema, *, added: Collection[str] = ()) -> bool:
    """The file's columns are the table's now, or those of a month exported before its amounts were
    widened (issue 44): a decimal no wider than the column's now, at its scale, or a decimal where
    the column now keeps any width (written as its exact text); or before the columns `added` were
    (ADDED_COLUMNS): the file lacks them, and the restore leaves them to their database default."""
    if found.equals(wanted):
        return True
    lacking = [name for name in added if name in wanted.names and name not in found.names]
    for name in lacking:
        wanted = wanted.remove(wanted.get_field_index(name))
    if found.names != wanted.names:
        return False
    for was, now in zip(found, wanted, strict=True):
        if was.equals(now):
            continue
        narrower = (
            pa.types.is_decimal(was.type)
            and pa.types.is_decimal(now.type)
            and was.type.scale == now.type.scale
            and was.type.precision <= now.type.precision
        )
        if was.nullable != now.nullable or not (
            narrower or (pa.types.is_decimal(was.type) and pa.types.is_string(now.type))
        ):
            return False
    return True


def _part_copy(part: Part, location: ArchiveLocation, path: str) -> int:
    """Copy one file's rows into its table, columns by name (the database's own): the rows written."""
    quote = connection.ops.quote_name
    rows = 0
    with location.filesystem.open_input_file(path) as source:
        parquet = pq.ParquetFile(source)
        names = ", ".join(quote(name) for name in parquet.schema_arrow.names)
        from_file = {column.name: column.from_file for column in part_columns(part) if column.from_file}
        converted = [
            (index, from_file[name])
            for index, name in enumerate(parquet.schema_arrow.names)
            if name in from_file
        ]
        statement = f"COPY {quote(part.model._meta.db_table)} ({names}) FROM STDIN"
        # Django's cursor hands `copy` to psycopg's own (as rounds.bulk does); its errors become Django's.
        with connection.cursor() as cursor, connection.wrap_database_errors, cursor.copy(statement) as copy:
            for batch in parquet.iter_batches(batch_size=ROWS_PER_READ.get(part.name, DEFAULT_ROWS_PER_READ)):
                columns = [column.to_pylist() for column in batch.columns]
                for index, convert in converted:  # the file's value as the database stores it
                    columns[index] = [None if value is None else convert(value) for value in columns[index]]
                for row in zip(*columns, strict=True):
                    copy.write_row(row)
                rows += batch.num_rows
    return rows
