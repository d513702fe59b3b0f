"""Writing many rows at once: PostgreSQL's COPY where it runs, bulk_create elsewhere.

A 5,000-player Boundless round is some 20,000 rows. COPY writes them about ten times faster
than bulk_create; the ids are taken from the table's sequence first (`reserve_ids_of`), so that
rows written later can point at them.

JSON values are encoded once: `JsonText` carries a value with its encoded text (a whole round
document is encoded for its digest anyway). A value that repeats across rows (a hand's actions,
a bet's options) is best made into one JsonText by its caller and passed for each row.
"""

import json

from django.db import connection


class JsonText:
    """A JSON value and its text, for a column that would otherwise encode it again."""

    __slots__ = ("text", "value")

    def __init__(self, value, text: str | None = None):
        self.value = value
        self.text = json_text(value) if text is None else text


def json_text(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def insert_rows(model, fields: list[str], rows: list[tuple], *, ids: list[int] | None = None) -> list[int]:
    """Insert `rows` (values in the order of `fields`, foreign keys as `<name>_id`); their new ids.

    Every column the rows do not name must have a database default or be nullable: no Python
    default or `auto_now_add` runs here. `ids`: taken beforehand by `reserve_ids_of`, or the rows'
    own (a registry key's); None: taken now (on PostgreSQL) or assigned on insert.
    """
    if not rows:
        return []
    if connection.vendor == "postgresql":
        if ids is None:
            ids = reserve_ids_of({model: len(rows)})[model]
        _copy(model, fields, rows, ids)
        return ids
    json_columns = [i for i, name in enumerate(fields) if _is_json(model, name)]
    objects = []
    for n, row in enumerate(rows):
        values = dict(zip(fields, row, strict=True))
        if ids is not None:
            values[model._meta.pk.attname] = ids[n]
        for i in json_columns:
            if type(row[i]) is JsonText:
                values[fields[i]] = row[i].value
        objects.append(model(**values))
    objects = model.objects.bulk_create(objects, batch_size=2000)
    return [obj.pk for obj in objects]


def reserve_ids_of(counts: dict) -> dict:
    """{model: count} -> {model: that many new ids from its sequence}, in one statement, for
    `insert_rows(ids=...)`. On PostgreSQL; None for each model elsewhere (bulk_create assigns
    them)."""
    if connection.vendor != "postgresql":
        return dict.fromkeys(counts)
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
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(ctes)} {' UNION ALL '.join(selects)}", params)
        for n, row_id in cursor.fetchall():
            ids[models[n]].append(row_id)
    return ids


def _is_json(model, name: str) -> bool:
    field = model._meta.get_field(name)
    return field.get_internal_type() == "JSONField" or getattr(field, "holds_json_text", False)


def _json_for_copy(value) -> str:
    return value.text if type(value) is JsonText else json_text(value)


def _encoder_for_copy(field):
    """How COPY takes a JSON column's values: as their text, or as a field that keeps its JSON its own
    way (rounds.fields.CompressedJsonField) prepares them."""
    return field.get_prep_value if getattr(field, "holds_json_text", False) else _json_for_copy


def _copy(model, fields: list[str], rows: list[tuple], ids: list[int]) -> None:
    table = model._meta.db_table
    pk = model._meta.pk.column
    columns = [model._meta.get_field(name).column for name in fields]
    json_columns = [i for i, name in enumerate(fields) if _is_json(model, name)]
    encoders = {i: _encoder_for_copy(model._meta.get_field(fields[i])) for i in json_columns}
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in [pk, *columns])
    # Django's cursor hands `copy` to psycopg's own; its errors become Django's (IntegrityError).
    with connection.cursor() as cursor, connection.wrap_database_errors:
        with cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy:
            write_row = copy.write_row
            if len(json_columns) == 1:
                # One JSON column (a bet's options, a hand's decisions): the row around it as slices.
                j = json_columns[0]
                encode = encoders[j]
                for row_id, row in zip(ids, rows, strict=True):
                    write_row((row_id, *row[:j], encode(row[j]), *row[j + 1 :]))
            elif json_columns:
                for row_id, row in zip(ids, rows, strict=True):
                    row = list(row)
                    for i in json_columns:
                        row[i] = encoders[i](row[i])
                    write_row((row_id, *row))
            else:
                for row_id, row in zip(ids, rows, strict=True):
                    write_row((row_id, *row))
