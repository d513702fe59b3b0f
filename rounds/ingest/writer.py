"""The one writer of a round's rows."""

from django.db.models import Model

from ..bulk import insert_rows, reserve_ids_of


class RoundWriter:
    """Writes the rows of one round, each table's by one COPY on PostgreSQL (bulk_create elsewhere).

    The ids of every table are reserved first, in one statement, so that a row can point at rows
    of another table before those are written (a hand at its spot, a finding at its bet); each
    `write` returns once PostgreSQL has taken its rows, and raises its error if it refused them.
    """

    def __init__(self, counts: dict[type[Model], int]):
        self._ids = reserve_ids_of(counts)

    def write(
        self, model: type[Model], fields: list[str], rows: list[tuple], ids: list[int] | None = None
    ) -> list[int]:
        """Write `rows` of `model` (values in the order of `fields`, see `bulk.insert_rows`); their
        ids, in the order of the rows. `ids`: the rows' own (a registry's key takes its round's or
        bet's id), else those reserved for `model`."""
        return insert_rows(model, fields, rows, ids=self._ids[model] if ids is None else ids)
