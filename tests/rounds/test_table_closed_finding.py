"""A round opened while its table was closed, by the game availability log (TableStatusChange), gets a
`table_closed` finding naming when, by whom and why the table was closed. A paused table gets none
(ingest itself pauses a table when the game server cancels a round). The log is read once per table
for a batch, and the demo's tables are open when their rounds are played."""

import copy
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rounds.choices import FindingCode
from rounds.ingest import round_ingest, rounds_ingest
from rounds.models import Finding, Round
from tables.models import Table, TableStatusChange
from tables.services import table_set_status
from tests import factories
from tests.fixtures import ROUND_NAMES, round_document

pytestmark = pytest.mark.django_db

DELUXE = "deluxe-split-double-play-behind"  # DLX1, opened at 2026-11-28T18:20:05Z


def at(hh_mm: str) -> datetime:
    hours, minutes = map(int, hh_mm.split(":"))
    return datetime(2026, 11, 28, hours, minutes, tzinfo=UTC)


@pytest.fixture
def demo(db):
    call_command("seed_demo", verbosity=0)


def status_set(code: str, status: str, when: datetime, by: str = "alice", reason: str = "Shift change"):
    """A change of the availability log as made on the day: through the service, then dated `when`
    (changed_at is the moment of the change)."""
    change = table_set_status(
        table=Table.objects.get(code=code),
        status=status,
        changed_by=factories.user("supervisor", by) if by else None,
        reason=reason,
    )
    TableStatusChange.objects.filter(pk=change.pk).update(changed_at=when)


def played(round_id: str, opened: str, *, table: str = "DLX1") -> dict:
    """The Deluxe fixture round as another round of its own shoe at `table`, opened at `opened`."""
    document = copy.deepcopy(round_document(DELUXE))
    document.update(
        round_id=round_id,
        table=table,
        shoe=f"{table}-{round_id}",
        number=1,
        opened_at=at(opened).strftime("%Y-%m-%dT%H:%M:%SZ"),
        closed_at=at(opened).replace(second=50).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )
    for bet in document["bets"]:
        bet["bet_id"] = f"{round_id}:{bet['bet_id']}"
    return document


def closed_findings(round_id: str) -> list[str]:
    return list(
        Finding.objects.filter(round__round_id=round_id, code="table_closed")
        .order_by("id")
        .values_list("message", flat=True)
    )


def test_a_round_opened_after_a_supervisor_closed_the_table_gets_a_finding_saying_who_and_why(demo):
    status_set("DLX1", "closed", at("17:50"), reason="Studio A lights failed")
    round_ingest(document=played("R-LATE", "18:02"))
    assert closed_findings("R-LATE") == [
        "Round opened at 2026-11-28 18:02:00 UTC while table DLX1 was closed "
        "(closed at 2026-11-28 17:50:00 UTC by alice: Studio A lights failed)."
    ]
    assert (
        Round.objects.get(round_id="R-LATE").finding_count
        == Finding.objects.filter(round__round_id="R-LATE").count()
    )


def test_the_status_in_force_is_the_last_change_at_or_before_the_round(demo):
    status_set("DLX1", "closed", at("17:50"))
    status_set("DLX1", "open", at("18:10"), by="bob", reason="Lights back")
    status_set("DLX1", "closed", at("19:00"), reason="End of shift")
    documents = [
        played("R-OPEN-BEFORE", "17:49"),
        played("R-AT-CLOSE", "17:50"),  # the change at the same moment is in force
        played("R-CLOSED", "18:05"),
        played("R-REOPENED", "18:10"),
        played("R-CLOSED-AGAIN", "19:30"),
    ]
    rounds_ingest(documents=documents)
    found = {d["round_id"]: len(closed_findings(d["round_id"])) for d in documents}
    assert found == {
        "R-OPEN-BEFORE": 0,
        "R-AT-CLOSE": 1,
        "R-CLOSED": 1,
        "R-REOPENED": 0,
        "R-CLOSED-AGAIN": 1,
    }
    assert "closed at 2026-11-28 19:00:00 UTC by alice: End of shift" in closed_findings("R-CLOSED-AGAIN")[0]


def test_before_the_first_change_the_table_had_the_status_the_change_started_from(demo):
    factories.table("DLX7")  # created closed
    status_set("DLX7", "open", at("19:00"), reason="First day on air")
    rounds_ingest(
        documents=[played("R-EARLY", "18:20", table="DLX7"), played("R-ON-AIR", "19:10", table="DLX7")]
    )
    assert closed_findings("R-EARLY") == [
        "Round opened at 2026-11-28 18:20:00 UTC while table DLX7 was closed "
        "(not yet opened: first opened at 2026-11-28 19:00:00 UTC by alice: First day on air)."
    ]
    assert closed_findings("R-ON-AIR") == []


def test_a_table_never_opened_is_closed_for_every_round(demo):
    factories.table("DLX8")  # created closed, nothing in its availability log
    round_ingest(document=played("R-NEVER", "18:20", table="DLX8"))
    assert closed_findings("R-NEVER") == [
        "Round opened at 2026-11-28 18:20:00 UTC while table DLX8 was closed "
        "(it has never been opened: its availability log is empty)."
    ]


def test_a_paused_table_gets_no_finding_whoever_paused_it(demo):
    status_set("DLX1", "paused", at("17:50"), reason="Shuffler jammed")
    status_set("DLX1", "open", at("18:30"))
    status_set("DLX1", "paused", at("19:00"), by=None, reason="Incident 1: network failure")
    rounds_ingest(documents=[played("R-SUPERVISOR-PAUSE", "18:00"), played("R-SERVER-PAUSE", "19:10")])
    assert Finding.objects.filter(code="table_closed").count() == 0
    assert Round.objects.filter(round_id__in=["R-SUPERVISOR-PAUSE", "R-SERVER-PAUSE"]).count() == 2


def test_rounds_after_ingest_paused_the_table_for_a_cancelled_round_get_no_finding(demo):
    cancelled = round_ingest(document=round_document("classic-network-failure-refunds")).round
    pause = TableStatusChange.objects.filter(table__code="CLS1").order_by("-id").first()
    assert (pause.to_status, pause.changed_by) == ("paused", None)  # ingest paused the table
    TableStatusChange.objects.filter(pk=pause.pk).update(changed_at=cancelled.opened_at)
    document = copy.deepcopy(round_document("classic-network-failure-refunds"))
    document.update(round_id="C-NEXT", number=document["number"] + 1)
    for bet in document["bets"]:
        bet["bet_id"] = f"C-NEXT:{bet['bet_id']}"
    round_ingest(document=document)
    assert Round.objects.filter(round_id="C-NEXT").exists()
    assert Finding.objects.filter(code="table_closed").count() == 0


def test_a_batch_reads_each_tables_log_once(demo):
    factories.table("DLX7")
    status_set("DLX7", "open", at("12:00"))
    status_set("DLX1", "closed", at("17:50"))
    status_set("DLX7", "closed", at("17:50"))
    documents = [played(f"R-B{n}", f"18:{10 + n:02d}") for n in range(6)]
    documents += [played(f"R-C{n}", f"18:{10 + n:02d}", table="DLX7") for n in range(4)]
    with CaptureQueriesContext(connection) as queries:
        rounds_ingest(documents=documents)
    log_reads = [q["sql"] for q in queries.captured_queries if 'FROM "tables_tablestatuschange"' in q["sql"]]
    assert len(log_reads) == 2
    assert [len(closed_findings(d["round_id"])) for d in documents] == [1] * 10


def test_the_code_is_registered_with_a_title_and_filters_the_round_list(client, demo):
    assert FindingCode("table_closed").label == "Round opened while the table was closed"
    status_set("DLX1", "closed", at("17:50"))
    round_ingest(document=played("R-LATE", "18:02"))
    round_ingest(document=played("R-ELSE", "18:03", table="MPB1"))
    client.force_login(factories.user("compliance", "compliance"))
    response = client.get(reverse("rounds:round_list"), {"finding": "table_closed"})
    assert response.status_code == 200
    assert 'href="/rounds/R-LATE/?list=' in response.content.decode()
    assert 'href="/rounds/R-ELSE/"' not in response.content.decode()


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_the_demo_tables_are_open_when_the_fixture_rounds_are_played(demo, name):
    round_ = round_ingest(document=round_document(name)).round
    assert closed_findings(round_.round_id) == []
