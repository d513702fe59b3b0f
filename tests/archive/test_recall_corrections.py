"""Corrections of rounds whose month is archived stay listed and readable, and search finds archived
rounds and bets (PostgreSQL).

Re-settlements, voids and incidents are not archived (they are kept in unpartitioned tables and point
at their rounds through the registry): their lists, their pages and the API still show each with its
round's id and table after the round's month is dropped, and link to the round's page, which opens
from the archive. A proposal form given an archived round says how to restore its month.
"""

import re
from datetime import date

import pytest

from rounds.models import Bet, Incident, Player
from rounds.selectors import play_record_bets
from rounds.services.incidents import incident_cancel_round
from tests.api_support import client_as
from tests.archive.recall_support import PERIOD, RESTORE_CLS1, RESTORE_DLX1, page_of, region, shown_bet
from tests.archive.support import ingest_document_at, march_archived
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo_user, renamed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def text_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def round_link(round_id: str) -> str:
    return f'href="/rounds/{round_id}/"'


def test_lists_and_pages_of_corrections_show_their_archived_rounds(archived, client):
    history, _, compliance, _, void = archived
    plain, wrong, _, cancelled = history.march
    resettlement = wrong.resettlements.get()
    incident = Incident.objects.get(round=cancelled.pk)
    supervisor = client
    supervisor.force_login(demo_user("supervisor"))

    listed = text_of(compliance, "/rounds/resettlements/")
    assert round_link(wrong.round_id) in listed and "DLX1" in listed
    page = text_of(compliance, f"/rounds/resettlements/{resettlement.pk}/")
    assert wrong.round_id in page and RESTORE_DLX1 in page
    assert round_link(wrong.round_id) in text_of(compliance, "/rounds/resettlements/?sort=round")

    listed = text_of(supervisor, "/rounds/voids/")
    assert round_link(plain.round_id) in listed and "DLX1" in listed
    page = text_of(supervisor, f"/rounds/voids/{void.pk}/")
    assert plain.round_id in page and RESTORE_DLX1 in page
    assert "Approve the void" not in page

    listed = text_of(supervisor, "/rounds/incidents/")
    assert round_link(cancelled.round_id) in listed
    page = text_of(supervisor, f"/rounds/incidents/{incident.pk}/")
    assert cancelled.round_id in page and RESTORE_CLS1 in page
    refunds = text_of(supervisor, f"/rounds/incidents/{incident.pk}/refunds/")
    assert RESTORE_CLS1 in refunds and "are in the archive with its month (CLS1 2026-03" in refunds

    api = client_as("supervisor")
    for url, round_id in (
        ("/api/resettlements/", wrong.round_id),
        ("/api/voids/", plain.round_id),
        ("/api/incidents/", cancelled.round_id),
    ):
        answer = api.get(url)
        assert answer.status_code == 200, (url, answer.content)
        assert round_id in [row["round"] for row in answer.json()["results"]], url
    for url, round_id in (
        (f"/api/resettlements/{resettlement.pk}/", wrong.round_id),
        (f"/api/voids/{void.pk}/", plain.round_id),
        (f"/api/incidents/{incident.pk}/", cancelled.round_id),
    ):
        answer = api.get(url)
        assert answer.status_code == 200, (url, answer.content)
        assert answer.json()["round"] == round_id, url


def test_the_home_queue_lists_a_proposal_whose_round_is_archived(archived, client):
    history, _, _, _, void = archived
    client.force_login(demo_user("supervisor-2"))  # may decide the void the first supervisor proposed
    home = text_of(client, "/")
    assert f"DLX1 · {history.march[0].round_id}" in home and f"/rounds/voids/{void.pk}/" in home


def test_search_finds_an_archived_round_and_bet(archived):
    history, before, compliance, _, _ = archived
    wrong = history.march[1]
    answer = compliance.get("/search/", {"q": wrong.round_id})
    assert answer.status_code == 302 and answer["Location"] == f"/rounds/{wrong.round_id}/"
    bet_id = before.api[wrong.round_id]["bets"][0]["bet_id"]
    assert not Bet.objects.filter(bet_id=bet_id).exists()
    answer = compliance.get("/search/", {"q": bet_id})
    assert answer.status_code == 302 and answer["Location"].startswith(f"/rounds/{wrong.round_id}/")
    assert re.search(r"#bet-\d+$", answer["Location"])
    assert compliance.get(answer["Location"]).status_code == 200


def test_a_proposal_form_given_an_archived_round_says_how_to_restore_its_month(archived, client):
    history, _, compliance, _, _ = archived
    _, wrong, completed, _ = history.march
    supervisor = client
    supervisor.force_login(demo_user("supervisor"))

    for form in (
        compliance.get("/rounds/resettlements/new/", {"round": wrong.round_id}),
        compliance.post("/rounds/resettlements/new/", {"round": wrong.round_id, "reason": "paid short"}),
    ):
        assert form.status_code == 200
        assert RESTORE_DLX1 in form.content.decode() and "is stored" not in form.content.decode()
    for form in (
        supervisor.get("/rounds/voids/new/", {"round": completed.round_id}),
        supervisor.post("/rounds/voids/new/", {"round": completed.round_id, "reason": "malfunction"}),
    ):
        assert form.status_code == 200
        assert RESTORE_CLS1 in form.content.decode() and "is stored" not in form.content.decode()
    opened = supervisor.post(
        "/rounds/incidents/new/",
        {"table": history.cls1.pk, "kind": "other", "round": completed.round_id, "note": "checking"},
    )
    assert opened.status_code == 200 and RESTORE_CLS1 in opened.content.decode()
    assert not Incident.objects.filter(notes__text="checking").exists()


def test_each_archived_round_of_an_incident_that_cancelled_two_lists_its_own_refunds(
    history, tmp_path, settings, client
):
    """An incident ends with every round the game server sent as cancelled refunded: its refunds
    name the bets of two rounds. Read back from the archive, each round's page lists its own refunds
    alone, as it did before."""
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    first, second = (
        ingest_document_at(
            renamed(round_document("classic-network-failure-refunds"), suffix), date(2026, 3, 20), hours
        )
        for suffix, hours in (("-C1", 2), ("-C2", 3))
    )
    incident = Incident.objects.get(table=history.cls1, status="open")
    incident_cancel_round(
        incident=incident, round_=first, cancelled_by=demo_user("supervisor"), reason="network failure"
    )
    assert {refund.bet.round_id for refund in incident.refunds.all()} == {first.pk, second.pk}
    client.force_login(demo_user("compliance"))
    pages = {r.round_id: refunds_shown(page_of(client, r.round_id)) for r in (first, second)}
    # P7601 has three bets in each: the play record shows each one's refund.
    player = Player.objects.get(external_id="P7601")
    before = {
        bet.bet_id: shown_bet(bet) for bet in play_record_bets(player).filter(round__in=[first.pk, second.pk])
    }
    assert len(before) == 6 and all(shown[REFUND] is not None for shown in before.values())

    march_archived(history)

    bet_ids = [bet["bet_id"] for bet in round_document("classic-network-failure-refunds")["bets"]]
    for round_, suffix in ((first, "-C1"), (second, "-C2")):
        shown = refunds_shown(page_of(client, round_.round_id))
        assert shown == pages[round_.round_id]
        assert re.findall(r'<td class="code">([^<]+)</td>', shown) == [bet_id + suffix for bet_id in bet_ids]
    record = client.get(f"/rounds/players/{player.external_id}/", PERIOD)
    archived = {bet.bet_id: shown_bet(bet) for bet in record.context["archive"].bets}
    assert {bet_id: archived[bet_id] for bet_id in before} == before


REFUND = 10  # shown_bet's place of the bet's refund


def refunds_shown(html: str) -> str:
    return region(html, "<h2>Incident", "</section>")
