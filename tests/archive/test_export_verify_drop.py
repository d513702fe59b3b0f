"""Export, verify and drop a month of round history (PostgreSQL; archive.services, archive.drop).

Two casino tables played in March 2026: each table's month is exported to Parquet, read back and
held against its manifest and the database (counts, and sums as Decimal), and only then are the
month's partitions dropped. The registry keeps the dropped rounds' ids; April is untouched.
"""

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from django.db import connection

import rounds.migrations as rounds_migrations
import rounds.recall
from archive.drop import month_drop
from archive.errors import ArchiveError
from archive.models import ArchivedMonth, ArchiveStatus
from archive.services import month_export, month_verify
from archive.slices import PARTS, slice_facts
from archive.storage import archive_location
from rounds.fields import json_of_compressed
from rounds.models import Bet, Round, RoundKey
from rounds.partitions import PARTITIONED, partition_name
from rounds.totals import player_totals_catch_up
from tests.archive.support import APRIL, MARCH, ingest_document_at, partitions_there, rounds_of
from tests.fixtures import round_document
from tests.rounds.corrections_support import renamed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def archive_bytes(manifests: list[dict]) -> int:
    return sum(entry["bytes"] for manifest in manifests for entry in manifest["files"].values())


def test_a_month_of_two_tables_is_exported_verified_and_dropped(history, tmp_path, capsys):
    location = archive_location(str(tmp_path / "archive"))
    facts = {table.code: slice_facts(table, MARCH) for table in (history.dlx1, history.cls1)}
    assert Decimal(facts["DLX1"]["totals"]["adjustments"]) == Decimal("5.00")
    assert Decimal(facts["CLS1"]["totals"]["refunds"]) > 0
    bets_before = {
        bet.bet_id: (bet.wagered, bet.returned) for bet in Bet.objects.filter(round__in=history.march)
    }
    documents = dict(
        Round.objects.filter(pk__in=[r.pk for r in history.march]).values_list("id", "document_sha256")
    )

    manifests = []
    for table in (history.dlx1, history.cls1):
        record = month_export(table, MARCH, location=location)
        assert record.status == ArchiveStatus.EXPORTED, record.error
        record = month_verify(table, MARCH)  # from where it was exported: its archive_url
        assert record.status == ArchiveStatus.VERIFIED, record.error
        assert record.manifest["totals"] == facts[table.code]["totals"]
        assert {name: entry["rows"] for name, entry in record.manifest["files"].items()} == facts[table.code][
            "rows"
        ]
        manifests.append(record.manifest)

    # The files hold what the database held, money as decimal128.
    directory = tmp_path / "archive" / "DLX1" / "2026-03"
    on_disk = json.loads((directory / "manifest.json").read_text())
    newest = max(path.stem for path in Path(rounds_migrations.__file__).parent.glob("0*.py"))
    assert on_disk == manifests[0] and on_disk["schema_version"] == f"rounds.{newest}"
    bets = pa.concat_tables(
        pq.read_table(tmp_path / "archive" / code / "2026-03" / "bets.parquet") for code in ("DLX1", "CLS1")
    )
    assert bets.schema.field("wagered").type == pa.decimal128(14, 2)
    assert {
        bet_id: (wagered, returned)
        for bet_id, wagered, returned in zip(
            bets["bet_id"].to_pylist(), bets["wagered"].to_pylist(), bets["returned"].to_pylist(), strict=True
        )
    } == bets_before
    rounds = pq.read_table(directory / "rounds.parquet", columns=["id", "document", "document_sha256"])
    assert rounds.num_rows == 2
    for row in rounds.to_pylist():
        assert documents[row["id"]] == row["document_sha256"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT document FROM rounds_round WHERE id = %s", [row["id"]])
            # The document as received, character for character: the stored bytes decompressed.
            assert json_of_compressed(cursor.fetchone()[0]) == row["document"]

    dropped = month_drop(MARCH)

    assert sorted(dropped) == sorted(partition_name(table, MARCH) for table in PARTITIONED)
    assert not any(partitions_there(MARCH).values())
    assert rounds_of(MARCH) == 0
    assert not Round.objects.filter(pk__in=[r.pk for r in history.march]).exists()
    # The registry keeps every id: no later round may take one.
    assert RoundKey.objects.filter(pk__in=[r.pk for r in history.march]).count() == len(history.march)
    assert all(partitions_there(APRIL).values()) and rounds_of(APRIL) == 1
    records = ArchivedMonth.objects.filter(month=MARCH)
    assert {record.status for record in records} == {ArchiveStatus.DROPPED}
    assert all(record.dropped_at is not None for record in records)

    bet_count = sum(manifest["totals"]["bets"] for manifest in manifests)
    with capsys.disabled():
        print(
            f"\n[archive] fixture month: {archive_bytes(manifests):,} bytes of Parquet for {bet_count} bets "
            f"({archive_bytes(manifests) / bet_count:,.0f} bytes a bet; mostly the files' own headers)"
        )


def test_the_month_stays_until_every_table_of_it_is_verified(history, tmp_path):
    location = archive_location(str(tmp_path / "archive"))
    month_export(history.dlx1, MARCH, location=location)
    assert month_verify(history.dlx1, MARCH).status == ArchiveStatus.VERIFIED
    month_export(history.cls1, MARCH, location=location)  # exported, not verified

    with pytest.raises(
        ArchiveError, match=r"CLS1 has rounds in 2026-03 and its export is exported, not verified"
    ):
        month_drop(MARCH)

    assert all(partitions_there(MARCH).values()) and rounds_of(MARCH) == len(history.march)


def test_a_month_that_changed_after_its_verification_is_not_dropped_and_is_exported_again(
    history, tmp_path, monkeypatch
):
    location = archive_location(str(tmp_path / "archive"))
    for table in (history.dlx1, history.cls1):
        month_export(table, MARCH, location=location)
        month_verify(table, MARCH)
    # Ingest refuses a round of a month being archived (test_ingest_refusal.py); one that asked before
    # the export began and was stored after it, as here with no archive to ask, changes the month.
    monkeypatch.setattr(rounds.recall, "round_archives", [])
    ingest_document_at(
        renamed(round_document("deluxe-split-double-play-behind"), "-LATE"), date(2026, 3, 20), 1
    )
    with pytest.raises(ArchiveError, match=r"1 round\(s\) of 2026-03 await their player day totals"):
        month_drop(MARCH)
    player_totals_catch_up()

    with pytest.raises(ArchiveError, match="DLX1: the database's 2026-03 changed since it was verified"):
        month_drop(MARCH)

    assert rounds_of(MARCH) == len(history.march) + 1
    record = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH)
    assert record.status == ArchiveStatus.FAILED
    assert month_export(history.dlx1, MARCH, location=location).status == ArchiveStatus.EXPORTED
    assert month_verify(history.dlx1, MARCH).manifest["totals"]["rounds"] == 3


def test_rows_of_the_month_in_the_default_partition_keep_it(history, tmp_path, settings):
    february = date(2026, 2, 1)  # no partition of its own: its rounds are in the default partitions
    # Taken while the month was in the hot window: past it, ingest refuses a round of a month without
    # partitions (tests/archive/test_ingest_unpartitioned.py).
    settings.PITBOSS_HOT_MONTHS = 120
    late = ingest_document_at(
        renamed(round_document("deluxe-split-double-play-behind"), "-FEB"), date(2026, 2, 9), 1
    )
    settings.PITBOSS_HOT_MONTHS = 6
    player_totals_catch_up()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM rounds_round_default WHERE id = %s", [late.pk])
        assert cursor.fetchone()[0] == 1
    location = archive_location(str(tmp_path / "archive"))
    assert month_export(history.dlx1, february, location=location).status == ArchiveStatus.EXPORTED
    assert month_verify(history.dlx1, february).status == ArchiveStatus.VERIFIED

    with pytest.raises(ArchiveError, match=r"row\(s\) of 2026-02 are in rounds_round_default"):
        month_drop(february)

    assert Round.objects.filter(pk=late.pk).exists()


def test_a_month_in_the_hot_window_is_not_dropped(history, settings):
    settings.PITBOSS_HOT_MONTHS = 120
    with pytest.raises(ArchiveError, match="2026-03 is in the hot window"):
        month_drop(MARCH)
    assert all(partitions_there(MARCH).values())


def test_every_partitioned_round_table_is_a_file_of_the_export():
    assert {part.model._meta.db_table for part in PARTS} == set(PARTITIONED)
