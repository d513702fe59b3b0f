"""Incidents through the API: list with filters, open, notes, resume, cancel a round; 400/403/409."""

import pytest
from rest_framework.test import APIClient

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


def client(username="supervisor"):
    api = APIClient()
    if username:
        api.force_authenticate(demo_user(username))
    return api


def open_incident(username="supervisor", **fields):
    body = {"table": "CLS1", "kind": "network_failure", "note": "Stream froze", **fields}
    return client(username).post("/api/incidents/", body, format="json")


def test_a_supervisor_opens_notes_and_cancels_a_round():
    opened = open_incident()
    assert opened.status_code == 201, opened.json()
    incident = opened.json()
    assert (incident["status"], incident["round"], incident["opened_by"]) == ("open", None, "supervisor")
    assert Table.objects.get(code="CLS1").status == "paused"
    round_ = ingest(round_document("classic-network-failure-refunds"))  # the server cancels it: it joins
    note = client().post(f"/api/incidents/{incident['id']}/notes", {"text": "Studio called"})
    assert note.status_code == 201 and note.json()["author"] == "supervisor"
    notes = client("compliance").get(f"/api/incidents/{incident['id']}/notes").json()
    assert [n["text"] for n in notes["results"]] == [
        "Stream froze",
        f"The game server sent round {round_.round_id} as cancelled (network_failure).",
        "Studio called",
    ]
    cancelled = client().post(
        f"/api/incidents/{incident['id']}/cancel-round", {"round": round_.round_id, "reason": "network"}
    )
    assert cancelled.status_code == 200, cancelled.json()
    body = cancelled.json()
    assert body["status"] == "cancelled" and body["closed_by"] == "supervisor"
    assert body["round"] == round_.round_id
    assert {r["bet"]: r["amount"] for r in body["refunds"]} == {
        "C18-1": "50.00",
        "C18-2": "10.00",
        "C18-3": "1.50",
        "C18-4": "2.00",
        "C18-5": "12.00",
        "C18-6": "2.00",
    }
    listed = client("compliance").get("/api/incidents/", {"status": "cancelled", "table": "CLS1"}).json()
    assert [i["id"] for i in listed["results"]] == [incident["id"]]
    assert client("compliance").get("/api/incidents/", {"kind": "malfunction"}).json()["count"] == 0


def test_a_completed_round_is_409_pointing_to_the_void():
    round_ = ingest(classic_completed_blackjack())
    incident = open_incident(round=round_.round_id).json()
    response = client().post(
        f"/api/incidents/{incident['id']}/cancel-round", {"round": round_.round_id, "reason": "network"}
    )
    assert response.status_code == 409
    assert "completed and settled" in response.json()["round"][0]
    assert "voided" in response.json()["round"][0]
    assert not Refund.objects.exists() and Incident.objects.get().status == "open"


def test_resume_ends_it_and_the_table_opens():
    incident = open_incident().json()
    response = client().post(f"/api/incidents/{incident['id']}/resume", {"note": "back"})
    assert response.status_code == 200 and response.json()["status"] == "resumed"
    assert Table.objects.get(code="CLS1").status == "open"


def test_bad_transitions_answer_409_and_change_nothing():
    incident = open_incident().json()
    assert open_incident().status_code == 409
    client().post(f"/api/incidents/{incident['id']}/resume", {"note": "back"})
    for path, body in [
        ("notes", {"text": "late"}),
        ("resume", {"note": "again"}),
        ("cancel-round", {"round": ingest(classic_completed_blackjack()).round_id, "reason": "x"}),
    ]:
        response = client().post(f"/api/incidents/{incident['id']}/{path}", body)
        assert response.status_code == 409, path
        assert "is closed" in response.json()["non_field_errors"][0]
    assert Incident.objects.get().notes.count() == 2 and not Refund.objects.exists()


def test_cancelling_a_round_twice_is_409():
    round_ = ingest(round_document("classic-network-failure-refunds"))
    first = Incident.objects.get(status="open")  # ingest opened it
    client().post(f"/api/incidents/{first.pk}/cancel-round", {"round": round_.round_id, "reason": "x"})
    second = open_incident().json()
    again = client().post(
        f"/api/incidents/{second['id']}/cancel-round", {"round": round_.round_id, "reason": "y"}
    )
    assert again.status_code == 409 and "cancelled already" in again.json()["round"][0]
    assert Refund.objects.count() == 6


def test_reopening_the_table_is_refused_while_the_incident_is_open():
    open_incident()
    response = client().post("/api/tables/CLS1/status", {"status": "open", "reason": "go"})
    assert response.status_code == 400 and "cannot open while incident" in response.json()["status"][0]
    assert Table.objects.get(code="CLS1").status == "paused"


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"table": "NOPE"}, "table"),
        ({"kind": "gremlins"}, "kind"),
        ({"note": ""}, "note"),
        ({"round": "NOPE"}, "round"),
    ],
)
def test_bad_input_is_400_naming_the_field(fields, field):
    response = open_incident(**fields)
    assert response.status_code == 400 and field in response.json()
    assert not Incident.objects.exists()


@pytest.mark.parametrize(
    "username, read, write",
    [
        (None, 401, 401),
        ("supervisor", 200, 201),
        ("compliance", 200, 403),
        ("customer-service", 403, 403),
        ("game-server", 403, 403),
    ],
)
def test_permissions_per_role(username, read, write):
    assert client(username).get("/api/incidents/").status_code == read
    assert open_incident(username).status_code == write
    incident = Incident.objects.first() or Incident.objects.get(pk=open_incident().json()["id"])
    assert client(username).get(f"/api/incidents/{incident.pk}/").status_code == read
    assert client(username).get(f"/api/incidents/{incident.pk}/notes").status_code == read
    note = client(username).post(f"/api/incidents/{incident.pk}/notes", {"text": "n"})
    assert note.status_code == write
    resume = client(username).post(f"/api/incidents/{incident.pk}/resume", {"note": "n"})
    assert resume.status_code == (200 if write == 201 else write)


def test_the_lists_queries_do_not_grow_with_its_incidents_rounds():
    """Each incident names its archived rounds (`archived_rounds`): a list's page looks its
    incidents' rounds up at once, not an incident at a time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rounds.services import incident_resume

    def incident_at_a_round(suffix: str) -> None:
        round_ = ingest(classic_completed_blackjack(suffix))
        opened = open_incident(round=round_.round_id)
        assert opened.status_code == 201, opened.json()
        incident = Incident.objects.get(pk=opened.json()["id"])
        incident_resume(incident=incident, resumed_by=demo_user("supervisor"), note="Play resumed")

    def queries_of_the_list() -> int:
        with CaptureQueriesContext(connection) as queries:
            listed = client("compliance").get("/api/incidents/")
        assert listed.status_code == 200
        assert all(incident["archived_rounds"] == [] for incident in listed.json()["results"])
        return len(queries)

    incident_at_a_round("-Q1")
    one = queries_of_the_list()
    incident_at_a_round("-Q2")
    incident_at_a_round("-Q3")
    assert queries_of_the_list() == one
