"""`manage.py history_partition` on a copy of an unpartitioned database (PostgreSQL).

The test's database is partitioned by its migrations; the round tables are first turned back into
plain ones holding rounds (migration rounds/0017 backwards), as a database stored before partitioning
holds them. The command then partitions them in batches, is stopped part way, rounds keep arriving
and day totals keep changing, and run again it finishes: every row is there once, in its month.
"""

import io
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db import connection

from rounds.models import Round
from rounds.partition_convert import is_prepared, table_unpartition
from rounds.partitions import PARTITIONED, is_partitioned, partition_name
from tests.rounds.test_partitions import cutoff, ingest_at

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def contents() -> dict[str, tuple]:
    """Each round table's row count and a checksum of its rows (order-independent)."""
    found = {}
    with connection.cursor() as cursor:
        for table in PARTITIONED:
            cursor.execute(f"SELECT count(*), coalesce(sum(hashtext(t::text)::numeric), 0) FROM {table} t")
            found[table] = cursor.fetchone()
    return found


@pytest.fixture
def unpartitioned_history(db):
    call_command("seed_demo", stdout=io.StringIO())
    for n, day in enumerate([date(2026, 4, 3), date(2026, 5, 31), date(2026, 6, 1), date(2026, 6, 2)]):
        ingest_at(cutoff(day) + timedelta(hours=1), f"-OLD{n}")
    for table, key in PARTITIONED.items():
        table_unpartition(table, key)
    assert not any(is_partitioned(table) for table in PARTITIONED)


def test_it_partitions_in_batches_goes_on_after_a_stop_and_keeps_every_row_once(unpartitioned_history):
    before = contents()
    out = io.StringIO()
    call_command("history_partition", batch=3, batches=4, stdout=out)
    assert "run again to go on" in out.getvalue()
    assert is_partitioned("rounds_round")  # 4 rounds: two batches, then the swap
    assert not is_partitioned("rounds_bet") and is_prepared("rounds_bet")

    # Pitboss keeps running: a round arrives (its bets into the old table, its day's totals change).
    late = ingest_at(cutoff(date(2026, 6, 2)) + timedelta(hours=2), "-LATE")
    with connection.cursor() as cursor:  # and a row already copied changes
        cursor.execute(
            "UPDATE rounds_bet SET computed_pattern = computed_pattern || 'x' "
            "WHERE id = (SELECT min(id) FROM rounds_bet)"
        )
    during = contents()
    assert during["rounds_round"][0] == before["rounds_round"][0] + 1

    call_command("history_partition", batch=3, stdout=io.StringIO())

    assert all(is_partitioned(table) for table in PARTITIONED)
    assert contents() == during
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {partition_name('rounds_bet', date(2026, 5, 1))}")
        assert cursor.fetchone()[0] == Round.objects.get(round_id__endswith="-OLD1").bet_count
    assert Round.objects.by_round_id(late.round_id).get().bets.count() == late.bet_count
    after = ingest_at(cutoff(date(2026, 6, 3)) + timedelta(hours=1), "-AFTER")
    assert after.pk > late.pk  # the ids go on from the old table's sequence


def test_it_says_so_on_a_database_already_partitioned(db):
    out = io.StringIO()
    call_command("history_partition", stdout=out)
    assert out.getvalue().count(": partitioned") == len(PARTITIONED)
