"""Shared by the archive's tests: a history of two casino tables in March 2026 (and a round in April),
with a re-settlement's adjustments and a cancellation's refunds, and a filesystem that fails part way.

The history is made by ingest, as a game server's rounds arrive, on the gaming days of
tests/rounds/test_partitions.py. PITBOSS_HOT_MONTHS is 6 in these tests, so that March and April
2026 lie before the hot window (the demo's rules are in force from January 2026 on, and a round
before them cannot be re-settled).
"""

import io
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from itertools import islice

import pyarrow as pa
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from pyarrow import fs

from archive.drop import month_drop
from archive.models import ArchiveStatus
from archive.services import month_export, month_verify
from archive.storage import archive_location
from blackjack.rules import preset
from blackjack.simulate import simulate
from rounds.ingest import round_ingest
from rounds.models import Incident, Round
from rounds.partitions import PARTITIONED, month_after, partition_name, partitions_ensure
from rounds.services.incidents import incident_cancel_round
from rounds.services.resettlements import resettlement_approve, resettlement_propose
from rounds.totals import player_totals_catch_up
from tables.models import Table
from tests.fixtures import round_document
from tests.rounds.corrections_support import classic_completed_blackjack, demo_user, renamed
from tests.rounds.test_partitions import cutoff, ingest_at

MARCH, APRIL = date(2026, 3, 1), date(2026, 4, 1)


@dataclass
class History:
    dlx1: Table
    cls1: Table
    march: list[Round]  # every round of March, both tables
    april: Round


def ingest_document_at(document: dict, day: date, hours: int) -> Round:
    opened_at = (cutoff(day) + timedelta(hours=hours)).astimezone(UTC)
    document["opened_at"] = f"{opened_at:%Y-%m-%dT%H:%M:%SZ}"
    document["closed_at"] = f"{opened_at + timedelta(seconds=40):%Y-%m-%dT%H:%M:%SZ}"
    return round_ingest(document=document).round


def history_make() -> History:
    """Two tables' rounds in March 2026: DLX1 a round and a wrongly paid one dealt by D-ANA, re-settled
    (adjustments); CLS1 a completed round and one the game server cancelled, refunded by its incident.
    One DLX1 round in April. Every player day total caught up."""
    call_command("seed_demo", stdout=io.StringIO())
    partitions_ensure([MARCH, APRIL])
    compliance, supervisor = demo_user("compliance"), demo_user("supervisor")
    plain = ingest_at(cutoff(date(2026, 3, 5)) + timedelta(hours=2), "-A1")
    document = renamed(round_document("deluxe-split-double-play-behind"), "-A2")
    document["bets"][0]["returned"] = "85.00"  # 5.00 short
    document["dealt_by"] = "D-ANA"  # who dealt goes to the archive and back (the others do not say)
    wrong = ingest_document_at(document, date(2026, 3, 31), hours=23)  # the month's last gaming day
    resettlement = resettlement_propose(round_=wrong, proposed_by=compliance, reason="paid short")
    resettlement_approve(resettlement=resettlement, decided_by=supervisor, comment="agreed")
    completed = ingest_document_at(classic_completed_blackjack("-A3"), date(2026, 3, 12), hours=4)
    cancelled = ingest_document_at(
        renamed(round_document("classic-network-failure-refunds"), "-A4"), date(2026, 3, 12), hours=5
    )
    incident = Incident.objects.get(table=cancelled.table, status="open")
    incident_cancel_round(
        incident=incident, round_=cancelled, cancelled_by=supervisor, reason="network failure"
    )
    april = ingest_at(cutoff(date(2026, 4, 1)) + timedelta(minutes=1), "-A5")
    player_totals_catch_up()
    return History(
        dlx1=Table.objects.get(code="DLX1"),
        cls1=Table.objects.get(code="CLS1"),
        march=[plain, wrong, completed, cancelled],
        april=april,
    )


def march_archived(history: History) -> None:
    """March of both tables exported, verified and dropped, and the cache cleared (the round page
    keeps its rows there): what is read of March now comes from the archive."""
    location = archive_location()
    for table in (history.dlx1, history.cls1):
        assert month_export(table, MARCH, location=location).status == ArchiveStatus.EXPORTED
        assert month_verify(table, MARCH).status == ArchiveStatus.VERIFIED
    month_drop(MARCH)
    assert rounds_of(MARCH) == 0
    cache.clear()


def boundless_march(*, players: int, seed: int, rounds: int) -> list[dict]:
    """The demo's tables and March's partitions, and the first `rounds` rounds of a simulated Boundless
    shoe of `players` at BND1 from 2026-03-10, as a game server sends them (not yet ingested)."""
    call_command("seed_demo", stdout=io.StringIO())
    partitions_ensure([MARCH])
    start = datetime(2026, 3, 10, 8, tzinfo=UTC)
    documents = simulate(preset("boundless"), table="BND1", shoes=1, players=players, seed=seed, start=start)
    return [json.loads(json.dumps(document)) for document in islice(documents, rounds)]


def partitions_there(month: date) -> dict[str, bool]:
    with connection.cursor() as cursor:
        found = {}
        for table in PARTITIONED:
            cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [partition_name(table, month)])
            found[table] = cursor.fetchone()[0]
        return found


def rounds_of(month: date) -> int:
    return Round.objects.filter(gaming_day__gte=month, gaming_day__lt=month_after(month)).count()


# --- a filesystem that fails part way through a file --------------------------------------------------


class FailingWrites:
    """A writable file that takes `limit` bytes, then fails as a full disk or a dropped connection."""

    def __init__(self, stream, limit: int):
        self.stream, self.limit, self.written, self.closed = stream, limit, 0, False

    def write(self, data) -> int:
        if self.written + len(data) > self.limit:
            raise OSError(28, "No space left on device (injected by the test)")
        self.written += len(data)
        return self.stream.write(data)

    def tell(self) -> int:
        return self.written

    def flush(self) -> None:
        self.stream.flush()

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        self.closed = True
        self.stream.close()


class FailingHandler(fs.FileSystemHandler):
    """The local filesystem, except that a file named `fails` takes only `limit` bytes: pyarrow's
    documented way to a filesystem of one's own (pyarrow.fs.PyFileSystem)."""

    def __init__(self, fails: str, limit: int):
        self.local, self.fails, self.limit = fs.LocalFileSystem(), fails, limit

    def open_output_stream(self, path, metadata):
        stream = self.local.open_output_stream(path)
        if path.rsplit("/", 1)[-1] == self.fails:
            return pa.PythonFile(FailingWrites(stream, self.limit), mode="w")
        return stream

    def get_type_name(self):
        return "failing-local"

    def normalize_path(self, path):
        return self.local.normalize_path(path)

    def get_file_info(self, paths):
        return self.local.get_file_info(paths)

    def get_file_info_selector(self, selector):
        return self.local.get_file_info(selector)

    def create_dir(self, path, recursive):
        self.local.create_dir(path, recursive=recursive)

    def delete_dir(self, path):
        self.local.delete_dir(path)

    def delete_dir_contents(self, path, missing_dir_ok=False):
        self.local.delete_dir_contents(path, missing_dir_ok=missing_dir_ok)

    def delete_root_dir_contents(self):
        raise OSError("not here")

    def delete_file(self, path):
        self.local.delete_file(path)

    def move(self, src, dest):
        self.local.move(src, dest)

    def copy_file(self, src, dest):
        self.local.copy_file(src, dest)

    def open_input_stream(self, path):
        return self.local.open_input_stream(path)

    def open_input_file(self, path):
        return self.local.open_input_file(path)

    def open_append_stream(self, path, metadata):
        return self.local.open_append_stream(path)

    def equals(self, other):
        return other is self
