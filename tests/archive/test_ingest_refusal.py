"""A round of an archived month is refused by ingest, and nothing of it is stored.

Once a month's partitions are dropped, a round of it would land in the default partition (and keep
the month from ever being dropped again); a round of a month being exported would make the export
differ from the database. So ingest (rounds.ingest, through rounds.recall.archived_month, which asks
the archive) refuses it as it refuses a conflicting round: a 409 from the API naming `opened_at`, with
the command that restores the month, a `conflict` line from manage.py ingest. A month whose archive
was deleted under retention is refused too, and cannot be restored. A round in the hot window costs
no query more than before: the archive is asked only of months before it.
"""

import io
import json
from datetime import UTC, date, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pyarrow import fs

import rounds.recall
from archive.drop import month_drop
from archive.models import ArchivedMonth, ArchiveStatus
from archive.services import month_export, month_verify
from archive.storage import ArchiveLocation
from rounds.models import Bet, BetKey, Round, RoundKey, Shoe
from tests.api_support import client_as
from tests.archive.support import APRIL, MARCH, FailingHandler, rounds_of
from tests.archive.test_retention import OLD, archive_months_of, old_rounds
from tests.fixtures import round_document
from tests.rounds.corrections_support import renamed
from tests.rounds.test_partitions import cutoff, ingest_at

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
URL = "/api/rounds/"
RESTORE_DLX1 = "python manage.py archive_restore DLX1 2026-03"


def document_at(suffix: str, day: date, hours: int, name: str = "deluxe-split-double-play-behind") -> dict:
    """A fixture round under ids of its own, opened `hours` after the cut-off of gaming day `day`."""
    document = renamed(round_document(name), suffix)
    opened_at = (cutoff(day) + timedelta(hours=hours)).astimezone(UTC)
    document["opened_at"] = f"{opened_at:%Y-%m-%dT%H:%M:%SZ}"
    document["closed_at"] = f"{opened_at + timedelta(seconds=40):%Y-%m-%dT%H:%M:%SZ}"
    return document


def stored_counts() -> dict[str, int]:
    """The rows of every kind a round writes, and the default partition's rounds."""
    counts = {model.__name__: model.objects.count() for model in (Round, RoundKey, BetKey, Shoe, Bet)}
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM rounds_round_default")
        counts["default partition"] = cursor.fetchone()[0]
    return counts


@pytest.fixture
def march_dropped(history, tmp_path, settings):
    """March 2026 of DLX1 and CLS1 exported, verified and dropped; April 2026 still in the database."""
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    for table in (history.dlx1, history.cls1):
        assert month_export(table, MARCH).status == ArchiveStatus.EXPORTED
        assert month_verify(table, MARCH).status == ArchiveStatus.VERIFIED
    month_drop(MARCH)
    assert rounds_of(MARCH) == 0
    return history


def test_the_api_refuses_a_round_of_a_dropped_month_naming_opened_at_and_the_restore(march_dropped):
    game_server = client_as("game_server")
    before = stored_counts()
    document = document_at("-LATE", date(2026, 3, 20), hours=3)

    response = game_server.post(URL, document, format="json")

    assert response.status_code == 409, response.content
    body = response.json()
    assert list(body) == ["opened_at"]
    message = body["opened_at"][0]
    assert f"Round {document['round_id']} opened on gaming day 2026-03-20" in message
    assert "2026-03" in message and "archived" in message and "nothing was stored" in message
    assert RESTORE_DLX1 in message and "send the round again" in message
    assert stored_counts() == before

    # A round of the month sent again is refused the same way (its ids are in the registry).
    resent = document_at("-A1", date(2026, 3, 5), hours=2)  # as tests/archive/support.py sent it
    assert resent["round_id"] == march_dropped.march[0].round_id
    response = game_server.post(URL, resent, format="json")
    assert response.status_code == 409
    assert RESTORE_DLX1 in response.json()["opened_at"][0]
    assert stored_counts() == before


def test_a_batch_stores_its_hot_round_and_refuses_its_archived_one(march_dropped):
    game_server = client_as("game_server")
    late = document_at("-LATE", date(2026, 3, 20), hours=3)
    hot = document_at("-HOT", timezone.now().date() - timedelta(days=1), hours=1)
    before = stored_counts()

    response = game_server.post(URL, {"rounds": [late, hot]}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["stored"], body["conflicts"]) == (1, 1)
    refused, stored = body["results"]
    assert refused["status"] == 409 and RESTORE_DLX1 in refused["errors"]["opened_at"][0]
    assert stored["status"] == 201 and stored["round"]["round_id"] == hot["round_id"]
    assert not RoundKey.objects.filter(round_id=late["round_id"]).exists()
    assert stored_counts()["Round"] == before["Round"] + 1
    assert stored_counts()["default partition"] == 0


def test_a_table_without_rounds_in_the_dropped_month_is_refused_too(march_dropped):
    # MPB1 had no round in March: no export of its own, but the month's partitions are gone.
    document = document_at("-MPB", date(2026, 3, 20), hours=3, name="multiplayer-nine-cards-and-strategy")
    assert document["table"] == "MPB1"
    before = stored_counts()

    response = client_as("game_server").post(URL, document, format="json")

    assert response.status_code == 409
    message = response.json()["opened_at"][0]
    assert "python manage.py archive_restore CLS1 2026-03" in message
    assert stored_counts() == before


def test_a_month_exported_but_not_dropped_is_refused_until_archived_and_restored(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    assert month_export(history.dlx1, APRIL).status == ArchiveStatus.EXPORTED
    before = stored_counts()
    document = document_at("-APR", date(2026, 4, 14), hours=2)

    response = client_as("game_server").post(URL, document, format="json")

    assert response.status_code == 409
    message = response.json()["opened_at"][0]
    assert "python manage.py archive_months, then python manage.py archive_restore DLX1 2026-04" in message
    assert stored_counts() == before
    assert month_verify(history.dlx1, APRIL).status == ArchiveStatus.VERIFIED  # the export still holds


def test_a_month_whose_export_failed_or_that_was_restored_takes_rounds(march_dropped, tmp_path):
    history = march_dropped
    game_server = client_as("game_server")
    # April's export failed part way: its rows are all in the database, and it is exported again later.
    failing = ArchiveLocation(
        fs.PyFileSystem(FailingHandler("bets.parquet", 100)), str(tmp_path / "failing"), "failing"
    )
    assert month_export(history.dlx1, APRIL, location=failing).status == ArchiveStatus.FAILED

    response = game_server.post(URL, document_at("-APR", date(2026, 4, 14), hours=2), format="json")

    assert response.status_code == 201, response.content

    # March restored for DLX1: back in the database, its partitions made again.
    call_command("archive_restore", "DLX1", "2026-03", stdout=io.StringIO())
    assert ArchivedMonth.objects.get(table=history.dlx1, month=MARCH).status == ArchiveStatus.RESTORED

    response = game_server.post(URL, document_at("-MAR", date(2026, 3, 20), hours=3), format="json")

    assert response.status_code == 201, response.content
    # MPB1 had no rounds in March: the month's partitions are there again, so its round is taken.
    mpb1 = document_at("-MPB", date(2026, 3, 20), hours=4, name="multiplayer-nine-cards-and-strategy")
    assert game_server.post(URL, mpb1, format="json").status_code == 201
    assert stored_counts()["default partition"] == 0
    # CLS1's March is still in the archive alone.
    cls1 = document_at("-MAR", date(2026, 3, 20), hours=5, name="classic-perfect-pairs-21-plus-3-behind")
    response = game_server.post(URL, cls1, format="json")
    assert response.status_code == 409
    assert "python manage.py archive_restore CLS1 2026-03" in response.json()["opened_at"][0]


def test_a_month_deleted_under_retention_is_refused_for_good(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    settings.PITBOSS_ARCHIVE_RETENTION_YEARS = 10
    archive_months_of(history, old_rounds())
    call_command("archive_retention", "--yes", stdout=io.StringIO())
    assert ArchivedMonth.objects.get(table=history.dlx1, month=OLD).status == ArchiveStatus.DELETED
    before = stored_counts()

    response = client_as("game_server").post(URL, document_at("-GONE", date(2015, 3, 20), 2), format="json")

    assert response.status_code == 409
    message = response.json()["opened_at"][0]
    assert "opened on gaming day 2015-03-20" in message and "deleted under retention" in message
    assert "cannot be restored" in message and "archive_restore" not in message
    assert stored_counts() == before


def test_manage_py_ingest_reports_the_refusal_and_exits_2(march_dropped, tmp_path, capsys):
    path = tmp_path / "late.json"
    path.write_text(json.dumps(document_at("-FILE", date(2026, 3, 20), hours=3)))
    before = stored_counts()

    with pytest.raises(SystemExit) as exit_:
        call_command("ingest", str(path))

    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert f"{path}: conflict: opened_at: Round " in error and RESTORE_DLX1 in error
    assert stored_counts() == before


def queries_of_ingest(suffix: str, opened_at) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        ingest_at(opened_at, suffix)
    return [query["sql"] for query in queries.captured_queries]


def test_a_round_in_the_hot_window_costs_no_query_more(march_dropped, monkeypatch):
    now = timezone.now()
    ingest_at(now - timedelta(hours=3), "-WARM")  # the players and the caches of a first round

    with_archive = queries_of_ingest("-HOT1", now - timedelta(hours=2))
    monkeypatch.setattr(rounds.recall, "round_archives", [])  # as before: no archive asked
    without_archive = queries_of_ingest("-HOT2", now - timedelta(hours=1))

    assert len(with_archive) == len(without_archive)
    assert not [sql for sql in with_archive if "archive_" in sql]


def test_a_round_before_the_hot_window_costs_two_queries_the_archive_and_its_partition(
    march_dropped, monkeypatch
):
    # April 2026 is before the hot window (six months here) and not archived: its rounds are taken,
    # once the archive was asked and the month's partition found.
    ingest_at(cutoff(date(2026, 4, 10)) + timedelta(hours=1), "-WARM")

    with_archive = queries_of_ingest("-OLD1", cutoff(date(2026, 4, 11)) + timedelta(hours=1))
    monkeypatch.setattr(rounds.recall, "round_archives", [])
    without_archive = queries_of_ingest("-OLD2", cutoff(date(2026, 4, 12)) + timedelta(hours=1))

    assert len(with_archive) == len(without_archive) + 2
    assert len([sql for sql in with_archive if "archive_archivedmonth" in sql]) == 1
    assert len([sql for sql in with_archive if "rounds_round_2026_04" in sql]) == 1
    assert RoundKey.objects.filter(round_id__endswith="-OLD1").exists()
