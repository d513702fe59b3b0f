"""A month whose archive was deleted under retention (archive.retention) has no rows left: its
entries are not "source row deleted". The verify says so once per chain and month, in a note
("deleted under retention on <day>"), and stays clean; more of the month's rows missing than its
deleted months' manifests held is a problem (PostgreSQL: partitions)."""

import io
from datetime import date

import pytest
from django.core.management import call_command
from django.utils import timezone

from archive.drop import month_drop
from archive.models import ArchivedMonth, ArchiveStatus
from archive.retention import months_delete, months_past_retention
from archive.services import month_export, month_verify
from core.gaming_day import gaming_day_of
from ledger.models import LedgerEntry, LedgerVerification
from ledger.verify import ledger_verify
from rounds.models import Adjustment
from rounds.partitions import partitions_ensure
from rounds.services.resettlements import resettlement_approve, resettlement_propose
from rounds.totals import player_totals_catch_up
from tables.models import Table
from tests.archive.support import MARCH, history_make, ingest_document_at, march_archived
from tests.fixtures import round_document
from tests.ledger.support import problems, sql
from tests.rounds.corrections_support import corrections_urls, demo_user, renamed  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
OLD = date(2015, 3, 1)  # past ten years' retention


@pytest.fixture
def deleted(db, settings, tmp_path):
    """A DLX1 round of March 2015 re-settled (an adjustment of that month, in the ledger); March 2015
    archived, dropped and then deleted under retention; March 2026 archived and dropped (kept)."""
    settings.PITBOSS_HOT_MONTHS = 6
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    settings.PITBOSS_ARCHIVE_RETENTION_YEARS = 10
    history = history_make()
    partitions_ensure([OLD])
    document = renamed(round_document("deluxe-split-double-play-behind"), "-OLD")
    document["bets"][0]["returned"] = "85.00"  # 5.00 short
    wrong = ingest_document_at(document, date(2015, 3, 10), hours=2)
    resettlement = resettlement_propose(round_=wrong, proposed_by=demo_user("compliance"), reason="short")
    resettlement_approve(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok")
    player_totals_catch_up()
    old = Adjustment.objects.get(resettlement=resettlement)
    assert LedgerEntry.objects.get(chain="adjustment", source_pk=old.pk).source_month == OLD
    dlx1 = Table.objects.get(code="DLX1")
    assert month_export(dlx1, OLD).status == ArchiveStatus.EXPORTED
    assert month_verify(dlx1, OLD).status == ArchiveStatus.VERIFIED
    month_drop(OLD)
    march_archived(history)
    assert problems() == []  # dropped: read from the files
    outcomes = list(months_delete(months_past_retention(), deleted_by="tester"))
    assert [outcome.error for outcome in outcomes] == [""]
    assert ArchivedMonth.objects.get(table=dlx1, month=OLD).status == ArchiveStatus.DELETED
    return old


def test_entries_of_a_deleted_month_are_a_note_not_a_problem(deleted):
    today = gaming_day_of(timezone.now())
    note = f"adjustment: 1 entry of 2015-03: their rows deleted under retention on {today} (DLX1 2015-03)"
    notes = []
    assert ledger_verify(notes=notes) == []
    assert notes == [note]
    notes = []
    assert ledger_verify(kinds=["adjustment"], month=OLD, notes=notes) == [] and notes == [note]
    notes = []
    assert ledger_verify(month=MARCH, notes=notes) == [] and notes == []  # March 2026 is kept

    out = io.StringIO()
    call_command("ledger_verify", stdout=out)  # exit status 0
    assert f"Note: {note}" in out.getvalue() and "Ledger verified clean" in out.getvalue()
    run = LedgerVerification.objects.get()
    assert run.clean and run.problems == [] and run.notes == [note]


def test_more_rows_missing_than_the_deleted_month_held_is_a_problem(deleted):
    sql(
        "UPDATE archive_archivedmonth SET manifest = jsonb_set(manifest, "
        "'{files,adjustments,rows}', '0') WHERE month = %s",
        [OLD],
    )
    found = problems(kinds=["adjustment"])
    assert found == [
        "adjustment: 1 entries of 2015-03 have no source row, but the months deleted under retention "
        "(DLX1 2015-03) held 0 of its rows: source rows deleted otherwise"
    ]
