"""Writing many rows at once: PostgreSQL's COPY where it runs, bulk_create elsewhere.

A 5,000-player Boundless round is some 20,000 rows. COPY writes them about ten times faster
than bulk_create; the ids are taken from the table's sequence first, so that rows written later
can point at them.

A COPY may also be sent without waiting for PostgreSQL to be done with it (`wait=False`): the
server works through the rows while Python builds the next table's rows (or replays the next
round), and `rows_written()` then waits for it (every write here does so first). Nothing else
may use the connection in between; `rows_written()` raises the COPY's error, if any.

JSON values are encoded once: `JsonText` carries a value with its encoded text (a whole round
document is encoded for its digest anyway), and the small lists and objects that repeat across
rows (a hand's actions, a bet's options) are encoded once per distinct value.
"""

import json

from django.db import connection
from psycopg import errors as pg_errors
from psycopg import generators, pq
from psycopg.copy import LibpqWriter
from psycopg.waiting import Wait

_JSON_KEPT = 10_000
_json_texts: dict[str, str] = {}


class JsonText:
    """A JSON value and its text, for a column that would otherwise encode it again."""

    __slots__ = ("text", "value")

    def __init__(self, value, text: str | None = None):
        self.value = value
        self.text = json_text(value) if text is None else text


def json_text(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _json_for_copy(value) -> str:
    if type(value) is JsonText:
        return value.text
    # repr() tells apart what json text would not (1 and True); the cache stays small.
    key = repr(value)
    text = _json_texts.get(key)
    if text is None:
        text = json_text(value)
        if len(_json_texts) < _JSON_KEPT:
            _json_texts[key] = text
    return text


def insert_rows(model, fields: list[str], rows: list[tuple], *, ids=None, wait: bool = True) -> list[int]:
    """Insert `rows` (values in the order of `fields`, foreign keys as `<name>_id`); their new ids.

    Every column the rows do not name must have a database default or be nullable: no Python
    default or `auto_now_add` runs here. `ids`: taken beforehand by `reserve_ids_of` (None: taken
    now). `wait=False`: see the module's docstring (on PostgreSQL; elsewhere rows are written now).
    """
    if not rows:
        return []
    if connection.vendor == "postgresql":
        rows_written()
        if ids is None:
            ids = reserve_ids_of({model: len(rows)})[model]
        _copy(model, fields, rows, ids, wait=wait)
        return ids
    json_columns = [i for i, name in enumerate(fields) if _is_json(model, name)]
    objects = []
    for row in rows:
        values = dict(zip(fields, row, strict=True))
        for i in json_columns:
            if type(row[i]) is JsonText:
                values[fields[i]] = row[i].value
        objects.append(model(**values))
    objects = model.objects.bulk_create(objects, batch_size=2000)
    return [obj.pk for obj in objects]


def reserve_ids_of(counts: dict) -> dict:
    """{model: count} -> {model: that many new ids from its sequence}, in one statement, for
    `insert_rows(ids=...)`: taken before any COPY is sent without waiting. On PostgreSQL; None for
    each model elsewhere (bulk_create assigns them)."""
    if connection.vendor != "postgresql":
        return dict.fromkeys(counts)
    rows_written()
    ctes, selects, params = [], [], []
    for n, model in enumerate(counts):
        ctes.append(f"s{n} AS MATERIALIZED (SELECT pg_get_serial_sequence(%s, %s)::regclass AS name)")
        params += [model._meta.db_table, model._meta.pk.column]
    for n, count in enumerate(counts.values()):
        selects.append(f"SELECT {n}, nextval(s{n}.name) FROM s{n}, generate_series(1, %s)")
        params.append(count)
    ids = {model: [] for model in counts}
    models = list(counts)
    # Each sequence is looked up once: as nextval's argument it would be looked up per row, ten
    # times the cost of the nextval itself.
    with connection.cursor() as cursor, connection.wrap_database_errors:
        cursor.execute(f"WITH {', '.join(ctes)} {' UNION ALL '.join(selects)}", params)
        for n, row_id in cursor.fetchall():
            ids[models[n]].append(row_id)
    return ids


def rows_written() -> None:
    """Wait for the COPY sent with wait=False, if any, to be done; raise its error if it failed."""
    raw = getattr(connection, "_rows_pending", None)
    if raw is None:
        return
    connection._rows_pending = None
    with connection.wrap_database_errors:
        for result in raw.wait(generators.fetch_many(raw.pgconn)):
            if result.status != pq.ExecStatus.COMMAND_OK:
                raise pg_errors.error_from_result(result, encoding=raw.pgconn._encoding)


def _is_json(model, name: str) -> bool:
    field = model._meta.get_field(name)
    return field.get_internal_type() == "JSONField" or getattr(field, "holds_json_text", False)


class _EndNotAwaited(LibpqWriter):
    """psycopg's writer, but the end of a COPY is sent without waiting for the server's answer,
    which `rows_written()` reads (with psycopg's own generators, as its `copy_end` does: pinned
    psycopg 3.3). A COPY ended by an exception is ended as psycopg does."""

    def finish(self, exc: BaseException | None = None) -> None:
        if exc:
            return super().finish(exc)
        self.connection.wait(_copy_end_sent(self._pgconn))
        connection._rows_pending = self.connection


def _copy_end_sent(pgconn):
    while pgconn.put_copy_end(None) == 0:
        while not (yield Wait.W):
            continue
    while True:
        while not (yield Wait.W):
            continue
        if pgconn.flush() == 0:
            break


def _copy(model, fields: list[str], rows: list[tuple], ids: list[int], *, wait: bool) -> None:
    table = model._meta.db_table
    pk = model._meta.pk.column
    columns = [model._meta.get_field(name).column for name in fields]
    json_columns = [i for i, name in enumerate(fields) if _is_json(model, name)]
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in [pk, *columns])
    with connection.cursor() as cursor, connection.wrap_database_errors:
        writer = None if wait else _EndNotAwaited(cursor.cursor)
        with cursor.cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN", writer=writer) as copy:
            write_row = copy.write_row
            if len(json_columns) == 1:
                # One JSON column (a bet's options, a hand's decisions): the row around it as slices.
                j = json_columns[0]
                for row_id, row in zip(ids, rows, strict=True):
                    write_row((row_id, *row[:j], _json_for_copy(row[j]), *row[j + 1 :]))
            elif json_columns:
                for row_id, row in zip(ids, rows, strict=True):
                    row = list(row)
                    for i in json_columns:
                        row[i] = _json_for_copy(row[i])
                    write_row((row_id, *row))
            else:
                for row_id, row in zip(ids, rows, strict=True):
                    write_row((row_id, *row))
