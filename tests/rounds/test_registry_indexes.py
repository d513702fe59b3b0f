"""The registry keeps one index per id (PostgreSQL): its primary key and the unique index on the game
server's id. A `unique=True` CharField would add a second, `varchar_pattern_ops` index for LIKE
queries nobody runs, which at one row per bet was the largest index of a round (tests/benchmarks/
bench_history.py measures bytes per bet)."""

import pytest
from django.db import IntegrityError, connection, transaction

from rounds.models import BetKey, RoundKey
from tables.models import Table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def index_definitions(table: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = %s ORDER BY indexname", [table])
        return [definition for (definition,) in cursor.fetchall()]


@pytest.mark.parametrize(("model", "column"), [(RoundKey, "round_id"), (BetKey, "bet_id")])
def test_the_registry_has_one_index_per_id(model, column):
    definitions = index_definitions(model._meta.db_table)
    assert not [d for d in definitions if "pattern_ops" in d], definitions
    assert len(definitions) == 2, definitions  # the primary key and the unique game-server id
    assert any(d.startswith("CREATE UNIQUE INDEX") and f"({column})" in d for d in definitions)


def test_an_id_is_still_taken_once():
    table = Table.objects.create(code="REG1", name="Registry", game="deluxe", currency="EUR")
    RoundKey.objects.create(id=1, round_id="R-1", gaming_day="2026-03-01", table=table)
    BetKey.objects.create(id=1, bet_id="B-1", round_id=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundKey.objects.create(id=2, round_id="R-1", gaming_day="2026-03-01", table=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        BetKey.objects.create(id=2, bet_id="B-1", round_id=1)
