"""Round history partitioned by month of the gaming day (PostgreSQL; rounds.partitions).

A round and every row written for it land in the partition of its gaming day's month, whatever the
clock said: a round opened a second before the cut-off on the first of a month belongs to the last
day of the month before. Partitions for the coming months are made ahead; a month's rows that
arrived before its partition existed (in the default partition) move into it when it is made. A
query that names a day reads that month's partition only.
"""

import io
import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction

from rounds.ingest import round_ingest
from rounds.models import Round
from rounds.partitions import (
    PARTITIONED,
    default_partition_name,
    month_partitions,
    partition_name,
    partitions_ahead,
    partitions_ensure,
)
from rounds.tasks import partitions_ahead_task
from rounds.views import RoundListView
from tests.fixtures import round_document

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
CASINO = ZoneInfo(settings.PITBOSS_GAMING_DAY_TIME_ZONE)
ROUND_ROWS = ("rounds_round", "rounds_bet")


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=io.StringIO())


def ingest_at(
    opened_at: datetime, suffix: str, *, shoe: str | None = None, number: int | None = None
) -> Round:
    """The split fixture round, opened at `opened_at`, under ids of its own (its shoe's: `suffix`
    unless `shoe` is given), as round `number` of its shoe when given."""
    document = round_document("deluxe-split-double-play-behind")
    document["round_id"] += suffix
    document["shoe"] += suffix if shoe is None else shoe
    if number is not None:
        document["number"] = number
    for bet in document["bets"]:
        bet["bet_id"] += suffix
    document["opened_at"] = opened_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    document["closed_at"] = (opened_at + timedelta(seconds=40)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return round_ingest(document=document).round


def rows_in(partition: str, round_: Round) -> int:
    column = "id" if partition.startswith("rounds_round_") else "round_id"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {partition} WHERE {column} = %s", [round_.pk])
        return cursor.fetchone()[0]


def cutoff(day: date) -> datetime:
    hour, minute = map(int, str(settings.PITBOSS_GAMING_DAY_CUTOFF)[:5].split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CASINO)


def test_every_round_table_is_partitioned_with_the_coming_months_and_a_default():
    this_month = date.today().replace(day=1)
    for table in PARTITIONED:
        months = month_partitions(table)
        assert this_month in months, table
        assert len([month for month in months if month > this_month]) >= 3, table
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass(%s)", [default_partition_name(table)])
            assert cursor.fetchone()[0] is not None, table


def test_a_round_on_the_first_and_last_second_of_a_month_lands_in_its_gaming_days_month(demo):
    partitions_ensure([date(2026, 5, 1), date(2026, 6, 1)])
    first_of_june = cutoff(date(2026, 6, 1))
    last_second = ingest_at(first_of_june - timedelta(seconds=1), "-LAST")
    first_second = ingest_at(first_of_june, "-FIRST")

    assert last_second.gaming_day == date(2026, 5, 31)
    assert first_second.gaming_day == date(2026, 6, 1)
    for table in ROUND_ROWS:
        may, june = partition_name(table, date(2026, 5, 1)), partition_name(table, date(2026, 6, 1))
        assert rows_in(may, last_second) > 0 and rows_in(june, last_second) == 0, table
        assert rows_in(june, first_second) > 0 and rows_in(may, first_second) == 0, table


def test_a_months_rows_in_the_default_partition_move_into_its_partition_when_it_is_made(demo):
    march = date(2026, 3, 1)
    assert march not in month_partitions("rounds_round")
    round_ = ingest_at(cutoff(date(2026, 3, 14)) + timedelta(hours=3), "-MARCH")
    assert rows_in(default_partition_name("rounds_bet"), round_) == round_.bet_count

    created = partitions_ensure([march])

    assert set(created) == {partition_name(table, march) for table in PARTITIONED}
    assert rows_in(partition_name("rounds_bet", march), round_) == round_.bet_count
    assert rows_in(default_partition_name("rounds_bet"), round_) == 0
    assert Round.objects.by_round_id(round_.round_id).get().bets.count() == round_.bet_count


def test_the_beat_task_makes_the_coming_months_once():
    today = date.today()
    assert "rounds.tasks.partitions_ahead_task" in {
        entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    partitions_ahead_task()
    months = month_partitions("rounds_bet")
    assert partitions_ahead(today) == []  # everything is there already
    with transaction.atomic():
        far = partitions_ahead(today, months_ahead=6)
    assert len(far) == len(PARTITIONED) * (6 - 3)
    assert len(month_partitions("rounds_bet")) == len(months) + 3


def plan_of(sql: str, params, analyze: bool = False) -> str:
    options = "ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF" if analyze else "COSTS OFF"
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN ({options}) {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def planned_months(sql: str, params) -> set[date]:
    """The months of the partitions PostgreSQL plans for a query, whatever the table (EXPLAIN
    without ANALYZE lists those it would prune only while running, too)."""
    partitions = re.findall(r"\brounds_\w+?_(\d{4})_(\d{2})\b", plan_of(sql, params))
    return {date(int(year), int(month), 1) for year, month in partitions}


def scanned_partitions(plan: str, table: str) -> set[str]:
    """The partitions of `table` the plan reads (a scan PostgreSQL pruned at run time says so)."""
    partition = re.compile(rf" on ({re.escape(table)}_(?:\d{{4}}_\d{{2}}|default))\b")
    return {
        match[1]
        for line in plan.splitlines()
        if "never executed" not in line and (match := partition.search(line))
    }


def test_a_query_that_names_a_day_reads_only_that_months_partition(demo):
    partitions_ensure([date(2026, 5, 1), date(2026, 6, 1)])
    day = date(2026, 5, 20)
    rounds = RoundListView.queryset.filter(gaming_day=day)[:51]
    sql, params = rounds.query.sql_with_params()
    assert scanned_partitions(plan_of(sql, params), "rounds_round") == {"rounds_round_2026_05"}


def test_a_round_found_by_its_id_is_read_from_its_months_partition_alone(demo):
    partitions_ensure([date(2026, 5, 1), date(2026, 6, 1)])
    round_ = ingest_at(cutoff(date(2026, 5, 20)) + timedelta(hours=2), "-MAY")
    ingest_at(cutoff(date(2026, 6, 20)) + timedelta(hours=2), "-JUNE")
    sql, params = Round.objects.by_round_id(round_.round_id).query.sql_with_params()
    plan = plan_of(sql, params, analyze=True)
    assert scanned_partitions(plan, "rounds_round") == {"rounds_round_2026_05"}, plan
