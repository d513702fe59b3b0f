"""The archive's reads share one DuckDB database per process (opening one takes about 10 ms, a
connection to it nothing), each reader on a connection of its own: two months open at once each read
their own files, and no reader leaves a view in the shared database (PostgreSQL)."""

import pytest

from archive.models import ArchivedMonth
from archive.month_files import MonthFiles, _process_database
from tests.archive.support import MARCH, rounds_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def round_ids(files: MonthFiles) -> set[str]:
    return {row["round_id"] for row in files.select("rounds", "true", [], columns=["id", "round_id"])}


def test_two_months_open_at_once_read_their_own_files(archived):
    history = archived[0]
    dlx1 = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH)
    cls1 = ArchivedMonth.objects.get(table=history.cls1, month=MARCH)
    expected = {
        record.pk: {r.round_id for r in history.march if r.table_id == record.table_id}
        for record in (dlx1, cls1)
    }
    assert rounds_of(MARCH) == 0 and all(expected.values())
    assert expected[dlx1.pk].isdisjoint(expected[cls1.pk])

    with MonthFiles(dlx1) as first, MonthFiles(cls1) as second:
        assert round_ids(first) == expected[dlx1.pk]
        assert round_ids(second) == expected[cls1.pk]
        assert round_ids(first) == expected[dlx1.pk]  # after the second read its own file

        # Both are connections to the process's one database.
        _process_database().execute("CREATE TABLE shared_marker AS SELECT 1 AS one")
        try:
            assert first.database.execute("SELECT one FROM shared_marker").fetchall() == [(1,)]
            assert second.database.execute("SELECT one FROM shared_marker").fetchall() == [(1,)]
        finally:
            _process_database().execute("DROP TABLE shared_marker")

    views = _process_database().execute(
        "SELECT view_name FROM duckdb_views() WHERE NOT temporary AND NOT internal"
    )
    assert views.fetchall() == []
