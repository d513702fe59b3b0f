"""manage.py archive_retention: archives past PITBOSS_ARCHIVE_RETENTION_YEARS deleted, on confirmation.

Two months are archived and dropped: March 2015 of DLX1 and CLS1 (rounds ingested with that gaming
day, more than ten years before today's) and March 2026 of both (tests/archive/support.py). Retention
is the default, ten years, counted from today's real gaming day: March 2015 is past it, March 2026 is
not. The command lists what it would delete, asks (or takes --yes), deletes the month's files from
the archive (a directory here, an S3 bucket through moto in test_retention_s3.py), marks the month
`deleted`, records who deleted what (ArchiveDeletion) and logs it. A deleted month's rounds are no
longer found; their ids stay in the registry.
"""

import getpass
import io
import logging
import os
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from archive.drop import month_drop
from archive.models import ArchiveDeletion, ArchivedMonth, ArchiveStatus
from archive.retention import retention_start
from archive.services import month_export, month_verify
from archive.slices import PARTS, slice_facts
from rounds.models import Round, RoundKey
from rounds.partitions import partitions_ensure
from rounds.recall import archived_round
from rounds.totals import player_totals_catch_up
from tests.archive.support import MARCH, History, ingest_document_at, rounds_of
from tests.rounds.corrections_support import classic_completed_blackjack, demo_user
from tests.rounds.test_partitions import cutoff, ingest_at

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
OLD = date(2015, 3, 1)  # past ten years' retention until 2025-04; March 2026 is within it until 2036-04


@dataclass
class Archived:
    history: History
    old: list[Round]  # DLX1's and CLS1's rounds of March 2015
    facts: dict[tuple[str, date], dict]  # (table code, month) -> the database's totals before the drop
    root: Path  # the archive's directory ("" for a bucket)


def old_rounds() -> list[Round]:
    """A DLX1 round and a CLS1 round on gaming days of March 2015, their player totals caught up."""
    partitions_ensure([OLD])
    dlx1 = ingest_at(cutoff(date(2015, 3, 10)) + timedelta(hours=2), "-OLD1")
    cls1 = ingest_document_at(classic_completed_blackjack("-OLD2"), date(2015, 3, 11), hours=3)
    player_totals_catch_up()
    return [dlx1, cls1]


def archive_months_of(history: History, old: list[Round]) -> dict[tuple[str, date], dict]:
    """March 2015 and March 2026 of both tables exported, verified and dropped; each one's totals."""
    facts = {}
    for month in (OLD, MARCH):
        for table in (history.dlx1, history.cls1):
            facts[table.code, month] = slice_facts(table, month)["totals"]
            assert month_export(table, month).status == ArchiveStatus.EXPORTED
            assert month_verify(table, month).status == ArchiveStatus.VERIFIED, ArchivedMonth.objects.get(
                table=table, month=month
            ).error
        month_drop(month)
    assert rounds_of(OLD) == rounds_of(MARCH) == 0
    return facts


@pytest.fixture
def archived(history, tmp_path, settings) -> Archived:
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    settings.PITBOSS_ARCHIVE_RETENTION_YEARS = 10  # the default, whatever the environment says
    old = old_rounds()
    facts = archive_months_of(history, old)
    return Archived(history, old, facts, tmp_path / "archive")


def archive_retention(*args, answer: str | None = None) -> str:
    out = io.StringIO()
    options = {} if answer is None else {"stdin": io.StringIO(answer)}
    call_command("archive_retention", *args, stdout=out, **options)
    return out.getvalue()


def status_of(code: str, month: date) -> str:
    return ArchivedMonth.objects.get(table__code=code, month=month).status


def files_in(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir()) if directory.exists() else []


def test_retention_starts_the_months_kept_the_retention_years_before_todays_month(settings):
    settings.PITBOSS_ARCHIVE_RETENTION_YEARS = 10
    # A month is deleted once it ended more than ten years before today's gaming day.
    assert retention_start(date(2026, 12, 3)) == date(2016, 12, 1)  # November 2016 goes, December stays
    assert retention_start(date(2036, 4, 1)) == date(2026, 4, 1)  # March 2026 ended ten years ago
    assert retention_start(date(2036, 3, 31)) == date(2026, 3, 1)  # ... but not yet on its last day
    settings.PITBOSS_ARCHIVE_RETENTION_YEARS = 1
    assert retention_start(date(2024, 2, 29)) == date(2023, 2, 1)


def test_yes_deletes_only_the_months_past_retention_and_records_who_and_what(archived, caplog):
    dlx1_old = archived.root / "DLX1" / "2015-03"
    assert len(files_in(dlx1_old)) == len(PARTS) + 1  # a Parquet file per table and the manifest
    manifests = {
        (record.table.code, record.month): record.manifest
        for record in ArchivedMonth.objects.select_related("table")
    }
    caplog.set_level(logging.INFO, logger="pitboss.archive")

    out = archive_retention("--yes", "--reason", "ten years' retention (NJ)")

    assert "Retention: 10 years; archived months before 2016-12 are deleted" in out
    for code in ("DLX1", "CLS1"):
        totals = archived.facts[code, OLD]
        size = sum(entry["bytes"] for entry in manifests[code, OLD]["files"].values())
        assert (
            f"{code} 2015-03: {len(PARTS)} files, {size:,} bytes; rounds 1, bets {totals['bets']}, "
            f"wagered {totals['wagered']}, returned {totals['returned']}; "
            f"{archived.root}/{code}/2015-03" in out
        ), out
        assert f"{code} 2015-03: deleted" in out
    assert "2026-03" not in out
    assert "Done: 2 month(s) deleted; 0 failed." in out

    # The files are gone; March 2026, within retention, is untouched.
    assert not dlx1_old.exists() and not (archived.root / "CLS1" / "2015-03").exists()
    for code in ("DLX1", "CLS1"):
        assert len(files_in(archived.root / code / "2026-03")) == len(PARTS) + 1
        assert status_of(code, OLD) == ArchiveStatus.DELETED
        assert status_of(code, MARCH) == ArchiveStatus.DROPPED

    deletions = {
        deletion.table.code: deletion for deletion in ArchiveDeletion.objects.select_related("table")
    }
    assert set(deletions) == {"DLX1", "CLS1"}
    for code, deletion in deletions.items():
        totals, manifest = archived.facts[code, OLD], manifests[code, OLD]
        assert deletion.month == OLD and deletion.archive_url == str(archived.root)
        assert deletion.deleted_by == getpass.getuser()
        assert deletion.reason == "ten years' retention (NJ)" and deletion.retention_years == 10
        assert (deletion.rounds, deletion.bets) == (totals["rounds"], totals["bets"]) == (1, totals["bets"])
        assert deletion.wagered == Decimal(totals["wagered"]) > 0
        assert deletion.returned == Decimal(totals["returned"])
        assert deletion.files == len(PARTS)
        assert deletion.bytes == sum(entry["bytes"] for entry in manifest["files"].values())
    logged = [r.getMessage() for r in caplog.records if r.name == "pitboss.archive"]
    assert any(
        "DLX1 2015-03" in message and "deleted under retention" in message and getpass.getuser() in message
        for message in logged
    ), logged

    # Their rounds are no longer found (the page says so); their ids stay in the registry.
    old_round = archived.old[0]
    assert archived_round(old_round.round_id) is None
    assert RoundKey.objects.filter(pk__in=[r.pk for r in archived.old]).count() == 2
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    assert compliance.get(f"/rounds/{old_round.round_id}/").status_code == 404
    # A round of March 2026 is still recalled from the archive.
    assert compliance.get(f"/rounds/{archived.history.march[0].round_id}/").status_code == 200

    # A deleted month cannot be restored, and says why.
    with pytest.raises(CommandError, match="DLX1 2015-03's archive was deleted under retention"):
        call_command("archive_restore", "DLX1", "2015-03", stdout=io.StringIO())

    # Nothing is past retention any more.
    again = archive_retention("--yes")
    assert "No archived month is past retention" in again and ArchiveDeletion.objects.count() == 2


def test_without_yes_it_asks_and_anything_but_yes_deletes_nothing(archived):
    for answer in ("no\n", "", "y\n", "YES please\n"):
        out = archive_retention(answer=answer)

        assert f"DLX1 2015-03: {len(PARTS)} files" in out and f"CLS1 2015-03: {len(PARTS)} files" in out
        assert "Type yes to delete them" in out
        assert out.rstrip().endswith("Nothing deleted.")
        assert len(files_in(archived.root / "DLX1" / "2015-03")) == len(PARTS) + 1
        assert status_of("DLX1", OLD) == ArchiveStatus.DROPPED
        assert not ArchiveDeletion.objects.exists()

    out = archive_retention("--reason", "asked", answer="yes\n")

    assert "Done: 2 month(s) deleted; 0 failed." in out
    assert not (archived.root / "DLX1" / "2015-03").exists()
    assert ArchiveDeletion.objects.filter(reason="asked").count() == 2


def test_dry_run_lists_and_deletes_nothing(archived):
    out = archive_retention("--dry-run", "--yes")

    assert f"DLX1 2015-03: {len(PARTS)} files" in out and f"CLS1 2015-03: {len(PARTS)} files" in out
    assert "2 archived month(s) past retention" in out and "Dry run: nothing deleted." in out
    assert "Type yes" not in out
    assert len(files_in(archived.root / "DLX1" / "2015-03")) == len(PARTS) + 1
    assert status_of("CLS1", OLD) == ArchiveStatus.DROPPED and not ArchiveDeletion.objects.exists()


@contextmanager
def undeletable(directory: Path):
    """The month's directory made read-only; as root, who deletes in a read-only directory, one of
    its files made immutable too (chattr +i): its files cannot all be deleted."""
    directory.chmod(0o555)
    pinned = directory / "manifest.json" if os.geteuid() == 0 else None
    if pinned is not None:
        subprocess.run(["chattr", "+i", str(pinned)], check=True, capture_output=True)
    try:
        yield
    finally:
        if pinned is not None:
            subprocess.run(["chattr", "-i", str(pinned)], check=True, capture_output=True)
        directory.chmod(0o755)


def test_a_month_whose_files_cannot_be_deleted_keeps_its_status_and_the_command_exits_1(archived):
    dlx1_old = archived.root / "DLX1" / "2015-03"
    out = io.StringIO()

    with undeletable(dlx1_old), pytest.raises(CommandError, match="1 month"):
        call_command("archive_retention", "--yes", stdout=out)

    printed = out.getvalue()
    assert "DLX1 2015-03: FAILED" in printed and "kept as dropped" in printed, printed
    assert "CLS1 2015-03: deleted" in printed  # the other month went on
    assert "Done: 1 month(s) deleted; 1 failed." in printed
    assert status_of("DLX1", OLD) == ArchiveStatus.DROPPED
    assert "manifest.json" in files_in(dlx1_old)
    assert status_of("CLS1", OLD) == ArchiveStatus.DELETED
    assert list(ArchiveDeletion.objects.values_list("table__code", flat=True)) == ["CLS1"]

    # Once the files can be deleted, the next run finishes the month.
    out = archive_retention("--yes")
    assert "DLX1 2015-03: deleted" in out and "CLS1" not in out
    assert not dlx1_old.exists() and status_of("DLX1", OLD) == ArchiveStatus.DELETED
    assert ArchiveDeletion.objects.count() == 2


def test_a_month_whose_files_are_not_where_it_was_archived_is_not_recorded(archived):
    # Moved by hand: the command deletes nothing it cannot see, and records nothing.
    (archived.root / "DLX1" / "2015-03").rename(archived.root / "DLX1" / "moved")
    out = io.StringIO()

    with pytest.raises(CommandError, match="1 month"):
        call_command("archive_retention", "--yes", stdout=out)

    assert "DLX1 2015-03: FAILED" in out.getvalue() and "nothing is there" in out.getvalue()
    assert status_of("DLX1", OLD) == ArchiveStatus.DROPPED
    assert not ArchiveDeletion.objects.filter(table__code="DLX1").exists()
    assert len(files_in(archived.root / "DLX1" / "moved")) == len(PARTS) + 1
    assert status_of("CLS1", OLD) == ArchiveStatus.DELETED


def test_the_deletions_are_shown_read_only_in_the_admin(archived):
    archive_retention("--yes", "--reason", "retention")
    admin = Client()
    admin.force_login(
        get_user_model().objects.create_superuser("root-admin", "root@example.com", "pw-root-admin")
    )
    deletion = ArchiveDeletion.objects.select_related("table").first()

    listed = admin.get("/admin/archive/archivedeletion/")

    assert listed.status_code == 200
    text = listed.content.decode()
    assert "2015-03" in text and getpass.getuser() in text and deletion.table.code in text
    assert admin.get("/admin/archive/archivedeletion/add/").status_code == 403
    assert admin.get(f"/admin/archive/archivedeletion/{deletion.pk}/delete/").status_code == 403
    shown = admin.get(f"/admin/archive/archivedeletion/{deletion.pk}/change/")
    assert shown.status_code == 200 and 'name="_save"' not in shown.content.decode()
