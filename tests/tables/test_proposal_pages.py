"""The proposal page: what a proposed version changes, rule by rule, the RTP of every bet kind before
and after with its warnings, and the approve and reject forms for a second supervisor."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from tables.models import TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import configuration_propose
from tests.factories import table, user
from tests.second_factor_support import deciding_client

pytestmark = pytest.mark.django_db

LOWER_PAIR = {
    "side_options": {"pair": {"paytable": {"mixed_pair": "4", "coloured_pair": "10"}, "max_round": 30}}
}

FEWER_SEATS = {"seats": 5}


@pytest.fixture
def dlx():
    with freeze_time(timezone.now() - timedelta(days=1)):
        created = table("DLX1")
    return created


def client_of(username: str, role: str = "supervisor", *, deciding: bool = False) -> Client:
    """Signed in as `username`; `deciding`: with a code just checked, as approving or rejecting needs."""
    if deciding:
        return deciding_client(user(role, username))
    client = Client()
    client.force_login(user(role, username))
    return client


def propose(dlx, changes=LOWER_PAIR, by="ana", **kwargs):
    return configuration_propose(
        table=dlx,
        changes=changes,
        proposed_by=user("supervisor", by),
        reason="Pair for the quiet hours",
        **kwargs,
    )


def page(client, **query) -> str:
    response = client.get(reverse("tables:configuration_proposal", args=["DLX1"]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_each_rule_that_changes_and_computing_until_the_odds_are_known(dlx):
    propose(dlx)
    html = page(client_of("ben"))
    assert "version 2" in html and "Proposed" in html and "Pair for the quiet hours" in html
    assert "Pair: mixed pair" in html and "5:1" in html and "4:1" in html
    assert "Pair: perfect pair" in html and "does not pay" in html  # a line left out
    assert "Pair: suited trips" in html
    assert "Pair: max round" in html and "no limit" in html and "30" in html
    assert html.count("computing…") >= 5  # every kind of both versions: no figures yet
    assert "Its odds are still being computed" in html


def test_it_shows_the_rtp_before_and_after_and_warns_of_a_fall(dlx):
    proposal = propose(dlx)
    configuration_odds_compute(configuration=TableConfiguration.objects.get(version=1))
    configuration_odds_compute(configuration=proposal)
    html = page(client_of("ben"))
    assert "computing…" not in html
    before = TableConfiguration.objects.get(version=1).odds.rtp("pair")
    after = proposal.odds.rtp("pair")
    assert before == Decimal("97.1154") and after < before - 1
    assert f"{before} %" in html and f"{after} %" in html
    assert f"Pair: the RTP falls {before - after} percentage points" in html
    assert "99.5169 %" in html  # the main game, the same before and after
    assert "Main: the RTP falls" not in html


def test_it_warns_of_an_rtp_below_the_floor(dlx, settings):
    settings.PITBOSS_RTP_FLOOR_PERCENT = Decimal("99")
    richer = {
        "side_options": {
            "pair": {"paytable": {"mixed_pair": "5", "coloured_pair": "11", "perfect_pair": "30"}}
        }
    }
    proposal = propose(dlx, richer)
    configuration_odds_compute(configuration=TableConfiguration.objects.get(version=1))
    configuration_odds_compute(configuration=proposal)
    html = page(client_of("ben"))
    after = proposal.odds.rtp("pair")
    assert Decimal("97.1154") < after < Decimal("99")
    assert f"Pair: the RTP would be {after} %, below the floor of 99 %." in html
    assert "Insurance: the RTP would be 92.5301 %, below the floor" in html
    assert "Main: the RTP would be" not in html  # 99.5169 %
    assert ": the RTP falls" not in html  # a rise, and the other kinds unchanged


def test_a_second_supervisor_approves_it_on_the_page(dlx):
    proposal = propose(dlx, FEWER_SEATS)  # no RTP changes: two supervisors decide
    configuration_odds_compute(configuration=proposal)
    ben = client_of("ben", deciding=True)
    assert "Approve version 2" in page(ben)
    response = ben.post(
        reverse("tables:configuration_approve", args=["DLX1"]), {"version": 2, "comment": "Sheet checked"}
    )
    assert response.status_code == 302
    proposal.refresh_from_db()
    assert (proposal.status, proposal.decided_by.username, proposal.decision_comment) == (
        "approved",
        "ben",
        "Sheet checked",
    )
    html = page(ben, version=2)
    assert "Approved" in html and "Sheet checked" in html and "Approve version 2" not in html


def test_the_proposer_and_compliance_get_no_decision_form(dlx):
    propose(dlx)
    assert "Approve version 2" not in page(client_of("ana"))
    assert "another supervisor approves or rejects it" in page(client_of("ana"))
    assert "Approve version 2" not in page(client_of("clara", "compliance"))
    refused = client_of("ana", deciding=True).post(
        reverse("tables:configuration_approve", args=["DLX1"]), {"version": 2}
    )
    assert refused.status_code == 403 and "another supervisor" in refused.content.decode()
    assert TableConfiguration.objects.get(version=2).status == "proposed"


def test_approving_before_the_odds_is_refused_with_a_message(dlx):
    propose(dlx)
    response = client_of("ben", deciding=True).post(
        reverse("tables:configuration_approve", args=["DLX1"]), {"version": 2}
    )
    assert response.status_code == 409
    assert "still being computed" in response.content.decode()
    assert TableConfiguration.objects.get(version=2).status == "proposed"


def test_a_rejection_needs_a_comment_and_is_shown(dlx):
    propose(dlx)
    ben = client_of("ben", deciding=True)
    url = reverse("tables:configuration_reject", args=["DLX1"])
    assert ben.post(url, {"version": 2, "comment": ""}).status_code == 400
    assert ben.post(url, {"version": 2, "comment": "Not during the tournament"}).status_code == 302
    detail = ben.get(reverse("tables:table_detail", args=["DLX1"])).content.decode()
    assert "rejected" in detail and "Not during the tournament" in detail
    assert "awaits a decision" not in detail


def test_the_table_page_and_the_form_point_to_the_open_proposal(dlx):
    propose(dlx)
    ben = client_of("ben")
    detail = ben.get(reverse("tables:table_detail", args=["DLX1"])).content.decode()
    assert "Version 2, proposed by ana" in detail and "awaits a decision" in detail
    assert reverse("tables:configuration_proposal", args=["DLX1"]) in detail
    form = ben.get(reverse("tables:configuration_change", args=["DLX1"])).content.decode()
    assert "awaits a decision" in form and "Propose version" not in form


def test_a_stale_form_after_an_approval_is_refused_and_shows_why(dlx):
    ana, ben, carl = client_of("ana"), client_of("ben", deciding=True), client_of("carl")
    url = reverse("tables:configuration_change", args=["DLX1"])
    from tests.tables.test_pages import configuration_form

    stale = configuration_form(carl, "DLX1", seats="6", reason="Fewer seats")  # opened before any change
    assert (
        ana.post(url, configuration_form(ana, "DLX1", pair__mixed_pair="6", reason="Richer")).status_code
        == 302
    )
    configuration_odds_compute(configuration=TableConfiguration.objects.get(version=2))
    ben.post(reverse("tables:configuration_approve", args=["DLX1"]), {"version": 2})
    assert TableConfiguration.objects.get(version=2).status == "approved"

    response = carl.post(url, stale)
    assert response.status_code == 200
    assert "Version 2 of DLX1 was approved by ben since you opened this form" in response.content.decode()
    assert TableConfiguration.objects.count() == 2
    fresh = configuration_form(carl, "DLX1", seats="6", reason="Fewer seats")
    assert carl.post(url, fresh).status_code == 302
    third = TableConfiguration.objects.get(version=3)
    assert third.rules["seats"] == 6 and third.rules["side_options"]["pair"]["paytable"]["mixed_pair"] == "6"


def test_an_empty_start_means_at_approval_and_a_past_one_is_refused_on_the_form(dlx):
    from tests.tables.test_pages import configuration_form

    ana = client_of("ana")
    url = reverse("tables:configuration_change", args=["DLX1"])
    past = (timezone.now() - timedelta(minutes=2)).strftime("%Y-%m-%dT%H:%M")
    response = ana.post(url, configuration_form(ana, "DLX1", seats="6", valid_from=past, reason="x"))
    assert "cannot start in the past" in response.content.decode()
    ana.post(url, configuration_form(ana, "DLX1", seats="6", reason="x"))
    assert TableConfiguration.objects.get(version=2).requested_from is None
