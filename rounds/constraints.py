"""A unique column checked through a hash index on PostgreSQL (an exclusion constraint).

The bet registry keeps every bet id ever stored, one row per bet: its unique btree index took 97.6
bytes a bet over a 24-month history (tests/benchmarks/bench_history.py), against 38.4 for a hash
index of the same ids (1,000,000 ids, 2026-12-03). `EXCLUDE USING hash (column WITH =)` enforces
the same uniqueness: PostgreSQL compares the values themselves, not their hashes, and it waits for
a concurrent insert of the same value as a unique index does. A violation is an IntegrityError.

Django's ExclusionConstraint allows only GiST and SP-GiST indexes, so this is a UniqueConstraint
whose SQL on PostgreSQL is the exclusion constraint's (BaseConstraint's documented methods:
constraint_sql, create_sql, remove_sql). Elsewhere (SQLite) it is a plain unique constraint, and
Django validates it as one everywhere.
"""

from django.db import models


class HashUniqueConstraint(models.UniqueConstraint):
    def __init__(self, *, fields: tuple[str, ...] | list[str], name: str, **kwargs):
        if len(fields) != 1 or kwargs:
            raise ValueError("HashUniqueConstraint takes one field and a name, nothing else.")
        super().__init__(fields=fields, name=name)

    def _exclusion_sql(self, model, schema_editor) -> str:
        column = model._meta.get_field(self.fields[0]).column
        name = schema_editor.quote_name(self.name)
        return f"CONSTRAINT {name} EXCLUDE USING hash ({schema_editor.quote_name(column)} WITH =)"

    def _alter_table(self, model, schema_editor) -> str:
        return f"ALTER TABLE {schema_editor.quote_name(model._meta.db_table)}"

    def constraint_sql(self, model, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return super().constraint_sql(model, schema_editor)
        return self._exclusion_sql(model, schema_editor)

    def create_sql(self, model, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return super().create_sql(model, schema_editor)
        return f"{self._alter_table(model, schema_editor)} ADD {self._exclusion_sql(model, schema_editor)}"

    def remove_sql(self, model, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return super().remove_sql(model, schema_editor)
        name = schema_editor.quote_name(self.name)
        return f"{self._alter_table(model, schema_editor)} DROP CONSTRAINT {name}"
