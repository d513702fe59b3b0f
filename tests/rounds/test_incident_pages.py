"""Incident pages: list with filters and CSV, open from the table page, the incident page and its
forms (note, resume, cancel a round), refusals shown on the page, permissions per role."""

import pytest
from django.test import Client

from rounds.models import Incident, Refund
from tables.models import Table
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    classic_completed_blackjack,
    corrections_urls,
    demo,
    demo_user,
    ingest,
)

pytestmark = pytest.mark.usefixtures("demo")


def browser(username="supervisor"):
    client = Client()
    if username:
        client.force_login(demo_user(username))
    return client


def open_incident(client, **fields):
    data = {"table": "CLS1", "kind": "network_failure", "round": "", "note": "Stream froze", **fields}
    return client.post("/rounds/incidents/new/", data)


def test_the_table_page_links_to_opening_an_incident():
    page = browser().get("/tables/CLS1/").content.decode()
    assert 'href="/rounds/incidents/new/?table=CLS1"' in page
    assert "Open an incident" not in browser("compliance").get("/tables/CLS1/").content.decode()
    form = browser().get("/rounds/incidents/new/?table=CLS1").content.decode()
    assert '<option value="CLS1" selected>' in form


def test_a_supervisor_opens_notes_and_cancels_a_round_and_sees_the_refunds():
    completed = ingest(classic_completed_blackjack())
    client = browser()
    response = open_incident(client)
    incident = Incident.objects.get()
    assert response.status_code == 302 and response.url == f"/rounds/incidents/{incident.pk}/"
    assert Table.objects.get(code="CLS1").status == "paused"
    page = client.get(f"/rounds/incidents/{incident.pk}/").content.decode()
    assert "No round the game server sent as cancelled awaits its refunds" in page
    assert 'name="cancel-round"' not in page
    round_ = ingest(round_document("classic-network-failure-refunds"))  # joins the incident
    client.post(f"/rounds/incidents/{incident.pk}/note/", {"note-text": "Studio called back"})
    page = client.get(f"/rounds/incidents/{incident.pk}/").content.decode()
    assert "Stream froze" in page and "Studio called back" in page and round_.round_id in page
    # The form offers only the round the game server cancelled, never a completed one.
    assert f'<option value="{round_.round_id}"' in page
    assert f'<option value="{completed.round_id}"' not in page
    refused = client.post(
        f"/rounds/incidents/{incident.pk}/cancel-round/",
        {"cancel-round": completed.round_id, "cancel-reason": "Network failure mid-round"},
    )
    assert refused.status_code == 200 and "voided from its page" in refused.content.decode()
    assert not Refund.objects.exists()
    response = client.post(
        f"/rounds/incidents/{incident.pk}/cancel-round/",
        {"cancel-round": round_.round_id, "cancel-reason": "Network failure mid-round"},
    )
    assert response.status_code == 302
    page = client.get(f"/rounds/incidents/{incident.pk}/", follow=True).content.decode()
    assert "77.50" in page and "50.00" in page and "blackjack paid 3:2" in page
    assert "Round cancelled" in page and "Add a note" not in page
    assert Refund.objects.count() == 6


def test_resume_from_the_page():
    client = browser()
    open_incident(client)
    incident = Incident.objects.get()
    response = client.post(f"/rounds/incidents/{incident.pk}/resume/", {"resume-note": "back"}, follow=True)
    assert "play resumed; CLS1 is Open" in response.content.decode()


def test_refusals_are_shown_and_change_nothing():
    client = browser()
    open_incident(client)
    again = open_incident(client)
    assert again.status_code == 200 and "already has an open incident" in again.content.decode()
    incident = Incident.objects.get()
    blank = client.post(f"/rounds/incidents/{incident.pk}/resume/", {"resume-note": ""})
    assert "Say why" in blank.content.decode()
    client.post(f"/rounds/incidents/{incident.pk}/resume/", {"resume-note": "back"})
    late = client.post(f"/rounds/incidents/{incident.pk}/note/", {"note-text": "late"})
    assert late.status_code == 200 and f"Incident {incident.pk} is closed" in late.content.decode()
    assert incident.notes.count() == 2
    reopened = client.post("/tables/CLS1/status/", {"status": "paused", "reason": "x"})
    assert reopened.status_code == 302


def test_the_table_status_page_refuses_opening_during_an_incident():
    client = browser()
    open_incident(client)
    response = client.post("/tables/CLS1/status/", {"status": "open", "reason": "go"})
    assert response.status_code == 200 and "cannot open while incident" in response.content.decode()


def test_the_list_filters_and_exports():
    client = browser()
    first = open_incident(client).url
    second = open_incident(client, table="DLX1", kind="malfunction").url
    client.get(first)  # shows the success messages
    page = client.get("/rounds/incidents/", {"kind": "malfunction"}).content.decode()
    assert f'href="{second}"' in page and f'href="{first}"' not in page
    csv = client.get("/rounds/incidents/", {"_export": "csv", "table": "CLS1"})
    lines = csv.getvalue().decode().strip().splitlines()
    assert len(lines) == 2 and "CLS1" in lines[1] and "network_failure" not in lines[0]


@pytest.mark.parametrize(
    "username, read, write",
    [
        ("supervisor", 200, 200),
        ("compliance", 200, 403),
        ("customer-service", 403, 403),
        ("game-server", 403, 403),
    ],
)
def test_permissions_per_role(username, read, write):
    incident = Incident.objects.get(pk=open_incident(browser()).url.split("/")[-2])
    client = browser(username)
    assert client.get("/rounds/incidents/").status_code == read
    assert client.get(f"/rounds/incidents/{incident.pk}/").status_code == read
    assert client.get("/rounds/incidents/new/").status_code == write
    note = client.post(f"/rounds/incidents/{incident.pk}/note/", {"note-text": "n"})
    assert note.status_code == (302 if write == 200 else write)
    assert browser(None).get("/rounds/incidents/").status_code == 302  # to the login page
