"""The 15-minute rule (issue 53): approving or rejecting a re-settlement, a void or a configuration
change, and signing a report off, need a code checked within PITBOSS_CODE_FRESH_MINUTES. A page asks
for one and comes back; the API takes it in the Pitboss-Code header."""

from datetime import date, time, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from freezegun import freeze_time
from rest_framework.test import APIClient

from accounts.services import token_create
from reports.models import ReportRun, RunTrigger
from rounds.models import Void
from tests import factories
from tests.rounds.corrections_support import demo, demo_user, wrongly_paid  # noqa: F401
from tests.second_factor_support import CODE_AGAIN, code_checked, code_of, signed_in_with_code

pytestmark = pytest.mark.django_db
NONE = 999_999  # no such proposal: once the code is given, the endpoint answers 404

# Every page and endpoint that decides, with a role that may.
DECISION_PAGES = [
    (f"/rounds/resettlements/{NONE}/approve/", "supervisor"),
    (f"/rounds/resettlements/{NONE}/reject/", "supervisor"),
    (f"/rounds/voids/{NONE}/approve/", "supervisor"),
    (f"/rounds/voids/{NONE}/reject/", "supervisor"),
    ("/tables/DLX1/proposal/approve/", "supervisor"),
    ("/tables/DLX1/proposal/reject/", "supervisor"),
    ("/tables/DLX1/proposal/compliance-approve/", "compliance"),
    ("/tables/DLX1/proposal/compliance-reject/", "compliance"),
    ("/reports/runs/{run}/sign/", "compliance"),
]
DECISION_ENDPOINTS = [
    (f"/api/resettlements/{NONE}/approve", "supervisor"),
    (f"/api/resettlements/{NONE}/reject", "supervisor"),
    (f"/api/voids/{NONE}/approve", "supervisor"),
    (f"/api/voids/{NONE}/reject", "supervisor"),
    (f"/api/table-configurations/{NONE}/approve", "supervisor"),
    (f"/api/table-configurations/{NONE}/reject", "supervisor"),
    (f"/api/table-configurations/{NONE}/compliance-approve", "compliance"),
    (f"/api/table-configurations/{NONE}/compliance-reject", "compliance"),
    (f"/api/reports/runs/{NONE}/sign/", "compliance"),
]


def asked_for_a_code(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(CODE_AGAIN)


@pytest.fixture
def run():
    """A table with no proposal open, and a report run still running: the decisions are refused
    once the code is given, but only then."""
    factories.table("DLX1")
    return ReportRun.objects.create(
        day=date(2026, 3, 1), number=1, trigger=RunTrigger.PORTAL, time_zone="Europe/Malta", cutoff=time(6)
    )


def signed_in(role: str) -> tuple[Client, object]:
    """Signed in (force_login: no code given in this session)."""
    member = factories.user(role)
    client = Client()
    client.force_login(member)
    return client, member


@pytest.mark.parametrize(("url", "role"), DECISION_PAGES)
def test_each_decision_page_asks_for_a_code_then_comes_back(url, role, run):
    url = url.format(run=run.pk)
    client, member = signed_in(role)
    asked = client.post(url, {"comment": "ok", "version": 1})
    assert asked_for_a_code(asked)
    page_decided_on = parse_qs(urlsplit(asked["Location"]).query)["next"][0]
    assert page_decided_on == url.rsplit("/", 2)[0] + "/"  # the proposal's, the table's or the run's page
    page = client.get(asked["Location"])
    assert page.status_code == 200 and "Deciding needs a code" in page.content.decode()
    back = client.post(asked["Location"], {"code": code_of(member)})
    assert back.status_code == 302 and back["Location"] == page_decided_on
    assert not asked_for_a_code(client.post(url, {"comment": "ok", "version": 1}))


@pytest.mark.parametrize(("url", "role"), DECISION_ENDPOINTS)
def test_each_decision_endpoint_takes_the_code_in_a_header(url, role):
    member = factories.user(role)
    _, key = token_create(user=member)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    without = api.post(url, {"comment": "ok"}, format="json")
    assert without.status_code == 403 and "Pitboss-Code header" in without.json()["detail"]
    used = {code_of(member, steps) for steps in (-1, 0, 1)}
    wrong = next(code for code in ("000000", "111111", "222222") if code not in used)
    refused = api.post(url, {"comment": "ok"}, format="json", HTTP_PITBOSS_CODE=wrong)
    assert refused.status_code == 403 and "wrong or was used already" in refused.json()["detail"]
    # One code, given twice: worked out twice, the two could fall either side of a 30 s period.
    code = code_of(member)
    right = api.post(url, {"comment": "ok"}, format="json", HTTP_PITBOSS_CODE=code)
    assert right.status_code == 404  # past the code: no such proposal
    again = api.post(url, {"comment": "ok"}, format="json", HTTP_PITBOSS_CODE=code)
    assert again.status_code == 403 and "wrong or was used already" in again.json()["detail"]  # once only


@pytest.mark.parametrize(("url", "role"), DECISION_ENDPOINTS)
def test_a_session_with_a_fresh_code_decides_through_the_api_without_the_header(url, role):
    member = factories.user(role)
    api = APIClient()
    api.force_login(member)
    assert api.post(url, {"comment": "ok"}, format="json").status_code == 403
    code_checked(api, member)
    assert api.post(url, {"comment": "ok"}, format="json").status_code == 404


def test_a_code_at_sign_in_lasts_15_minutes_then_the_page_asks_again():
    member = factories.user("supervisor")
    url = DECISION_PAGES[2][0]
    with freeze_time("2026-03-02 10:00:00") as clock:
        client = Client()
        assert signed_in_with_code(client, member)["Location"] == "/"
        clock.tick(timedelta(minutes=14, seconds=59))
        assert client.post(url, {"comment": "ok"}).status_code == 404
        clock.tick(timedelta(seconds=2))
        asked = client.post(url, {"comment": "ok"})
        assert asked_for_a_code(asked)


def test_the_minutes_are_a_setting(settings):
    settings.PITBOSS_CODE_FRESH_MINUTES = 5
    member = factories.user("supervisor")
    url = DECISION_PAGES[2][0]
    with freeze_time("2026-03-02 10:00:00") as clock:
        client = Client()
        signed_in_with_code(client, member)
        clock.tick(timedelta(minutes=5, seconds=1))
        assert asked_for_a_code(client.post(url, {"comment": "ok"}))


@pytest.mark.usefixtures("demo")
def test_a_void_approved_after_the_code_is_asked_for_and_given():
    """The whole way: proposed by one supervisor; the other, whose sign-in code is 20 minutes old, is
    asked for a code, gives it, comes back to the void's page and approves."""
    round_ = wrongly_paid()
    proposer = Client()
    proposer.force_login(demo_user("supervisor"))  # proposing needs no code
    proposer.post(
        "/rounds/voids/new/", {"round": round_.round_id, "reason": "Shuffler jammed", "incident": ""}
    )
    void = Void.objects.get()
    approver = demo_user("supervisor-2")
    with freeze_time() as clock:
        client = Client()
        signed_in_with_code(client, approver, password="supervisor-2-demo")
        clock.tick(timedelta(minutes=20))
        url = f"/rounds/voids/{void.pk}/approve/"
        asked = client.post(url, {"comment": "Seen it"})
        assert asked["Location"].startswith(CODE_AGAIN)
        void.refresh_from_db()
        assert void.status == "proposed"  # nothing decided without the code
        clock.tick(timedelta(seconds=31))  # a code of the next period: the sign-in's was used
        back = client.post(asked["Location"], {"code": code_of(approver)})
        assert back["Location"] == f"/rounds/voids/{void.pk}/"
        page = client.get(back["Location"]).content.decode()
        assert "Approve the void" in page
        assert client.post(url, {"comment": "Seen it"}).status_code == 302
    void.refresh_from_db()
    assert (void.status, void.decided_by.username) == ("approved", "supervisor-2")
