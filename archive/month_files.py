"""One archived month's files as recall reads them (archive.recall): through DuckDB, each file checked
against the month's manifest as it is first opened (archive.checks), and the rows made unsaved model
instances with their ids as stored.

- where the archive is a directory, DuckDB reads the Parquet files itself (`read_parquet`) and skips
  the row groups outside the query by their statistics;
- elsewhere (an S3 bucket), pyarrow opens the file through the archive's filesystem, the row groups
  whose statistics can hold the query's range are read, and DuckDB queries them.
"""

import json
import os
import threading

import duckdb
import pyarrow.parquet as pq
from django.db import models
from pyarrow import fs

from .checks import file_checked, manifest_checked
from .errors import ArchiveError
from .models import ArchivedMonth
from .slices import ADDED_COLUMNS
from .storage import archive_location


def model_rows(model: type[models.Model], rows: list[dict]) -> list[models.Model]:
    """Unsaved `model` instances of rows read from its file (named by the database's columns). A row
    with every column is given to the model positionally, as Django's own reads do: a fifth of the
    time by name."""
    fields = [
        (
            field.column,
            field.attname,
            isinstance(field, models.JSONField) or hasattr(field, "holds_json_text"),
        )
        for field in model._meta.concrete_fields
    ]
    json_at = [index for index, (_, _, is_json) in enumerate(fields) if is_json]
    instances = []
    for row in rows:
        if len(row) == len(fields):
            values = [row[column] for column, _, _ in fields]
            for index in json_at:
                if values[index] is not None:
                    values[index] = json.loads(values[index])
            instances.append(model(*values))
            continue
        values = {}
        for column, attname, is_json in fields:
            if column in row:
                value = row[column]
                values[attname] = json.loads(value) if is_json and value is not None else value
        instances.append(model(**values))
    return instances


_opened: tuple[int, duckdb.DuckDBPyConnection] | None = None  # (process id, its database)
_opened_lock = threading.Lock()


def _process_database() -> duckdb.DuckDBPyConnection:
    """This process's in-memory DuckDB database, opened on first use."""
    global _opened
    with _opened_lock:
        if _opened is None or _opened[0] != os.getpid():  # none yet, or a parent's inherited by a fork
            _opened = (os.getpid(), duckdb.connect())
        return _opened[1]


class MonthFiles:
    """One archived month of one casino table: its files, queried through DuckDB. Close it."""

    def __init__(self, record: ArchivedMonth):
        self.record = record
        manifest_checked(record)  # its signature, before any file is trusted to match it
        self.location = archive_location(record.archive_url)
        self.checked: set[str] = set()  # the files checked against the manifest (archive.checks)
        self.directory = self.location.month_dir(record.table.code, record.month)
        self.local = isinstance(self.location.filesystem, fs.LocalFileSystem)
        # A connection of its own (registered tables are the connection's) to the process's
        # database: opening a database takes 10-11 ms, a connection to it none (measured 2026-12-03).
        self.database = _process_database().cursor()
        self.database.execute("SET TimeZone = 'UTC'")  # timestamps come back in UTC, as Django keeps them
        self.registered = 0

    def close(self) -> None:
        self.database.close()

    def __enter__(self) -> "MonthFiles":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def path(self, name: str) -> str:
        """Where file `name` is; it is checked against the manifest first (ArchiveUnreadable when it is
        damaged or missing), once a MonthFiles."""
        entry = self.record.manifest["files"].get(name)
        if entry is None:
            raise ArchiveError(f"{self.record}: the manifest names no {name} file")
        path = f"{self.directory}/{entry['path']}"
        if name not in self.checked:
            file_checked(self.record, self.location, path, entry)
            self.checked.add(name)
        return path

    def select(
        self,
        name: str,
        where: str,
        params: list,
        *,
        columns: list[str] | None = None,
        bounds: tuple[str, object, object] | None = None,
        order: str = "id",
        limit: int | None = None,
    ) -> list[dict]:
        """The rows of file `name` where `where` holds (DuckDB's SQL, `?` parameters), in `order`,
        as dicts by column (`columns`, default all: they must include every column `where` and
        `order` name; all, from a file written before a column was added, give it as ADDED_COLUMNS
        says). `bounds`, (column, low, high), says the range the query keeps itself to: the row
        groups read outside a directory."""
        source = self._source(name, columns, bounds)
        shown = ", ".join(f'"{column}"' for column in columns) if columns else "*"
        sql = f"SELECT {shown} FROM {source} WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        cursor = self.database.execute(sql, params)
        names = [column[0] for column in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
        if columns is None:
            lacking = {
                column: value for column, value in ADDED_COLUMNS.get(name, {}).items() if column not in names
            }
            if lacking:
                for row in rows:
                    row.update(lacking)
        return rows

    def aggregate(
        self, name: str, sql: str, params: list, *, bounds: tuple[str, object, object]
    ) -> list[tuple]:
        """`sql` with `{source}` standing for file `name`'s rows (in `bounds`): its rows as tuples."""
        cursor = self.database.execute(sql.format(source=self._source(name, None, bounds)), params)
        return cursor.fetchall()

    def _source(self, name: str, columns: list[str] | None, bounds) -> str:
        """What a query reads file `name` from: the file itself in a directory, read by DuckDB; the
        row groups that can hold `bounds` elsewhere, read by pyarrow and registered for DuckDB."""
        if self.local:
            # Named in the query itself: a view of the file would be read once to be made and again
            # by each query (0.5 ms a file, measured 2026-12-04), and would be the whole database's.
            path = self.path(name).replace("'", "''")
            return f"read_parquet('{path}')"
        with self.location.filesystem.open_input_file(self.path(name)) as source:
            parquet = pq.ParquetFile(source)
            groups = _groups_within(parquet, bounds)
            table = parquet.read_row_groups(groups, columns=_read_columns(parquet, columns, bounds))
        self.registered += 1
        view = f"groups_{name}_{self.registered}"
        self.database.register(view, table)
        return view


def _read_columns(parquet: pq.ParquetFile, columns: list[str] | None, bounds) -> list[str] | None:
    """The columns to read: those shown (which hold those the query's conditions name), and the
    bounds'. None: all."""
    if columns is None:
        return None
    wanted = list(columns)
    if bounds is not None and bounds[0] not in wanted:
        wanted.append(bounds[0])
    return [name for name in parquet.schema_arrow.names if name in wanted]


def _groups_within(parquet: pq.ParquetFile, bounds) -> list[int]:
    """The row groups whose statistics for `bounds`' column can hold a value in its range (every
    group without statistics)."""
    groups = list(range(parquet.metadata.num_row_groups))
    if bounds is None:
        return groups
    column, low, high = bounds
    index = parquet.schema_arrow.get_field_index(column)
    kept = []
    for group in groups:
        statistics = parquet.metadata.row_group(group).column(index).statistics
        if statistics is None or not statistics.has_min_max:
            kept.append(group)
        elif statistics.min <= high and statistics.max >= low:
            kept.append(group)
    return kept
