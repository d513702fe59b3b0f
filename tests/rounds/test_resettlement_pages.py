"""Re-settlement pages: propose from the round page's corrections, decide on the re-settlement
page, list with filters and CSV, refusals shown on the page, permissions per role."""

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from rounds.correction_policy import round_corrections
from rounds.models import Adjustment, Resettlement
from tests.rounds.corrections_support import corrections_urls, demo, demo_user, wrongly_paid  # noqa: F401
from tests.second_factor_support import deciding_client

pytestmark = pytest.mark.usefixtures("demo")


def browser(username="compliance"):
    client = Client()
    if username:
        client.force_login(demo_user(username))
    return client


def decider(username):
    """A browser that may decide: signed in as `username` with a code just checked (deciding needs
    one, accounts.second_factor.FreshCodeRequiredMixin). Each code is accepted once: one per test."""
    return deciding_client(demo_user(username))


def corrections(round_, username):
    request = RequestFactory().get("/")
    request.user = demo_user(username)
    from django.contrib.auth.context_processors import PermWrapper

    return render_to_string(
        "rounds/includes/round_corrections.html",
        {
            "round": round_,
            "corrections": round_corrections(round_),
            "request": request,
            "user": request.user,
            "perms": PermWrapper(request.user),
        },
        request=request,
    )


def test_compliance_proposes_and_a_supervisor_approves():
    round_ = wrongly_paid()
    partial = corrections(round_, "compliance")
    assert "Propose a re-settlement" in partial and "D23-1-W" in partial
    assert "Propose a re-settlement" not in corrections(round_, "supervisor")
    response = browser().post(
        "/rounds/resettlements/new/", {"round": round_.round_id, "reason": "D23-1 short"}
    )
    resettlement = Resettlement.objects.get()
    assert response.status_code == 302 and response.url == f"/rounds/resettlements/{resettlement.pk}/"
    own = browser().get(response.url).content.decode()
    assert "Approve" not in own
    partial = corrections(round_, "supervisor")
    assert "Approve" in partial and "Propose a re-settlement" not in corrections(round_, "compliance")
    page = browser("supervisor").get(response.url).content.decode()
    assert "Approve" in page and "5.00" in page
    decided = decider("supervisor").post(
        f"/rounds/resettlements/{resettlement.pk}/approve/", {"comment": "Checked"}, follow=True
    )
    assert "1 adjustment(s) recorded" in decided.content.decode()
    assert list(Adjustment.objects.values_list("bet__bet_id", "amount")) == [("D23-1-W", 5)]
    partial = corrections(round_, "compliance")
    assert "Approved" in partial and "5.00" in partial and "Checked" in partial


def test_a_supervisor_rejects_from_the_page():
    round_ = wrongly_paid()
    browser().post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": "D23-1 short"})
    pk = Resettlement.objects.get().pk
    decider("supervisor").post(f"/rounds/resettlements/{pk}/reject/", {"comment": "Server was right"})
    assert Resettlement.objects.get().status == "rejected" and not Adjustment.objects.exists()


def test_refusals_are_shown_and_change_nothing():
    from django.contrib.auth.models import Group

    round_ = wrongly_paid()
    # Both hats before signing in: a role change signs the user out (accounts.session_end).
    demo_user("compliance").groups.add(Group.objects.get(name="Supervisor"))
    client = decider("compliance")  # a code checked: the refusal is the service's, not the code's
    blank = client.post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": ""})
    assert blank.status_code == 200 and "Say why" in blank.content.decode()
    client.post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": "short"})
    again = client.post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": "short"})
    assert "already has re-settlement" in again.content.decode()
    pk = Resettlement.objects.get().pk
    own = client.post(f"/rounds/resettlements/{pk}/approve/", {"comment": "mine"})
    assert own.status_code == 403 and "You proposed re-settlement" in own.content.decode()
    assert Resettlement.objects.get().status == "proposed" and not Adjustment.objects.exists()


def test_a_refused_decision_answers_with_its_status_as_a_void_does():
    """Found reading the two decision views side by side: a void's refused decision answers 400, 403
    or 409 with the page, a re-settlement's answered 200 whatever was refused."""
    round_ = wrongly_paid()
    browser().post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": "short"})
    pk = Resettlement.objects.get().pk
    supervisor = decider("supervisor")
    blank = supervisor.post(f"/rounds/resettlements/{pk}/reject/", {"comment": ""})
    assert blank.status_code == 400 and "Say why" in blank.content.decode()
    assert supervisor.post(f"/rounds/resettlements/{pk}/reject/", {"comment": "No"}).status_code == 302
    again = supervisor.post(f"/rounds/resettlements/{pk}/approve/", {"comment": "changed mind"})
    assert again.status_code == 409 and "a decision is not made twice" in again.content.decode()
    assert Resettlement.objects.get().status == "rejected" and not Adjustment.objects.exists()


def test_the_list_filters_and_exports():
    round_ = wrongly_paid()
    browser().post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": "short"})
    page = browser().get("/rounds/resettlements/", {"status": "proposed"}).content.decode()
    assert round_.round_id in page
    assert (
        round_.round_id
        not in browser().get("/rounds/resettlements/", {"status": "approved"}).content.decode()
    )
    csv = browser().get("/rounds/resettlements/", {"_export": "csv", "table": "DLX1"}).getvalue().decode()
    assert len(csv.strip().splitlines()) == 2 and round_.round_id in csv


@pytest.mark.parametrize(
    "username, read, propose, decide",
    [
        ("supervisor", 200, 403, 302),
        ("compliance", 200, 302, 403),
        ("customer-service", 403, 403, 403),
        ("game-server", 403, 403, 403),
    ],
)
def test_permissions_per_role(username, read, propose, decide):
    round_ = wrongly_paid()
    client = decider(username)
    assert client.get("/rounds/resettlements/").status_code == read
    response = client.post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": "short"})
    assert response.status_code == propose
    if not Resettlement.objects.exists():
        browser().post("/rounds/resettlements/new/", {"round": round_.round_id, "reason": "short"})
    pk = Resettlement.objects.get().pk
    assert client.get(f"/rounds/resettlements/{pk}/").status_code == read
    assert client.post(f"/rounds/resettlements/{pk}/approve/", {"comment": "ok"}).status_code == decide
    # A 302 is the decision made, not a detour to give a code.
    assert Resettlement.objects.get().status == ("approved" if decide == 302 else "proposed")
