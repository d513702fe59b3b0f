"""One outcome everywhere: the round list (its column, its filter, its CSV), the round page, the API
and the play record show each round's outcome (rounds.outcome), worked out from the status the game
server sent (kept as received) and the round's one correction. Every place is tested with a round
cancelled in an incident before voids existed (completed, then refunded), one voided, one
re-settled, one the server cancelled, and one just completed."""

import csv
import html as html_text
import io
import re
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from rounds import services
from rounds.models import Bet, Refund, Round, RoundCorrection
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    corrections_urls,
    demo,
    demo_user,
    ingest,
    renamed,
    second_supervisor,
    wrongly_paid,
)
from tests.rounds.test_pages import LIST_PAGE_QUERIES

pytestmark = pytest.mark.usefixtures("demo")
LABELS = {
    "completed": "Completed",
    "cancelled_by_server": "Cancelled by the game server",
    "cancelled_in_incident": "Cancelled in an incident",
    "voided": "Voided",
    "resettled": "Re-settled",
}
PLAYER = "P7101"  # has bets in every Deluxe round below


@dataclass
class Rounds:
    completed: Round
    cancelled_by_server: Round
    cancelled_in_incident: Round
    voided: Round
    resettled: Round

    def items(self):
        return [(outcome, getattr(self, outcome)) for outcome in LABELS]


@pytest.fixture
def rounds() -> Rounds:
    supervisor = demo_user("supervisor")
    completed = ingest(renamed(round_document("deluxe-split-double-play-behind"), "-K"))
    cancelled_by_server = ingest(renamed(round_document("classic-network-failure-refunds"), "-S"))
    # Before voids, a supervisor could refund a completed round in an incident; migration 0011
    # recorded that as the round's correction.
    legacy = ingest(renamed(round_document("deluxe-split-double-play-behind"), "-L"))
    incident = services.incident_open(
        table=legacy.table, kind="malfunction", opened_by=supervisor, note="Shuffler jammed", round_=legacy
    )
    Refund.objects.bulk_create(
        Refund(incident=incident, bet=bet, gaming_day=bet.gaming_day, amount=bet.wagered)
        for bet in Bet.objects.filter(round=legacy)
    )
    RoundCorrection.objects.create(round=legacy, kind="cancelled", incident=incident, recorded_by=supervisor)
    services.incident_resume(incident=incident, resumed_by=supervisor, note="Shuffler replaced")
    voided = ingest(renamed(round_document("deluxe-split-double-play-behind"), "-V"))
    void = services.void_propose(round_=voided, proposed_by=supervisor, reason="Shuffler jammed again")
    services.void_approve(void=void, decided_by=second_supervisor(), comment="Seen on the video")
    resettled = wrongly_paid("-R")
    proposal = services.resettlement_propose(
        round_=resettled, proposed_by=demo_user("compliance"), reason="D23-1 paid short"
    )
    services.resettlement_approve(resettlement=proposal, decided_by=supervisor, comment="Checked")
    return Rounds(completed, cancelled_by_server, legacy, voided, resettled)


def browser(username="compliance") -> Client:
    client = Client()
    client.force_login(demo_user(username))
    return client


def row_of(html: str, round_id: str) -> str:
    (row,) = re.findall(rf'<tr[^>]*>(?:(?!</tr>).)*?/rounds/{re.escape(round_id)}/".*?</tr>', html, re.S)
    return row


def listed_ids(html: str) -> list[str]:
    """The round ids of the round list's rows (the navigation's links left out)."""
    rows = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/rounds/([^/"]+)/(?:\?list=[^"]*)?">', rows)


def test_the_status_sent_is_never_edited(rounds):
    assert {outcome: r.status for outcome, r in rounds.items()} == {
        "completed": "completed",
        "cancelled_by_server": "cancelled",
        "cancelled_in_incident": "completed",
        "voided": "completed",
        "resettled": "completed",
    }
    for _, round_ in rounds.items():
        round_.refresh_from_db()
    assert Round.objects.filter(status="completed").count() == 4


def test_the_round_list_shows_each_rounds_outcome(rounds):
    html = browser().get("/rounds/").content.decode()
    for outcome, round_ in rounds.items():
        badge = f'<span class="badge badge-{outcome}">{LABELS[outcome]}</span>'
        assert badge in row_of(html, round_.round_id), outcome


def test_the_round_list_filters_by_outcome(rounds):
    client = browser()
    for outcome, round_ in rounds.items():
        html = client.get("/rounds/", {"outcome": outcome}).content.decode()
        assert listed_ids(html) == [round_.round_id], outcome
    both = client.get("/rounds/", {"outcome": ["voided", "cancelled_in_incident"]}).content.decode()
    assert set(listed_ids(both)) == {
        rounds.voided.round_id,
        rounds.cancelled_in_incident.round_id,
    }
    # The status filter stays the status as sent.
    sent_completed = client.get("/rounds/", {"status": "completed"}).content.decode()
    assert len(listed_ids(sent_completed)) == 4


def test_the_round_list_csv_gives_the_outcome_beside_the_status_sent(rounds):
    response = browser().get("/rounds/", {"_export": "csv"})
    rows = {row["Round"]: row for row in csv.DictReader(io.StringIO(response.getvalue().decode()))}
    for outcome, round_ in rounds.items():
        assert rows[round_.round_id]["Outcome"] == LABELS[outcome]
    assert rows[rounds.voided.round_id]["Status sent"] == "Completed"


def test_the_round_list_takes_the_same_queries_with_corrected_rounds(rounds, django_assert_max_num_queries):
    client = browser()
    with django_assert_max_num_queries(LIST_PAGE_QUERIES):
        assert client.get("/rounds/").status_code == 200


def test_the_round_page_shows_the_outcome_and_the_status_sent(rounds):
    client = browser()
    for outcome, round_ in rounds.items():
        html = client.get(round_.get_absolute_url()).content.decode()
        heading = html.split("<h1>", 1)[1].split("</h1>", 1)[0]
        assert LABELS[outcome] in heading, outcome
        assert f"sent as {round_.get_status_display().lower()}" in html
    voided = client.get(rounds.voided.get_absolute_url()).content.decode()
    assert 'id="voids"' in voided and "Approved" in voided


def test_the_api_gives_the_outcome_and_keeps_the_status_as_sent(rounds):
    api = APIClient()
    api.force_authenticate(demo_user("compliance"))
    listed = {r["round_id"]: r for r in api.get("/api/rounds/").json()["results"]}
    for outcome, round_ in rounds.items():
        assert listed[round_.round_id]["outcome"] == outcome
        assert listed[round_.round_id]["status"] == round_.status
        detail = api.get(f"/api/rounds/{round_.round_id}/").json()
        assert (detail["outcome"], detail["status"]) == (outcome, round_.status)
    filtered = api.get("/api/rounds/", {"outcome": "voided"}).json()["results"]
    assert [r["round_id"] for r in filtered] == [rounds.voided.round_id]


def test_the_play_record_shows_each_bets_round_outcome_and_its_void(rounds):
    response = browser("customer-service").get(f"/rounds/players/{PLAYER}/")
    html = response.content.decode()
    rows = {bet.bet_id: bet for bet in response.context["table"].data}
    assert rows["D23-1-V"].outcome == "voided" and rows["D23-1-V"].void == rows["D23-1-V"].wagered - 90
    assert rows["D23-1-L"].outcome == "cancelled_in_incident" and rows["D23-1-L"].refund == 45
    assert rows["D23-1-R"].outcome == "resettled" and rows["D23-1-R"].adjustment == 5
    assert rows["D23-1-K"].outcome == "completed"
    for suffix, outcome in (("V", "voided"), ("L", "cancelled_in_incident"), ("R", "resettled")):
        row = html.split(f">D23-1-{suffix}<", 1)[1].split("</tr>", 1)[0]
        assert LABELS[outcome] in row
    voided_only = browser("customer-service").get(f"/rounds/players/{PLAYER}/", {"outcome": "voided"})
    assert {bet.bet_id for bet in voided_only.context["table"].data} == {"D23-1-V", "D23-2-V"}


def test_the_play_records_csv_holds_the_bets_its_filter_lists_with_their_outcome(rounds):
    client = browser("customer-service")
    page = client.get(f"/rounds/players/{PLAYER}/", {"outcome": "voided"})
    shown = [bet.bet_id for bet in page.context["table"].data]
    (query,) = re.findall(r'href="\?([^"]*_export=csv[^"]*)"', page.content.decode())
    response = client.get(f"/rounds/players/{PLAYER}/?{html_text.unescape(query)}")
    assert response["Content-Disposition"] == f'attachment; filename="play-record-{PLAYER}.csv"'
    rows = list(csv.DictReader(io.StringIO(response.getvalue().decode())))
    assert [row["Bet"] for row in rows] == shown and len(shown) == 2  # the page's bets, in its order
    assert {row["Round outcome"] for row in rows} == {"Voided"}
    voided = next(row for row in rows if row["Bet"] == "D23-1-V")
    bet = Bet.objects.get(bet_id="D23-1-V")
    assert Decimal(voided["Void"]) == bet.wagered - 90 and voided["Round"] == rounds.voided.round_id
    assert "Opened" not in voided and voided["Opened (UTC)"]  # times in UTC, as every export

    everything = client.get(f"/rounds/players/{PLAYER}/", {"_export": "csv"})
    listed = [row["Bet"] for row in csv.DictReader(io.StringIO(everything.getvalue().decode()))]
    theirs = Bet.objects.filter(player__external_id=PLAYER).values_list("bet_id", flat=True)
    assert sorted(listed) == sorted(theirs)
