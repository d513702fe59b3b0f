"""The hot window: the current month (of the gaming day) and the PITBOSS_HOT_MONTHS months before it
stay in PostgreSQL; every older month is archived. With 13, on any day of December 2026 the hot
window runs from November 2025, and October 2025 is the newest month archived."""

from datetime import date

from django.conf import settings
from django.db import connection
from django.utils import timezone

from core.gaming_day import gaming_day_of
from rounds.partitions import PARTITIONED, default_partition_name, is_partitioned, month_of, month_partitions


def months_before(month: date, count: int) -> date:
    years, index = divmod(month.year * 12 + month.month - 1 - count, 12)
    return date(years, index + 1, 1)


def hot_window_start(today: date | None = None) -> date:
    """The first month of the hot window: months before it are archived."""
    today = gaming_day_of(timezone.now()) if today is None else today
    return months_before(month_of(today), settings.PITBOSS_HOT_MONTHS)


def months_due(today: date | None = None) -> list[date]:
    """The months before the hot window that PostgreSQL still holds: those with a partition of a round
    table, and those with rows in a default partition (which keep the month from being dropped)."""
    start = hot_window_start(today)
    months = set()
    quote = connection.ops.quote_name
    for table, key in PARTITIONED.items():
        if not is_partitioned(table):
            continue
        months.update(month for month in month_partitions(table) if month < start)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT DISTINCT date_trunc('month', {quote(key)})::date "
                f"FROM {quote(default_partition_name(table))} WHERE {quote(key)} < %s",
                [start],
            )
            months.update(row[0] for row in cursor.fetchall())
    return sorted(months)
