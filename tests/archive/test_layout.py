"""The archive's layout on a busy month: bytes per bet, and a round read by id through DuckDB.

A few rounds of a simulated 2,000-player Boundless shoe at BND1 in March 2026 are ingested, exported
and verified. The test prints the archive's bytes per bet (all Parquet files of the month over its
bets) beside PostgreSQL's for the same rows (the month's partitions with their indexes and TOAST, and
the registry), for information. Each file is sorted by round id (bets, spots, hands, findings) or id
(rounds), so that the row groups hold ascending, narrow ranges of rounds, and DuckDB, looking a round up
by the id the registry gives, reads only the row groups whose statistics hold it.
"""

import dataclasses
import hashlib

import duckdb
import pyarrow.parquet as pq
import pytest
from django.db import connection

from archive import export
from archive.models import ArchiveStatus
from archive.services import month_export, month_verify
from archive.slices import PARTS
from archive.storage import archive_location
from rounds.fields import json_of_compressed
from rounds.ingest import round_ingest
from rounds.models import Bet, Round, RoundKey
from rounds.partitions import PARTITIONED, partition_name
from rounds.totals import player_totals_catch_up
from tables.models import Table
from tests.archive.support import MARCH, boundless_march

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
PLAYERS, ROUNDS = 2_000, 5


@pytest.fixture
def boundless_month(db, settings):
    settings.PITBOSS_HOT_MONTHS = 6
    for document in boundless_march(players=PLAYERS, seed=21, rounds=ROUNDS):
        round_ingest(document=document)
    player_totals_catch_up()
    return Table.objects.get(code="BND1")


def hot_bytes() -> int:
    """PostgreSQL's bytes for March: its partitions (tables, indexes, TOAST) and the registry."""
    tables = [partition_name(table, MARCH) for table in PARTITIONED] + ["rounds_roundkey", "rounds_betkey"]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sum(pg_total_relation_size(to_regclass(name))) FROM unnest(%s::text[]) AS name", [tables]
        )
        return int(cursor.fetchone()[0])


def test_a_busy_month_in_the_archive_and_a_round_read_back_by_id_through_duckdb(
    boundless_month, tmp_path, capsys, monkeypatch
):
    root = tmp_path / "archive"
    record = month_export(boundless_month, MARCH, location=archive_location(str(root)))
    assert month_verify(boundless_month, MARCH).status == ArchiveStatus.VERIFIED, record.error
    files = record.manifest["files"]
    bets = record.manifest["totals"]["bets"]
    archived = sum(entry["bytes"] for entry in files.values())
    with capsys.disabled():
        print(
            f"\n[archive] {ROUNDS} Boundless rounds of {PLAYERS:,} players, {bets:,} bets: "
            f"archive {archived:,} bytes = {archived / bets:.1f} bytes a bet "
            f"(rounds.parquet with the documents {files['rounds']['bytes'] / bets:.1f}, "
            f"bets.parquet {files['bets']['bytes'] / bets:.1f}); "
            f"PostgreSQL {hot_bytes() / bets:.0f} bytes a bet"
        )

    # A round by the id its registry key gives, as the recall will read it.
    round_ = Round.objects.filter(table=boundless_month).order_by("id")[2]
    key = RoundKey.objects.get(round_id=round_.round_id)
    directory = root / "BND1" / f"{key.gaming_day:%Y-%m}"
    database = duckdb.connect()
    document, number = database.execute(
        "SELECT document, number FROM read_parquet(?) WHERE id = ?",
        [str(directory / "rounds.parquet"), key.pk],
    ).fetchone()
    with connection.cursor() as cursor:
        cursor.execute("SELECT document, document_sha256 FROM rounds_round WHERE id = %s", [round_.pk])
        stored, digest = cursor.fetchone()
    # The archive keeps the text as received: the stored bytes decompressed, its digest the round's.
    assert json_of_compressed(stored) == document
    assert hashlib.sha256(document.encode()).hexdigest() == digest
    assert number == round_.number
    count, wagered = database.execute(
        "SELECT count(*), sum(wagered) FROM read_parquet(?) WHERE round_id = ?",
        [str(directory / "bets.parquet"), key.pk],
    ).fetchone()
    assert (count, wagered) == (Bet.objects.of_round(round_).count(), round_.wagered)  # a Decimal, as stored

    # Row groups of a few thousand bets: each holds an ascending range of rounds, the next starts
    # where it ends, so a round's bets are in one row group or two neighbours.
    small = tuple(dataclasses.replace(part, rows_per_group=2_000) for part in PARTS)
    monkeypatch.setattr(export, "PARTS", small)
    export.month_export_write(boundless_month, MARCH, archive_location(str(tmp_path / "small")))
    parquet = pq.ParquetFile(tmp_path / "small" / "BND1" / "2026-03" / "bets.parquet")
    column = parquet.schema_arrow.get_field_index("round_id")
    ranges = [
        (group.column(column).statistics.min, group.column(column).statistics.max)
        for group in (parquet.metadata.row_group(i) for i in range(parquet.metadata.num_row_groups))
    ]
    assert len(ranges) > ROUNDS
    assert all(low <= high for low, high in ranges)
    assert all(high <= next_low for (_, high), (next_low, _) in zip(ranges, ranges[1:], strict=False))
    assert [c.column_index for c in parquet.metadata.row_group(0).sorting_columns] == [
        column,
        parquet.schema_arrow.get_field_index("id"),
    ]
