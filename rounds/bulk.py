"""Writing many rows at once: PostgreSQL's COPY where it runs, bulk_create elsewhere.

A 5,000-player Boundless round is some 20,000 rows. COPY writes them about ten times faster
than bulk_create (../shared/PERFORMANCE.md); the ids are taken from the table's sequence first,
so that rows written later can point at them.
"""

from django.db import connection
from psycopg.types.json import Jsonb


def insert_rows(model, fields: list[str], rows: list[tuple]) -> list[int]:
    """Insert `rows` (values in the order of `fields`, foreign keys as `<name>_id`); their new ids."""
    if not rows:
        return []
    if connection.vendor == "postgresql":
        return _copy(model, fields, rows)
    objects = model.objects.bulk_create(
        [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=2000
    )
    return [obj.pk for obj in objects]


def _copy(model, fields: list[str], rows: list[tuple]) -> list[int]:
    table = model._meta.db_table
    columns = [model._meta.get_field(name).column for name in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, len(rows)]
        )
        ids = [row[0] for row in cursor.fetchall()]
        quoted = ", ".join(connection.ops.quote_name(column) for column in ["id", *columns])
        with cursor.cursor.copy(f"COPY {connection.ops.quote_name(table)} ({quoted}) FROM STDIN") as copy:
            for row_id, row in zip(ids, rows, strict=True):
                copy.write_row((row_id, *(Jsonb(v) if isinstance(v, dict | list) else v for v in row)))
    return ids
