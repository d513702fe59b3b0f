"""The daily job over a long history (PostgreSQL): each of its queries names the day, so that
PostgreSQL plans only the day's month of every partitioned table. With 24 months kept, three of
its queries a table planned every month's partitions (1.1-1.6 ms each, against 0.2-0.7)."""

import io
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reports.daily import table_day_compute, totals_compute
from reports.models import ReportRun
from rounds.partitions import month_of, partitions_ensure
from rounds.totals import player_totals_catch_up
from tables.models import Table
from tests.rounds.test_partitions import cutoff, ingest_at, planned_months

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

DAY = date(2026, 11, 20)


def test_every_query_of_the_daily_job_plans_only_the_days_month():
    call_command("seed_demo", stdout=io.StringIO())
    month_before = month_of(DAY - timedelta(days=31))
    partitions_ensure([month_before, month_of(DAY)])
    ingest_at(cutoff(month_before.replace(day=20)) + timedelta(hours=2), "-OCT")
    ingest_at(cutoff(DAY) + timedelta(hours=2), "-NOV")
    run = ReportRun.objects.create(day=DAY, trigger="command", time_zone="Europe/Malta", cutoff="06:00")
    player_totals_catch_up()  # the rounds of both months awaiting it: not the day's work
    with CaptureQueriesContext(connection) as captured:
        for table in Table.objects.all():
            table_day_compute(table=table, day=DAY, run=run)
        totals_compute(day=DAY, run=run)
    reads = [q["sql"] for q in captured if q["sql"].lstrip().startswith(("SELECT", "WITH"))]
    planned = {sql: planned_months(sql, None) for sql in reads}
    assert not [(months, sql) for sql, months in planned.items() if months - {month_of(DAY)}]
    assert set().union(*planned.values()) == {month_of(DAY)}


def test_the_player_totals_catch_up_plans_only_the_months_of_its_rounds():
    call_command("seed_demo", stdout=io.StringIO())
    partitions_ensure([month_of(DAY - timedelta(days=62)), month_of(DAY - timedelta(days=31)), month_of(DAY)])
    ingest_at(cutoff(DAY) + timedelta(hours=2), "-NOV")
    with CaptureQueriesContext(connection) as captured:
        assert player_totals_catch_up() == 1
    joins = ('JOIN "rounds_round"', "JOIN rounds_round ")  # the configurations' query; the insert
    reads = [q["sql"] for q in captured if any(join in q["sql"] for join in joins)]
    assert len(reads) == 2
    assert set().union(*(planned_months(sql, None) for sql in reads)) == {month_of(DAY)}
