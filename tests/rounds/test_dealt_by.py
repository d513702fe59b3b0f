"""Who dealt a round (the document's `dealt_by`): stored by ingest, shown on the round page, in the
round list (a column and a filter) and its CSV export, and in the API. SQLite, and PostgreSQL when
DATABASE_URL is set (COPY writes the round there)."""

import csv
import io

import pytest
from django.core.management import call_command
from django.test import Client

from rounds.ingest import round_ingest
from rounds.models import Round
from tests.api_support import client_as
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo_user, renamed

pytestmark = pytest.mark.django_db


def dealt(suffix: str, dealt_by: str | None, *, number: int = 1) -> dict:
    document = renamed(round_document("deluxe-split-double-play-behind"), suffix)
    document["number"] = number
    if dealt_by is not None:
        document["dealt_by"] = dealt_by
    return document


@pytest.fixture
def rounds(db):
    """Three DLX1 rounds: dealt by D-ANA, by D-BEN, and one that does not say."""
    call_command("seed_demo", stdout=io.StringIO())
    return {
        name: round_ingest(document=document).round
        for name, document in {
            "ana": dealt("-1", "D-ANA"),
            "ben": dealt("-2", "D-BEN"),
            "unknown": dealt("-3", None),
        }.items()
    }


@pytest.fixture
def compliance(rounds) -> Client:
    client = Client()
    client.force_login(demo_user("compliance"))
    return client


def test_ingest_stores_who_dealt_and_blank_when_not_sent(rounds):
    stored = dict(
        Round.objects.filter(pk__in=[r.pk for r in rounds.values()]).values_list("round_id", "dealt_by")
    )
    assert stored == {
        rounds["ana"].round_id: "D-ANA",
        rounds["ben"].round_id: "D-BEN",
        rounds["unknown"].round_id: "",
    }


def test_a_null_dealt_by_is_stored_blank(rounds):
    document = dealt("-4", None)
    document["dealt_by"] = None
    assert Round.objects.get(pk=round_ingest(document=document).round.pk).dealt_by == ""


def test_a_bad_dealt_by_is_refused_with_a_400_naming_it_and_nothing_stored(rounds):
    before = Round.objects.count()
    response = client_as("game_server").post("/api/rounds/", dealt("-5", "D ANA"), format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["dealt_by"]
    assert Round.objects.count() == before


def test_the_api_shows_who_dealt(rounds):
    api = client_as("compliance")
    assert api.get(f"/api/rounds/{rounds['ana'].round_id}/").json()["dealt_by"] == "D-ANA"
    assert api.get(f"/api/rounds/{rounds['unknown'].round_id}/").json()["dealt_by"] == ""
    listed = {row["round_id"]: row["dealt_by"] for row in api.get("/api/rounds/").json()["results"]}
    assert listed[rounds["ben"].round_id] == "D-BEN"


def test_the_api_list_filters_by_who_dealt(rounds):
    body = client_as("compliance").get("/api/rounds/", {"dealt_by": "D-BEN"}).json()
    assert [row["round_id"] for row in body["results"]] == [rounds["ben"].round_id]


def test_the_round_page_shows_who_dealt_with_a_link_to_their_rounds(compliance, rounds):
    page = compliance.get(f"/rounds/{rounds['ana'].round_id}/").content.decode()
    assert "<dt>Dealt by</dt>" in page
    assert '<a class="mono" href="/rounds/?dealt_by=D-ANA">D-ANA</a>' in page
    page = compliance.get(f"/rounds/{rounds['unknown'].round_id}/").content.decode()
    assert '<dd class="dealt-by"><span class="subtle">not sent</span></dd>' in page


def test_the_round_list_shows_who_dealt_and_filters_by_it_exactly(compliance, rounds):
    response = compliance.get("/rounds/")
    shown = {row.record.round_id: row.get_cell("dealt_by") for row in response.context["table"].rows}
    assert shown == {
        rounds["ana"].round_id: "D-ANA",
        rounds["ben"].round_id: "D-BEN",
        rounds["unknown"].round_id: "",
    }
    html = response.content.decode()
    headers = [column.header for column in response.context["table"].columns]
    assert headers[headers.index("No.") + 1] == "Dealt by"
    # The page's rows (drawn by rounds/includes/round_table.html) have the cell, after the round's number.
    assert '<td class="number">1</td>\n                        <td class="code">D-BEN</td>' in html
    assert '<td class="number">1</td>\n                        <td class="code"></td>' in html
    filtered = compliance.get("/rounds/", {"dealt_by": "D-ANA"}).context["table"].rows
    assert [row.record.round_id for row in filtered] == [rounds["ana"].round_id]
    assert list(compliance.get("/rounds/", {"dealt_by": "D-AN"}).context["table"].rows) == []


def test_the_round_lists_csv_has_who_dealt(compliance, rounds):
    response = compliance.get("/rounds/", {"_export": "csv"})
    header, *rows = csv.reader(io.StringIO(response.getvalue().decode()))
    column = header.index("Dealt by")
    by_round = {row[header.index("Round")]: row[column] for row in rows}
    assert by_round == {
        rounds["ana"].round_id: "D-ANA",
        rounds["ben"].round_id: "D-BEN",
        rounds["unknown"].round_id: "",
    }
