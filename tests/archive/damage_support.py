"""Shared by the tests of a damaged archive (test_recall_checks.py on a directory, test_recall_checks_s3.py
on an S3 bucket): an archived March's files damaged as they could be in the archive, and what the round
page, the API and the play record answer then.

Damage is done through the archive's own filesystem (pyarrow's), so the same helpers serve a
directory and a bucket: a bet's `returned` set to 9999.00 and the file rewritten as Parquet; a bet's
row deleted; garbage written over the file; the file deleted.
"""

import logging
from dataclasses import dataclass
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq
from django.test import Client

from archive.models import ArchivedMonth
from archive.storage import archive_location
from limits.models import Player
from rounds.models import Bet
from tests.archive.recall_support import PERIOD
from tests.archive.support import MARCH, History

TAMPERED = Decimal("9999.00")
CHECK_DLX1 = "python manage.py archive_check DLX1 2026-03"


@dataclass
class Month:
    """DLX1's archived March: where its bets file is, its bytes as archived, and a bet of the round
    paid short (history.march[1])."""

    location: object  # archive.storage.ArchiveLocation
    bets_path: str
    original: bytes
    bet_id: int  # the bet's id (pk) in the file
    round_id: str
    player: str  # the bet's player's external id


def dlx1_march(history: History, bet: Bet | None = None) -> Month:
    """DLX1's archived March, and `bet` (of history.march[1]; None: that round's first bet in the file,
    once its month is dropped)."""
    record = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH)
    location = archive_location(record.archive_url)
    path = f"{location.month_dir('DLX1', MARCH)}/{record.manifest['files']['bets']['path']}"
    if bet is None:
        with location.filesystem.open_input_file(path) as source:
            rows = pq.read_table(source, columns=["id", "round_id", "player_id"]).to_pylist()
        row = min((r for r in rows if r["round_id"] == history.march[1].pk), key=lambda r: r["id"])
        bet = Bet(pk=row["id"], player=Player.objects.get(pk=row["player_id"]))
    return Month(
        location=location,
        bets_path=path,
        original=location.read_bytes(path),
        bet_id=bet.pk,
        round_id=history.march[1].round_id,
        player=bet.player.external_id,
    )


def _rewritten(month: Month, change) -> None:
    """The bets file read, its rows changed by `change` (a list of dicts -> a list of dicts), and
    written back as Parquet with the same columns."""
    with month.location.filesystem.open_input_file(month.bets_path) as source:
        table = pq.read_table(source)
    rows = change(table.to_pylist())
    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), sink, compression="zstd")
    month.location.write_bytes(month.bets_path, sink.getvalue().to_pybytes())


def returned_changed(month: Month) -> None:
    def change(rows):
        for row in rows:
            if row["id"] == month.bet_id:
                row["returned"] = TAMPERED
        return rows

    _rewritten(month, change)


def row_deleted(month: Month) -> None:
    _rewritten(month, lambda rows: [row for row in rows if row["id"] != month.bet_id])


def garbage(month: Month) -> None:
    month.location.write_bytes(month.bets_path, b"PAR1" + b"\x00garbage\xff" * 200 + b"PAR1")


def deleted(month: Month) -> None:
    month.location.filesystem.delete_file(month.bets_path)


def put_back(month: Month) -> None:
    month.location.write_bytes(month.bets_path, month.original)


DAMAGES = {"returned changed": returned_changed, "row deleted": row_deleted, "garbage": garbage}


def archive_lines(caplog) -> list[logging.LogRecord]:
    """What the answers left in the log: their own lines, and any of Django's."""
    return [
        r for r in caplog.records if r.name in ("rounds.archive_damage", "django.request", "django.server")
    ]


def assert_refused(compliance: Client, api, month: Month, caplog, *, status: int) -> None:
    """The round page, its document, the API, the play record and its CSV of archived bets all answer
    `status` (409 damaged, 503 missing), say what is wrong and what to do, and log one line each."""
    state = "damaged" if status == 409 else "missing"
    answers = {
        "page": compliance.get(f"/rounds/{month.round_id}/"),
        "play record": compliance.get(f"/rounds/players/{month.player}/", PERIOD),
        "csv": compliance.get(
            f"/rounds/players/{month.player}/", {**PERIOD, "_export": "csv", "bets": "archived"}
        ),
    }
    for name, response in answers.items():
        assert response.status_code == status, (name, response.status_code)
        html = response.content.decode()
        assert f"The archive of DLX1 2026-03 is {state}" in html, name
        assert "bets.parquet" in html and CHECK_DLX1 in html and "archive's copy" in html, name
        assert str(TAMPERED) not in html
        assert (status == 503) == response.has_header("Retry-After")
    response = api.get(f"/api/rounds/{month.round_id}/")
    assert response.status_code == status
    body = response.json()
    assert body["archive"] == {
        "table": "DLX1",
        "month": "2026-03",
        "state": state,
        "file": "bets.parquet",
        "problem": body["archive"]["problem"],
        "check": CHECK_DLX1,
    }
    assert f"The archive of DLX1 2026-03 is {state}: bets.parquet: " in body["detail"]
    lines = archive_lines(caplog)
    assert [r.name for r in lines] == ["rounds.archive_damage"] * 4, [r.getMessage() for r in lines]
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in lines)
    assert all(f"({status}): The archive of DLX1 2026-03 is {state}" in r.getMessage() for r in lines)
    caplog.clear()
