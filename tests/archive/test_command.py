"""manage.py archive_months: every month past the hot window exported, verified and dropped, with its
counts and sums printed; --dry-run lists; a failure is reported and keeps the month; resumable."""

import io
from datetime import date
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from archive.models import ArchivedMonth, ArchiveStatus
from archive.slices import PARTS, slice_facts
from rounds.partitions import PARTITIONED
from tests.archive.support import APRIL, MARCH, ingest_document_at, partitions_there, rounds_of
from tests.fixtures import round_document
from tests.rounds.corrections_support import renamed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def archive_months(*args) -> str:
    out = io.StringIO()
    call_command("archive_months", *args, stdout=out)
    return out.getvalue()


def test_dry_run_lists_the_months_and_changes_nothing(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    # February 2026 has no partition: its round waits in the default partitions (taken while the month
    # was in the hot window: past it, ingest refuses a round of an unpartitioned month).
    settings.PITBOSS_HOT_MONTHS = 120
    ingest_document_at(
        renamed(round_document("deluxe-split-double-play-behind"), "-FEB"), date(2026, 2, 9), 1
    )
    settings.PITBOSS_HOT_MONTHS = 6

    out = archive_months("--dry-run")

    assert "Hot window from 2026-06; 3 older month(s) in PostgreSQL" in out
    assert (
        "2026-02: 1 row(s) of 2026-02 are in rounds_round_default: make the month's partitions "
        "(python manage.py history_partition --month 2026-02)" in out
    )
    assert "DLX1 2026-03: not exported; would be exported and verified; 2 round(s)" in out
    assert "CLS1 2026-03: not exported; would be exported and verified; 2 round(s)" in out
    assert "DLX1 2026-04: not exported; would be exported and verified; 1 round(s)" in out
    assert "2026-03: partitions would be dropped once every table is verified" in out
    assert not ArchivedMonth.objects.exists()
    assert not (tmp_path / "archive").exists()
    assert all(partitions_there(MARCH).values())


def test_the_command_exports_verifies_and_drops_every_month_past_the_hot_window(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    facts = slice_facts(history.dlx1, MARCH)["totals"]

    out = archive_months()

    assert (
        f"DLX1 2026-03: exported {len(PARTS)} files, " in out
        and f"rounds 2, bets {facts['bets']}, wagered {facts['wagered']}, returned {facts['returned']}, "
        f"adjustments 5.00, refunds 0.00"
        in out
    ), out
    assert "CLS1 2026-03: verified: read back, equal to the database" in out
    assert f"2026-03: {len(PARTITIONED)} partition(s) detached and dropped" in out
    assert f"2026-04: {len(PARTITIONED)} partition(s) detached and dropped" in out
    assert "Done: 3 exported, 3 verified, 2 months dropped; 0 failed." in out
    assert rounds_of(MARCH) == rounds_of(APRIL) == 0
    assert set(ArchivedMonth.objects.values_list("status", flat=True)) == {ArchiveStatus.DROPPED}

    assert "0 older month(s) in PostgreSQL" in archive_months()  # nothing left to do


def test_a_verified_month_is_not_exported_again(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    archive_months("--keep-partitions")
    manifest = Path(tmp_path / "archive" / "DLX1" / "2026-03" / "manifest.json")
    written = manifest.stat().st_mtime_ns
    # A process killed mid-export leaves its month `exporting`: the next run exports it again.
    ArchivedMonth.objects.filter(table=history.cls1, month=MARCH).update(status=ArchiveStatus.EXPORTING)

    out = archive_months()

    assert "DLX1 2026-03: verified earlier, not exported again" in out
    assert "CLS1 2026-03: exported" in out
    assert f"2026-03: {len(PARTITIONED)} partition(s) detached and dropped" in out
    assert manifest.stat().st_mtime_ns == written


def test_a_failed_export_is_reported_and_keeps_the_month(history, tmp_path, settings):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the archive should be")
    settings.PITBOSS_ARCHIVE_URL = str(blocker / "archive")
    out = io.StringIO()

    with pytest.raises(CommandError, match=r"step\(s\) failed; their months' partitions are kept"):
        call_command("archive_months", stdout=out)

    out = out.getvalue()
    assert "DLX1 2026-03: FAILED, partitions kept: export failed:" in out
    assert "2026-03: partitions kept: " in out and "its export is failed, not verified" in out
    assert all(partitions_there(MARCH).values()) and rounds_of(MARCH) == len(history.march)
    assert set(ArchivedMonth.objects.values_list("status", flat=True)) == {ArchiveStatus.FAILED}

    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")  # the store is fixed: the next run goes on
    assert f"2026-03: {len(PARTITIONED)} partition(s) detached and dropped" in archive_months()
