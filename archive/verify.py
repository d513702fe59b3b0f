"""Verify one month's export: read it back and hold it against its manifest and the database.

Every file named by the manifest must be there with the manifest's bytes and sha256, decode to the
columns the round tables have now, and hold the manifest's row count; the sums read back from the
files (bets, wagered, returned, adjustments, refunds) must equal the manifest's; and the database
must hold, for the same table and month, the same rows of every file and the same totals. Money is
compared as Decimal (the files' decimal128 columns), never as a float.
"""

import json
from datetime import date
from decimal import Decimal

import pyarrow.compute as pc
import pyarrow.parquet as pq

from tables.models import Table

from .export import MANIFEST
from .slices import PARTS, SUMS, amount_text, part_schema, slice_facts
from .storage import ArchiveLocation

ROWS_PER_READ = {"rounds": 64}  # rows decoded at a time; documents are large
DEFAULT_ROWS_PER_READ = 65_536


def month_verify_read(
    table: Table, month: date, location: ArchiveLocation, recorded: dict | None = None
) -> tuple[list[str], dict]:
    """The problems found with `table`'s `month` under `location` (none: verified), and what the
    database holds of it (archive.slices.slice_facts). `recorded`: the manifest the export kept in
    the database, which the archive's must equal."""
    directory = location.month_dir(table.code, month)
    manifest = json.loads(location.read_bytes(f"{directory}/{MANIFEST}"))
    problems = []
    if recorded is not None and manifest != recorded:
        problems.append(f"{MANIFEST} differs from the manifest recorded when the month was exported")
    if manifest.get("table") != table.code or manifest.get("month") != f"{month:%Y-%m}":
        problems.append(f"{MANIFEST} describes {manifest.get('table')} {manifest.get('month')}")
    read = {"rows": {}, "sums": {}}
    for part in PARTS:
        entry = manifest["files"].get(part.name)
        if entry is None:
            problems.append(f"{part.name}: not in {MANIFEST}")
            continue
        problems += _file_check(part, location, f"{directory}/{entry['path']}", entry, read)
    totals = manifest["totals"]
    from_files = {
        "rounds": read["rows"].get("rounds"),
        "bets": read["rows"].get("bets"),
        **{name: amount_text(amount) for name, amount in read["sums"].items()},
    }
    for name, value in from_files.items():
        if totals.get(name) != value:
            problems.append(f"{name}: {value} in the files, {totals.get(name)} in {MANIFEST}")
    database = slice_facts(table, month)
    for name, rows in database["rows"].items():
        entry = manifest["files"].get(name)
        if entry is not None and entry["rows"] != rows:
            problems.append(f"{name}: {entry['rows']:,} rows archived, {rows:,} in the database")
    for name, value in database["totals"].items():
        if totals.get(name) != value:
            problems.append(f"{name}: {totals.get(name)} archived, {value} in the database")
    return problems, database


def _file_check(part, location: ArchiveLocation, path: str, entry: dict, read: dict) -> list[str]:
    mismatch = location.manifest_mismatch(path, entry)
    if mismatch is not None:
        return [f"{entry['path']}: {mismatch}"]
    problems = []
    with location.filesystem.open_input_file(path) as source:
        parquet = pq.ParquetFile(source)
        expected = part_schema(part, {})
        found = parquet.schema_arrow.remove_metadata()
        if not found.equals(expected):
            problems.append(
                f"{entry['path']}: its columns are not the {part.model.__name__} table's: {found}"
            )
        rows, sums = 0, {total: Decimal(0) for total in SUMS.get(part.name, {})}
        # Every column of every row group is decoded: a file that cannot be read back fails here.
        for batch in parquet.iter_batches(batch_size=ROWS_PER_READ.get(part.name, DEFAULT_ROWS_PER_READ)):
            rows += batch.num_rows
            for total, column in SUMS.get(part.name, {}).items():
                sums[total] += pc.sum(batch.column(column)).as_py() or Decimal(0)
    if rows != entry["rows"] or parquet.metadata.num_rows != entry["rows"]:
        problems.append(f"{entry['path']}: {rows:,} rows read back; the manifest says {entry['rows']:,}")
    read["rows"][part.name] = rows
    read["sums"].update(sums)
    return problems
