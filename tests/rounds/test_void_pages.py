"""The void pages and endpoints: a supervisor proposes from the round page, another approves or
rejects; the approve and reject routes take only a POST with `rounds.decide_void`; the detail page
takes no POST; refusals are shown with their message and change nothing; list, filters, CSV, API."""

import csv
import io

import pytest
from django.test import Client
from rest_framework.test import APIClient

from rounds.models import Adjustment, RoundCorrection, Void, VoidLine
from tests.rounds.corrections_support import (  # noqa: F401
    corrections_urls,
    demo,
    demo_user,
    second_supervisor,
    wrongly_paid,
)
from tests.second_factor_support import deciding_client

pytestmark = pytest.mark.usefixtures("demo")


def browser(username="supervisor") -> Client:
    client = Client()
    client.force_login(demo_user(username))
    return client


def decider(username="supervisor-2", client_class=Client):
    """A client that may decide: signed in as `username` with a code just checked (deciding needs one,
    accounts.second_factor). Each code is accepted once: one such client per user and test."""
    return deciding_client(demo_user(username), client_class)


def propose(client, round_, reason="The shuffler jammed mid-round"):
    return client.post("/rounds/voids/new/", {"round": round_.round_id, "reason": reason, "incident": ""})


def test_the_round_page_offers_the_void_to_supervisors_only():
    round_ = wrongly_paid()
    link = f'href="/rounds/voids/new/?round={round_.round_id}"'
    assert link in browser().get(round_.get_absolute_url()).content.decode()
    for username in ("compliance", "customer-service"):
        assert link not in browser(username).get(round_.get_absolute_url()).content.decode()
    form = browser().get(f"/rounds/voids/new/?round={round_.round_id}")
    assert form.status_code == 200
    html = form.content.decode()
    assert "D23-1-W" in html and "7 bets in all" in html
    assert browser("compliance").get(f"/rounds/voids/new/?round={round_.round_id}").status_code == 403


def test_a_supervisor_proposes_and_another_approves():
    round_ = wrongly_paid()
    response = propose(browser(), round_)
    void = Void.objects.get()
    assert response.status_code == 302 and response.url == f"/rounds/voids/{void.pk}/"
    own = browser().get(response.url).content.decode()
    assert "You proposed this void" in own and "Approve the void" not in own
    other = browser("supervisor-2").get(response.url).content.decode()
    assert "Approve the void" in other and f'action="/rounds/voids/{void.pk}/approve/"' in other
    approved = decider().post(f"/rounds/voids/{void.pk}/approve/", {"comment": "Seen it"})
    assert approved.status_code == 302
    void.refresh_from_db()
    assert (void.status, void.decided_by.username) == ("approved", "supervisor-2")
    assert VoidLine.objects.filter(void=void).count() == round_.bet_count
    assert RoundCorrection.objects.get(round=round_).kind == "voided"
    page = browser("compliance").get(round_.get_absolute_url()).content.decode()
    assert '<span class="badge badge-voided" title="Outcome">Voided</span>' in page
    assert "Propose a void" not in browser().get(round_.get_absolute_url()).content.decode()


def test_the_proposer_cannot_decide_and_the_refusal_is_shown():
    round_ = wrongly_paid()
    propose(browser(), round_)
    void = Void.objects.get()
    proposer = decider("supervisor")  # with a code: the refusal is the proposer's, not the code's
    for step in ("approve", "reject"):
        response = proposer.post(f"/rounds/voids/{void.pk}/{step}/", {"comment": "mine"})
        assert response.status_code == 403
        assert f"You proposed void {void.pk}" in response.content.decode()
    void.refresh_from_db()
    assert void.status == "proposed" and not VoidLine.objects.exists()


def test_deciding_needs_decide_void_and_a_post():
    round_ = wrongly_paid()
    propose(browser(), round_)
    void = Void.objects.get()
    for username in ("compliance", "customer-service", "game-server"):
        response = browser(username).post(f"/rounds/voids/{void.pk}/approve/", {"comment": "x"})
        assert response.status_code == 403, username
    assert browser("supervisor-2").get(f"/rounds/voids/{void.pk}/approve/").status_code == 405
    # The detail page reads; it never takes a decision.
    assert browser("supervisor-2").post(f"/rounds/voids/{void.pk}/", {"comment": "x"}).status_code == 405
    assert browser("compliance").post(f"/rounds/voids/{void.pk}/", {"comment": "x"}).status_code == 405
    void.refresh_from_db()
    assert void.status == "proposed"


def test_rejecting_voids_nothing_and_a_decision_needs_a_comment():
    round_ = wrongly_paid()
    propose(browser(), round_)
    void = Void.objects.get()
    other = decider()
    blank = other.post(f"/rounds/voids/{void.pk}/reject/", {"comment": ""})
    assert blank.status_code == 400 and "Say why" in blank.content.decode()
    rejected = other.post(f"/rounds/voids/{void.pk}/reject/", {"comment": "Not a fault"})
    assert rejected.status_code == 302
    void.refresh_from_db()
    assert void.status == "rejected" and not VoidLine.objects.exists()
    again = other.post(f"/rounds/voids/{void.pk}/approve/", {"comment": "changed mind"})
    assert again.status_code == 409 and "a decision is not made twice" in again.content.decode()


def test_a_resettled_round_is_not_voided_and_the_form_says_why():
    from rounds import services

    round_ = wrongly_paid()
    proposal = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="short"
    )
    services.resettlement_approve(resettlement=proposal, decided_by=demo_user("supervisor"), comment="ok")
    response = propose(browser(), round_)
    assert response.status_code == 200
    assert f"re-settlement {proposal.pk}" in response.content.decode()
    assert not Void.objects.exists() and Adjustment.objects.count() == 1


def test_the_list_filters_and_exports():
    first, second = wrongly_paid("-A"), wrongly_paid("-B")
    propose(browser(), first)
    propose(browser(), second)
    void = Void.objects.get(round=second)
    assert decider().post(f"/rounds/voids/{void.pk}/approve/", {"comment": "ok"}).status_code == 302
    page = browser("compliance").get("/rounds/voids/", {"status": "approved"}).content.decode()
    assert second.round_id in page and first.round_id not in page
    exported = browser("compliance").get("/rounds/voids/", {"_export": "csv"})
    rows = list(csv.DictReader(io.StringIO(exported.getvalue().decode())))
    assert {row["Round"] for row in rows} == {first.round_id, second.round_id}
    assert browser("customer-service").get("/rounds/voids/").status_code == 403


def api(username="supervisor") -> APIClient:
    client = APIClient()
    client.force_authenticate(demo_user(username))
    return client


def test_the_api_proposes_approves_and_refuses_as_the_pages_do():
    round_ = wrongly_paid()
    body = {"round": round_.round_id, "reason": "Shuffler jammed"}
    assert api("compliance").post("/api/voids/", body).status_code == 403
    created = api().post("/api/voids/", body)
    assert created.status_code == 201, created.json()
    void = created.json()
    assert (void["status"], void["proposed_by"], void["lines"]) == ("proposed", "supervisor", [])
    assert api().post("/api/voids/", body).status_code == 409  # one proposal at a time
    own = decider("supervisor", APIClient).post(f"/api/voids/{void['id']}/approve", {"comment": "mine"})
    assert own.status_code == 403 and "You proposed void" in own.json()["non_field_errors"][0]
    assert api("compliance").post(f"/api/voids/{void['id']}/approve", {"comment": "x"}).status_code == 403
    other = decider("supervisor-2", APIClient)
    approved = other.post(f"/api/voids/{void['id']}/approve", {"comment": "seen"})
    assert approved.status_code == 200, approved.json()
    lines = approved.json()["lines"]
    assert len(lines) == round_.bet_count
    d23_1 = next(line for line in lines if line["bet"] == "D23-1-W")
    assert (d23_1["reversed_returned"], d23_1["returned_stake"], d23_1["net"]) == ("85.00", "45.00", "-40.00")
    again = other.post(f"/api/voids/{void['id']}/reject", {"comment": "late"})
    assert again.status_code == 409
    listed = api("compliance").get("/api/voids/", {"status": "approved"}).json()
    assert [v["id"] for v in listed["results"]] == [void["id"]] and "lines" not in listed["results"][0]
    assert api("customer-service").get("/api/voids/").status_code == 403
    bad = api().post("/api/voids/", {"round": "NOPE", "reason": "x"})
    assert bad.status_code == 400 and "round" in bad.json()
