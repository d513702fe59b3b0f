"""Re-settlements through the API: list with filters, propose, approve, reject; 400/403/409."""

import pytest
from rest_framework.test import APIClient

from rounds.models import Adjustment, Resettlement
from tests.rounds.corrections_support import corrections_urls, demo, demo_user, wrongly_paid  # noqa: F401
from tests.second_factor_support import deciding_client

pytestmark = pytest.mark.usefixtures("demo")


def client(username):
    api = APIClient()
    if username:
        api.force_authenticate(demo_user(username))
    return api


def decider(username):
    """A client that may decide: signed in as `username` with a code just checked (deciding needs
    one, accounts.second_factor.FreshCode). Each code is accepted once: one such client per test."""
    return deciding_client(demo_user(username), APIClient) if username else APIClient()


def propose(round_id, reason="D23-1 short by 5.00", username="compliance"):
    return client(username).post("/api/resettlements/", {"round": round_id, "reason": reason}, format="json")


def test_compliance_proposes_and_a_supervisor_approves():
    round_ = wrongly_paid()
    response = propose(round_.round_id)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["round"], body["status"], body["proposed_by"], body["table"]) == (
        round_.round_id,
        "proposed",
        "compliance",
        "DLX1",
    )
    approved = decider("supervisor").post(f"/api/resettlements/{body['id']}/approve", {"comment": "ok"})
    assert approved.status_code == 200, approved.json()
    assert approved.json()["status"] == "approved"
    assert approved.json()["adjustments"][0]["bet"] == "D23-1-W"
    assert approved.json()["adjustments"][0]["amount"] == "5.00"
    listed = client("compliance").get("/api/resettlements/", {"status": "approved", "table": "DLX1"}).json()
    assert [r["id"] for r in listed["results"]] == [body["id"]]
    assert client("compliance").get("/api/resettlements/", {"table": "CLS1"}).json()["count"] == 0


def test_a_supervisor_rejects():
    response = propose(wrongly_paid().round_id)
    rejected = decider("supervisor").post(
        f"/api/resettlements/{response.json()['id']}/reject", {"comment": "no"}
    )
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    assert not Adjustment.objects.exists()


def test_bad_transitions_answer_409_with_a_message():
    round_ = wrongly_paid()
    first = propose(round_.round_id).json()
    again = propose(round_.round_id)
    assert again.status_code == 409 and "already has re-settlement" in again.json()["round"][0]
    supervisor = decider("supervisor")
    assert supervisor.post(f"/api/resettlements/{first['id']}/approve", {"comment": "ok"}).status_code == 200
    twice = supervisor.post(f"/api/resettlements/{first['id']}/reject", {"comment": "no"})
    assert twice.status_code == 409 and "not made twice" in twice.json()["non_field_errors"][0]
    assert Resettlement.objects.get().status == "approved" and Adjustment.objects.count() == 1


def test_approving_your_own_is_403_with_a_message():
    from django.contrib.auth.models import Group

    compliance = demo_user("compliance")
    compliance.groups.add(Group.objects.get(name="Supervisor"))
    proposal = propose(wrongly_paid().round_id).json()
    own = decider("compliance").post(f"/api/resettlements/{proposal['id']}/approve", {"comment": "mine"})
    assert own.status_code == 403 and "You proposed" in own.json()["non_field_errors"][0]
    assert Resettlement.objects.get().status == "proposed"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"round": "NOPE", "reason": "x"}, "round"),
        ({"round": "DLX1-S0412-023-W", "reason": ""}, "reason"),
        ({"round": "DLX1-S0412-023-W"}, "reason"),
        ({"round": "DLX1-S0412-023-W", "reason": "x", "amount": "5"}, "amount"),
    ],
)
def test_bad_input_is_400_naming_the_field(body, field):
    wrongly_paid()
    response = client("compliance").post("/api/resettlements/", body, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not Resettlement.objects.exists()


def test_nothing_to_resettle_is_409():
    from tests.fixtures import round_document
    from tests.rounds.corrections_support import ingest

    round_ = ingest(round_document("deluxe-split-double-play-behind"))
    response = propose(round_.round_id)
    assert response.status_code == 409 and "Nothing to re-settle" in response.json()["round"][0]


@pytest.mark.parametrize(
    "username, list_, propose_, decide",
    [
        (None, 401, 401, 401),
        ("supervisor", 200, 403, 200),
        ("compliance", 200, 201, 403),
        ("customer-service", 403, 403, 403),
        ("game-server", 403, 403, 403),
    ],
)
def test_permissions_per_role(username, list_, propose_, decide):
    round_ = wrongly_paid()
    assert client(username).get("/api/resettlements/").status_code == list_
    assert propose(round_.round_id, username=username).status_code == propose_
    if not Resettlement.objects.exists():
        propose(round_.round_id)
    pk = Resettlement.objects.get().pk
    assert decider(username).post(f"/api/resettlements/{pk}/approve", {"comment": "ok"}).status_code == decide
