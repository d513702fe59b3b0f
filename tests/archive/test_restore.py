"""manage.py archive_restore: an archived month read back into PostgreSQL (archive.restore).

The round trip: March 2026 of both tables is exported, verified and dropped, then restored table by
table; every partitioned round table then holds, for March, the same rows as before (their count and
a checksum of every row's text, ids, documents, money and times included). Restored, a round takes
corrections again, and the next archive_months archives the month again. A month whose files do not
hold what their manifest says, or that is not archived, is refused and nothing changes.
"""

import io
from datetime import date
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from archive.drop import month_drop
from archive.models import ArchivedMonth, ArchiveStatus
from archive.services import month_export, month_verify
from archive.storage import archive_location
from rounds.models import Round, RoundKey
from rounds.partitions import PARTITIONED, month_after
from rounds.services import void_propose
from tests.archive.support import MARCH, partitions_there, rounds_of
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def month_checksums(month: date) -> dict[str, tuple[int, str]]:
    """Every partitioned round table's rows of `month`: their count and the md5 of their text, in id
    order (every column of every row)."""
    found = {}
    with connection.cursor() as cursor:
        for table, key in PARTITIONED.items():
            cursor.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.id), '')) "
                f"FROM {table} t WHERE {key} >= %s AND {key} < %s",
                [month, month_after(month)],
            )
            found[table] = cursor.fetchone()
    return found


def archive_restore(*args) -> str:
    out = io.StringIO()
    call_command("archive_restore", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def dropped(history, tmp_path, settings):
    """March archived: exported, verified, dropped. What the database held of it before."""
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    before = month_checksums(MARCH)
    assert all(count for count, _ in before.values()), before  # every table has rows of March
    location = archive_location()
    for table in (history.dlx1, history.cls1):
        assert month_export(table, MARCH, location=location).status == ArchiveStatus.EXPORTED
        assert month_verify(table, MARCH).status == ArchiveStatus.VERIFIED
    month_drop(MARCH)
    assert not any(partitions_there(MARCH).values()) and rounds_of(MARCH) == 0
    return history, before


def test_export_verify_drop_restore_gives_the_database_back_as_it_was(dropped, settings):
    history, before = dropped

    out = archive_restore("DLX1", "2026-03")

    assert (
        "DLX1 2026-03 restored from " in out and "adjustments 5.00" in out and "equal to the manifest" in out
    )
    assert all(partitions_there(MARCH).values())  # the month's partitions, made again
    assert set(Round.objects.filter(gaming_day__gte=MARCH, gaming_day__lt=month_after(MARCH))) == {
        r for r in history.march if r.table_id == history.dlx1.pk
    }
    record = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH)
    assert record.status == ArchiveStatus.RESTORED and record.restored_at >= record.dropped_at
    assert ArchivedMonth.objects.get(table=history.cls1, month=MARCH).status == ArchiveStatus.DROPPED

    archive_restore("CLS1", "2026-03")

    assert month_checksums(MARCH) == before
    # The registry kept every id; the rounds are the database's again (no banner on their page).
    assert RoundKey.objects.filter(pk__in=[r.pk for r in history.march]).count() == len(history.march)
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    page = compliance.get(f"/rounds/{history.march[0].round_id}/").content.decode()
    assert "From the archive" not in page and "Sign off as reviewed" in page

    # A restored round takes its correction; then the month is archived again, with it.
    void = void_propose(round_=history.march[0], proposed_by=demo_user("supervisor"), reason="malfunction")
    assert void.pk
    out = io.StringIO()
    call_command("archive_months", stdout=out)
    assert "DLX1 2026-03: exported" in out.getvalue() and "CLS1 2026-03: exported" in out.getvalue()
    assert f"2026-03: {len(PARTITIONED)} partition(s) detached and dropped" in out.getvalue()
    assert set(ArchivedMonth.objects.filter(month=MARCH).values_list("status", flat=True)) == {
        ArchiveStatus.DROPPED
    }
    assert rounds_of(MARCH) == 0


def test_a_month_whose_file_changed_in_the_archive_is_not_restored(dropped):
    history, _ = dropped
    record = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH)
    bets = Path(archive_location(record.archive_url).month_dir("DLX1", MARCH)) / "bets.parquet"
    data = bytearray(bets.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bets.write_bytes(bytes(data))

    with pytest.raises(CommandError, match=r"DLX1 2026-03 is not restored: bets\.parquet: .* sha256"):
        archive_restore("DLX1", "2026-03")

    assert rounds_of(MARCH) == 0 and not any(partitions_there(MARCH).values())
    assert ArchivedMonth.objects.get(pk=record.pk).status == ArchiveStatus.DROPPED


def test_only_an_archived_month_of_a_known_table_is_restored(dropped):
    history, _ = dropped
    with pytest.raises(CommandError, match="DLX1 2026-04 was never exported to the archive"):
        archive_restore("DLX1", "2026-04")
    with pytest.raises(CommandError, match="No table 'NOPE'"):
        archive_restore("NOPE", "2026-03")
    with pytest.raises(CommandError, match="not a month: write it YYYY-MM"):
        archive_restore("DLX1", "March")
    archive_restore("DLX1", "2026-03")
    with pytest.raises(
        CommandError, match="DLX1 2026-03 is restored, not dropped: its rows are in the database"
    ):
        archive_restore("DLX1", "2026-03")
