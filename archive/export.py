"""Export one month of one casino table's round history to Parquet, with its manifest.

Each file of the month (archive.slices.PARTS) is read from a server-side cursor a chunk at a time
and written a row group at a time, so that a month of a busy table never sits in memory, and is
checksummed as it is written. The whole month is read in one REPEATABLE READ transaction (when the
export is not already inside one): the files and the manifest's sums describe one moment. The
manifest is written last, so a month whose export stopped part way has none.

manifest.json: the table, the month, when it was made, the rounds app's schema (its latest
migration), and per file its rows, bytes, sha256 and sort order; and the month's totals: rounds,
bets, wagered, returned, adjustments and refunds (amounts as strings with two decimals); and its
signature (archive.signing) when PITBOSS_ARCHIVE_MANIFEST_KEY is set.
"""

from contextlib import contextmanager
from datetime import date
from decimal import Decimal

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from django.db import connection, transaction
from django.utils import timezone

from rounds.models import PlayerTotalsPending
from rounds.partitions import month_after
from tables.models import Table

from .errors import ArchiveError
from .signing import manifest_bytes, manifest_signed
from .slices import PARTS, SUMS, Part, amount_text, part_columns, part_schema, slice_rows
from .storage import ArchiveLocation, HashingSink

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 9  # measured: documents shrink a fifth more than at zstd's default (3)


def rounds_schema_version() -> str:
    """The rounds app's latest migration applied: the schema the files' columns come from."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT max(name) FROM django_migrations WHERE app = %s", ["rounds"])
        return f"rounds.{cursor.fetchone()[0]}"


@contextmanager
def month_snapshot():
    """One snapshot for every file of the month: REPEATABLE READ, read only, on PostgreSQL when no
    transaction is open yet (inside one, such as a test's, its own snapshot rules)."""
    fresh = transaction.get_autocommit()
    with transaction.atomic():
        if fresh and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def month_export_write(table: Table, month: date, location: ArchiveLocation) -> dict:
    """Write `table`'s `month` under `location`; its manifest. Whatever an earlier export of the month
    left there is deleted first. Raises on any failure: the partition stays, the caller records it."""
    pending = PlayerTotalsPending.objects.filter(table=table, day__gte=month, day__lt=month_after(month))
    if count := pending.count():
        raise ArchiveError(
            f"{count} round(s) of {table.code} in {month:%Y-%m} await their player day totals "
            "(rounds.totals.player_totals_catch_up, run every minute by Celery beat): export again after it."
        )
    directory = location.month_dir(table.code, month)
    location.month_clear(table.code, month)
    schema_version = rounds_schema_version()
    metadata = {
        "pitboss.table": table.code,
        "pitboss.month": f"{month:%Y-%m}",
        "pitboss.schema_version": schema_version,
    }
    files, sums = {}, {}
    with month_snapshot():
        for part in PARTS:
            files[part.name], sums[part.name] = _part_write(part, table, month, location, directory, metadata)
    manifest = {
        "format": MANIFEST_FORMAT,
        "table": table.code,
        "month": f"{month:%Y-%m}",
        "created_at": timezone.now().isoformat(),
        "schema_version": schema_version,
        "compression": COMPRESSION,
        "files": files,
        "totals": {
            "rounds": files["rounds"]["rows"],
            "bets": files["bets"]["rows"],
            **{
                name: amount_text(amount) for part_sums in sums.values() for name, amount in part_sums.items()
            },
        },
    }
    manifest = manifest_signed(manifest)  # with PITBOSS_ARCHIVE_MANIFEST_KEY set (archive.signing)
    location.write_bytes(f"{directory}/{MANIFEST}", manifest_bytes(manifest))
    return manifest


def _part_write(
    part: Part, table: Table, month: date, location: ArchiveLocation, directory: str, metadata: dict
) -> tuple[dict, dict[str, Decimal]]:
    """One file: its manifest entry, and the sums (SUMS) of its amounts."""
    columns = part_columns(part)
    schema = part_schema(part, {**metadata, "pitboss.file": part.name})
    names = [column.name for column in columns]
    sums = {total: Decimal(0) for total in SUMS.get(part.name, {})}
    rows = 0

    def flush(buffer: list[tuple]) -> None:
        nonlocal rows
        values = zip(*buffer, strict=True)  # the rows' columns
        arrays = [
            pa.array(column_values, type=column.type)
            for column_values, column in zip(values, columns, strict=True)
        ]
        batch = pa.RecordBatch.from_arrays(arrays, schema=schema)
        writer.write_batch(batch, row_group_size=len(buffer))
        for total, column in SUMS.get(part.name, {}).items():
            sums[total] += pc.sum(batch.column(column)).as_py() or Decimal(0)
        rows += len(buffer)

    sink = HashingSink(location.filesystem.open_output_stream(f"{directory}/{part.name}.parquet"))
    try:
        writer = pq.ParquetWriter(
            sink,
            schema,
            compression=COMPRESSION,
            compression_level=COMPRESSION_LEVEL,
            store_decimal_as_integer=True,  # amounts of up to 18 digits as integers: smaller
            sorting_columns=[pq.SortingColumn(names.index(column)) for column in part.order],
        )
        queryset = slice_rows(part, table, month).order_by(*part.order)
        buffer, text = [], 0
        converted = [(index, column.to_file) for index, column in enumerate(columns) if column.to_file]
        for row in queryset.values_list(*[column.value for column in columns]).iterator(
            chunk_size=part.rows_per_chunk
        ):
            if converted:
                row = list(row)
                for index, to_file in converted:
                    if row[index] is not None:
                        row[index] = to_file(row[index])
            buffer.append(row)
            if part.bytes_per_group is not None:
                text += sum(len(value) for value in row if isinstance(value, str))
            if len(buffer) >= part.rows_per_group or (part.bytes_per_group and text >= part.bytes_per_group):
                flush(buffer)
                buffer, text = [], 0
        if buffer:
            flush(buffer)
        writer.close()
    finally:
        sink.close()
    entry = {
        "path": f"{part.name}.parquet",
        "rows": rows,
        "bytes": sink.size,
        "sha256": sink.digest.hexdigest(),
        "sorted_by": list(part.order),
    }
    return entry, sums
