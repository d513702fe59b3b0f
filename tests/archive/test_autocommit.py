"""manage.py archive_months as it runs in production: in autocommit, each step in its own
transaction (the export in one REPEATABLE READ, read-only snapshot; the drop in one that locks the
month's partitions), every state change committed as it happens."""

import io
from datetime import date, timedelta

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from archive import drop
from archive.errors import ArchiveError
from archive.models import ArchivedMonth, ArchiveStatus
from archive.services import month_export, month_verify
from archive.slices import PARTS
from archive.storage import archive_location
from rounds.models import RoundKey
from rounds.partitions import PARTITIONED, partition_name, partitions_ensure
from rounds.totals import player_totals_catch_up
from tables.models import Table
from tests.archive.support import partitions_there, rounds_of
from tests.rounds.test_partitions import cutoff, ingest_at

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
AUGUST_2025 = date(2025, 8, 1)  # a month no other test makes a partition of


@pytest.fixture
def august(settings):
    settings.PITBOSS_HOT_MONTHS = 6
    # The table alone, without a configuration version: creating one through the services would work
    # out its odds at commit, which here is at once (minutes); a round of 2025 had none in force.
    Table.objects.create(code="DLX1", name="Deluxe", game="deluxe", currency="EUR", studio="archive test")
    partitions_ensure([AUGUST_2025])
    yield
    with connection.cursor() as cursor:  # committed DDL outlives the test: leave no partition behind
        for table in PARTITIONED:
            cursor.execute(f"DROP TABLE IF EXISTS {partition_name(table, AUGUST_2025)}")


def test_the_command_in_autocommit_exports_verifies_and_drops(august, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    rounds = [ingest_at(cutoff(date(2025, 8, day)) + timedelta(hours=1), f"-AUG{day}") for day in (1, 31)]
    out = io.StringIO()

    call_command("archive_months", stdout=out)

    assert f"DLX1 2025-08: exported {len(PARTS)} files" in out.getvalue()
    assert "rounds 2, bets 14" in out.getvalue()
    assert f"2025-08: {len(PARTITIONED)} partition(s) detached and dropped" in out.getvalue()
    assert not any(partitions_there(AUGUST_2025).values()) and rounds_of(AUGUST_2025) == 0
    assert RoundKey.objects.filter(pk__in=[r.pk for r in rounds]).count() == 2
    record = ArchivedMonth.objects.get(month=AUGUST_2025)
    assert record.status == ArchiveStatus.DROPPED and record.verified_at <= record.dropped_at
    assert (tmp_path / "archive" / "DLX1" / "2025-08" / "manifest.json").exists()


def test_a_drop_that_cannot_lock_the_month_gives_up_and_is_run_again(august, tmp_path, monkeypatch):
    ingest_at(cutoff(date(2025, 8, 14)) + timedelta(hours=1), "-AUG14")
    player_totals_catch_up()
    table = Table.objects.get(code="DLX1")
    location = archive_location(str(tmp_path / "archive"))
    month_export(table, AUGUST_2025, location=location)
    assert month_verify(table, AUGUST_2025).status == ArchiveStatus.VERIFIED
    monkeypatch.setattr(drop, "LOCK_TIMEOUT", "200ms")
    database = settings.DATABASES["default"]
    # Another session reads the month (a long report): it holds its partitions while its transaction lasts.
    reader = psycopg.connect(
        host=database["HOST"] or None,
        port=database["PORT"] or None,
        user=database["USER"] or None,
        password=database["PASSWORD"] or None,
        dbname=database["NAME"],
    )
    try:
        reader.execute(f"SELECT count(*) FROM {partition_name('rounds_bet', AUGUST_2025)}").fetchone()
        with pytest.raises(
            ArchiveError, match=r"could not be dropped now \(canceling statement due to lock timeout\)"
        ):
            drop.month_drop(AUGUST_2025)
        assert all(partitions_there(AUGUST_2025).values()) and rounds_of(AUGUST_2025) == 1
        assert ArchivedMonth.objects.get(month=AUGUST_2025).status == ArchiveStatus.VERIFIED
    finally:
        reader.close()

    assert len(drop.month_drop(AUGUST_2025)) == len(PARTITIONED)
