"""The table's dealer on duty: the `dealt_by` of its latest round (by opened_at) when that round says
who dealt it, naming the round; else the hand-set field. On the table page and in the tables API, read
in the table's own query (rounds.table_dealer, registered by RoundsConfig.ready())."""

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rounds.ingest import round_ingest
from tables.models import Table
from tables.selectors import DealerOnDuty, dealer_on_duty, with_dealers
from tests.api_support import client_as
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo_user, renamed

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 28, 14, 0, tzinfo=UTC)


def deal(suffix: str, dealt_by: str | None, *, minutes: int, table: str = "DLX1") -> str:
    """A round at `table` opened `minutes` after START, dealt by `dealt_by` (None: not said); its id."""
    name = "deluxe-split-double-play-behind" if table == "DLX1" else "classic-perfect-pairs-21-plus-3-behind"
    document = renamed(round_document(name), suffix)
    opened = START + timedelta(minutes=minutes)
    document["opened_at"] = f"{opened:%Y-%m-%dT%H:%M:%SZ}"
    document["closed_at"] = f"{opened + timedelta(seconds=50):%Y-%m-%dT%H:%M:%SZ}"
    if dealt_by is not None:
        document["dealt_by"] = dealt_by
    return round_ingest(document=document).round.round_id


@pytest.fixture
def tables(db):
    call_command("seed_demo", stdout=io.StringIO())
    Table.objects.filter(code="DLX1").update(dealer="Maria by hand")
    Table.objects.filter(code="CLS1").update(dealer="Jonas by hand")


def on_duty(code: str) -> DealerOnDuty:
    return dealer_on_duty(with_dealers(Table.objects.all()).get(code=code))


def page(code: str, role: str = "compliance") -> str:
    client = Client()
    client.force_login(demo_user(role))
    response = client.get(f"/tables/{code}/")
    assert response.status_code == 200
    html = response.content.decode()
    return html.split(" on duty</dt><dd>", 1)[1].split("</dd>", 1)[0]


def test_without_rounds_the_hand_set_dealer_is_on_duty(tables):
    assert on_duty("DLX1") == DealerOnDuty(dealer="Maria by hand")
    assert page("DLX1") == "Maria by hand"
    assert on_duty("BND1") == DealerOnDuty(dealer=Table.objects.get(code="BND1").dealer)


def test_the_latest_round_says_who_is_on_duty(tables):
    deal("-1", "D-ANA", minutes=0)
    latest = deal("-2", "D-BEN", minutes=5)
    assert on_duty("DLX1") == DealerOnDuty(dealer="D-BEN", round_id=latest)
    assert page("DLX1") == (
        f'<span class="mono">D-BEN</span> <span class="subtle">(from round '
        f'<a class="mono" href="/rounds/{latest}/">{latest}</a>)</span>'
    )
    # Another table's rounds say nothing of this one's dealer.
    assert on_duty("CLS1") == DealerOnDuty(dealer="Jonas by hand")


def test_latest_is_by_opened_at_not_by_arrival(tables):
    later = deal("-1", "D-ANA", minutes=30)
    deal("-2", "D-BEN", minutes=10)  # sent after, played before
    assert on_duty("DLX1") == DealerOnDuty(dealer="D-ANA", round_id=later)


def test_a_latest_round_that_does_not_say_leaves_the_hand_set_dealer_on_duty(tables):
    deal("-1", "D-ANA", minutes=0)
    deal("-2", None, minutes=5)
    assert on_duty("DLX1") == DealerOnDuty(dealer="Maria by hand")
    assert page("DLX1") == "Maria by hand"


def test_the_tables_api_says_who_is_on_duty(tables):
    latest = deal("-1", "D-ANA", minutes=0)
    api = client_as("supervisor")
    detail = api.get("/api/tables/DLX1/").json()
    assert detail["dealer"] == "Maria by hand"  # the hand-set field, as it was set
    assert detail["dealer_on_duty"] == {"dealer": "D-ANA", "round_id": latest}
    listed = {row["code"]: row["dealer_on_duty"] for row in api.get("/api/tables/").json()["results"]}
    assert listed["DLX1"] == {"dealer": "D-ANA", "round_id": latest}
    assert listed["CLS1"] == {"dealer": "Jonas by hand", "round_id": None}
    # A table changed through the API is answered with who is on duty too (a query of its own).
    changed = api.patch("/api/tables/DLX1/", {"studio": "Studio 9", "reason": "moved"}, format="json").json()
    assert changed["dealer_on_duty"] == {"dealer": "D-ANA", "round_id": latest}


def test_who_is_on_duty_is_read_in_the_tables_own_query(tables):
    deal("-1", "D-ANA", minutes=0)
    deal("-2", "D-BEN", minutes=1, table="CLS1")
    with CaptureQueriesContext(connection) as queries:
        found = {table.code: dealer_on_duty(table).dealer for table in with_dealers(Table.objects.all())}
    assert len(queries) == 1
    hand_set = dict(Table.objects.values_list("code", "dealer"))
    assert found == hand_set | {"DLX1": "D-ANA", "CLS1": "D-BEN"}


@pytest.mark.postgres
def test_the_latest_round_is_read_from_the_tables_index_newest_played_first(tables):
    from tests.rounds.test_query_plans import plan_of

    deal("-1", "D-ANA", minutes=0)
    plan = plan_of(with_dealers(Table.objects.filter(code="DLX1")))
    # Each month's partition from its copy of the (table, -opened_at, -id) index, merged in that order:
    # no round is sorted.
    scans = [line for line in plan.splitlines() if "rounds_round" in line]
    assert scans and all("Index Scan using" in line and "table_id_opened_at_id" in line for line in scans), (
        plan
    )
    assert not any(
        line.strip().startswith(("->  Sort", "->  Incremental Sort")) for line in plan.splitlines()
    )


def test_the_tables_list_says_who_is_on_duty_as_the_table_page_does(tables):
    deal("-L1", "D-ZED", minutes=5)
    client = Client()
    client.force_login(demo_user("supervisor"))
    html = client.get("/tables/").content.decode()
    row = html.split('href="/tables/DLX1/"', 1)[1].split("</tr>", 1)[0]
    assert "D-ZED" in row and "Maria by hand" not in row
    row = html.split('href="/tables/CLS1/"', 1)[1].split("</tr>", 1)[0]
    assert "Jonas by hand" in row  # no round yet: the hand-set name
    export = b"".join(client.get("/tables/?_export=csv").streaming_content).decode()
    assert "D-ZED" in export
