"""The guardrail on rule changes (tables.guardrail): a version that takes a bet kind's maximum RTP below
PITBOSS_RTP_FLOOR_PERCENT, or down by more than a point, is decided by three different people: its
proposer says why, a compliance officer approves, then a supervisor who did neither. The database
refuses fewer; the services check each one's role and turn."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time
from rest_framework.test import APIClient

from accounts.roles import COMPLIANCE, SUPERVISOR
from accounts.services import user_create
from blackjack.odds import METHOD_VERSION
from core.refusals import OwnDecisionRefused, TransitionRefused
from tables.guardrail import approvals_of
from tables.models import ConfigurationOdds, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import (
    configuration_approve,
    configuration_compliance_approve,
    configuration_compliance_reject,
    configuration_explain_fall,
    configuration_propose,
)
from tests.factories import table, user
from tests.second_factor_support import deciding_client, enrolled_if_required

pytestmark = pytest.mark.django_db

PAIR = {"coloured_pair": "10", "perfect_pair": "30", "suited_trips": "50"}
# Pair 97.1154 % -> 93.2600 %: above the floor of 90 %, but down 3.86 points.
PAIR_DOWN_4_POINTS = {"side_options": {"pair": {"paytable": {**PAIR, "mixed_pair": "4"}, "max_round": None}}}
# Pair 97.1154 % -> 40.4819 %: below the floor.
PAIR_BELOW_FLOOR = {"side_options": {"pair": {"paytable": {"mixed_pair": "4", "coloured_pair": "10"}}}}
FEWER_SEATS = {"seats": 5}  # no RTP changes


@pytest.fixture
def dlx():
    with freeze_time(timezone.now() - timedelta(days=1)):
        created = table("DLX1")
    configuration_odds_compute(configuration=created.configurations.get())
    return created


@pytest.fixture
def ana():
    return user("supervisor", "ana")


@pytest.fixture
def ben():
    return user("supervisor", "ben")


@pytest.fixture
def clara():
    return user("compliance", "clara")


def proposed(dlx, by, changes=PAIR_BELOW_FLOOR, **kwargs) -> TableConfiguration:
    proposal = configuration_propose(
        table=dlx, changes=changes, proposed_by=by, reason="quiet hours", **kwargs
    )
    configuration_odds_compute(configuration=proposal)
    return proposal


# --- what crosses it ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "crosses"),
    [(PAIR_BELOW_FLOOR, True), (PAIR_DOWN_4_POINTS, True), (FEWER_SEATS, False)],
    ids=["below the floor", "down 3.86 points", "no RTP change"],
)
def test_a_kind_below_the_floor_or_down_more_than_a_point_crosses_it(dlx, ana, changes, crosses):
    approvals = approvals_of(proposed(dlx, ana, changes))
    assert approvals.needs_compliance is crosses
    assert [line.key for line in approvals.crossings] == (["pair"] if crosses else [])
    expected = ["reason", "compliance", "supervisor"] if crosses else ["supervisor"]
    assert list(approvals.still_needed) == expected


def test_the_automatic_play_figure_is_warned_of_but_never_gates(dlx, ana):
    proposal = configuration_propose(table=dlx, changes={"auto_play": "stand"}, proposed_by=ana, reason="r")
    figures = dict(ConfigurationOdds.objects.get(configuration__version=1).figures)
    ConfigurationOdds.objects.create(
        configuration=proposal,
        rules_sha256="0" * 64,
        figures=figures | {"auto_play": "85.0000"},  # 6.98 points below version 1's 91.9761
        seconds=0,
        method=METHOD_VERSION,
    )
    approvals = approvals_of(proposal)
    assert not approvals.needs_compliance and approvals.still_needed == ("supervisor",)
    page = staff("ben").get(reverse("tables:configuration_proposal", args=["DLX1"])).content.decode()
    assert "Main, automatic play: the RTP falls 6.9761 percentage points" in page
    configuration_approve(configuration=proposal, decided_by=user("supervisor", "ben"))


def test_the_floor_is_the_settings(dlx, ana, settings):
    settings.PITBOSS_RTP_FLOOR_PERCENT = Decimal("97.5")  # the Pair's 97.1154 %, insurance's 92.5301 %
    approvals = approvals_of(proposed(dlx, ana, FEWER_SEATS))
    assert [line.key for line in approvals.crossings] == ["insurance", "pair"]


# --- the services -------------------------------------------------------------------------------------


def test_three_people_put_it_in_force_in_turn(dlx, ana, ben, clara):
    proposal = proposed(dlx, ana)
    with pytest.raises(TransitionRefused, match="a compliance officer approves it first"):
        configuration_approve(configuration=proposal, decided_by=ben)
    with pytest.raises(TransitionRefused, match="has not said why the RTP falls"):
        configuration_compliance_approve(configuration=proposal, decided_by=clara)
    with pytest.raises(PermissionDenied):
        configuration_explain_fall(configuration=proposal, proposer=ben, reason="not mine to say")
    configuration_explain_fall(configuration=proposal, proposer=ana, reason="A cheaper Pair for quiet hours")
    with pytest.raises(PermissionDenied):  # a supervisor is not compliance
        configuration_compliance_approve(configuration=proposal, decided_by=ben)
    configuration_compliance_approve(configuration=proposal, decided_by=clara, comment="Read the reason")
    with pytest.raises(TransitionRefused, match="stays"):
        configuration_explain_fall(configuration=proposal, proposer=ana, reason="another story")
    with pytest.raises(TransitionRefused, match="already"):
        configuration_compliance_approve(configuration=proposal, decided_by=user("compliance", "dora"))
    approved = configuration_approve(configuration=proposal, decided_by=ben, comment="In force")
    approved.refresh_from_db()
    assert approved.status == "approved" and approved.needs_compliance
    assert (approved.created_by, approved.compliance_approved_by, approved.decided_by) == (ana, clara, ben)
    assert approved.rtp_fall_reason == "A cheaper Pair for quiet hours"
    assert approved.compliance_comment == "Read the reason"


def test_nobody_fills_two_of_the_three_places(dlx, ana, ben):
    both = enrolled_if_required(user_create(username="bo", password="pw-bo-both", role=SUPERVISOR))
    both.groups.add(*type(both.groups.first()).objects.filter(name=COMPLIANCE))
    both = type(both).objects.get(pk=both.pk)  # permissions read afresh
    own = proposed(dlx, both)
    configuration_explain_fall(configuration=own, proposer=both, reason="why")
    with pytest.raises(OwnDecisionRefused):
        configuration_compliance_approve(configuration=own, decided_by=both)
    configuration_compliance_reject(configuration=own, decided_by=user("compliance"), comment="No")
    other = proposed(dlx, ana)
    configuration_explain_fall(configuration=other, proposer=ana, reason="why")
    configuration_compliance_approve(configuration=other, decided_by=both)
    with pytest.raises(OwnDecisionRefused, match="approved this version for compliance"):
        configuration_approve(configuration=other, decided_by=both)
    assert configuration_approve(configuration=other, decided_by=ben).status == "approved"


def test_compliance_rejects_it_with_a_reason_and_cannot_decide_a_change_within_the_guardrail(dlx, ana, clara):
    proposal = proposed(dlx, ana)
    with pytest.raises(ValidationError, match="Say why"):
        configuration_compliance_reject(configuration=proposal, decided_by=clara, comment=" ")
    rejected = configuration_compliance_reject(configuration=proposal, decided_by=clara, comment="Too low")
    assert (rejected.status, rejected.decided_by, rejected.compliance_approved_by) == (
        "rejected",
        clara,
        None,
    )
    mild = proposed(dlx, ana, FEWER_SEATS)
    with pytest.raises(TransitionRefused, match="does not cross the guardrail"):
        configuration_compliance_approve(configuration=mild, decided_by=clara)
    with pytest.raises(PermissionDenied):  # nor does compliance approve it as a supervisor
        configuration_approve(configuration=mild, decided_by=clara)


# --- the database -------------------------------------------------------------------------------------


def approved_past_the_guardrail(dlx, ana, ben, clara) -> TableConfiguration:
    proposal = proposed(dlx, ana)
    configuration_explain_fall(configuration=proposal, proposer=ana, reason="why")
    configuration_compliance_approve(configuration=proposal, decided_by=clara)
    return configuration_approve(configuration=proposal, decided_by=ben)


@pytest.mark.parametrize(
    "change",
    [
        {"compliance_approved_by": None},
        {"rtp_fall_reason": ""},
        {"compliance_approved_by": "ana"},  # the proposer
        {"compliance_approved_by": "ben"},  # the supervisor who approved it
        {"needs_compliance": False, "decided_by": "clara"},  # then compliance approved for nothing
    ],
    ids=["no compliance", "no reason", "compliance is the proposer", "compliance is the approver", "two"],
)
def test_the_database_refuses_fewer_than_three_people(dlx, ana, ben, clara, change):
    approved = approved_past_the_guardrail(dlx, ana, ben, clara)
    people = {"ana": ana, "ben": ben, "clara": clara}
    fields = {name: people.get(value, value) for name, value in change.items()}
    with pytest.raises(IntegrityError), transaction.atomic():
        TableConfiguration.objects.filter(pk=approved.pk).update(**fields)


# --- the page and the API -----------------------------------------------------------------------------


def staff(username: str, role: str = SUPERVISOR):
    from django.test import Client

    client = Client()
    client.force_login(user(role.lower(), username))
    return client


def test_the_page_says_what_it_still_needs_and_gives_each_person_their_form(dlx, ana):
    proposed(dlx, ana, PAIR_DOWN_4_POINTS)
    url = reverse("tables:configuration_proposal", args=["DLX1"])
    proposer = staff("ana").get(url).content.decode()
    assert "Approvals it still needs" in proposer and 'id="fall-reason"' in proposer
    assert "Pair (97.1154 % → 93.2600 %)" in proposer
    supervisor = staff("ben").get(url).content.decode()
    assert 'id="awaiting-compliance"' in supervisor and "Approve version 2" not in supervisor
    assert 'id="fall-reason"' not in supervisor and 'id="compliance-decision"' not in supervisor
    compliance = staff("clara", COMPLIANCE).get(url).content.decode()
    assert 'id="compliance-decision"' in compliance and "disabled" in compliance  # no reason yet
    refused = staff("ben").post(
        reverse("tables:configuration_compliance_approve", args=["DLX1"]), {"version": 2}
    )
    assert refused.status_code == 403
    explained = staff("ana").post(
        reverse("tables:configuration_fall_reason", args=["DLX1"]), {"rtp_fall_reason": ""}
    )
    assert explained.status_code == 400 and "This field is required." in explained.content.decode()
    assert TableConfiguration.objects.get(version=2).rtp_fall_reason == ""


def test_the_compliance_queue_lists_proposals_past_the_guardrail(dlx, ana):
    proposed(dlx, ana)
    home = staff("clara", COMPLIANCE).get(reverse("home")).content.decode()
    assert "Past the RTP guardrail" in home and "DLX1 · version 2" in home and "Pair 40.4819 %" in home
    assert "Past the RTP guardrail" not in staff("ben").get(reverse("home")).content.decode()


def test_the_api_names_the_approvals_still_needed_and_takes_each(dlx, ana, ben, clara):
    proposal = proposed(dlx, ana)
    as_ana = APIClient()  # the proposer says why: no decision, no code
    as_ana.force_authenticate(ana)
    as_ben, as_clara = deciding_client(ben, APIClient), deciding_client(clara, APIClient)
    body = as_ben.get(reverse("api:tableconfiguration-detail", args=[proposal.pk])).json()
    assert body["approvals"]["still_needed"] == ["reason", "compliance", "supervisor"]
    assert body["approvals"]["crosses_guardrail"] is True
    assert [line["kind"] for line in body["approvals"]["crossings"]] == ["pair"]

    def post(client, step, **data):
        return client.post(reverse(f"api:tableconfiguration-{step}", args=[proposal.pk]), data, format="json")

    assert post(as_ben, "approve").status_code == 409
    assert post(as_ben, "compliance-approve").status_code == 403
    assert post(as_clara, "compliance-approve").status_code == 409  # no reason yet
    bad = post(as_ana, "fall-reason", rtp_fall_reason="")
    assert bad.status_code == 400 and "rtp_fall_reason" in bad.json()
    answer = post(as_ana, "fall-reason", rtp_fall_reason="quiet hours")
    assert answer.status_code == 200 and answer.json()["approvals"]["still_needed"] == [
        "compliance",
        "supervisor",
    ]
    cleared = post(as_clara, "compliance-approve", comment="ok")
    assert cleared.status_code == 200 and cleared.json()["compliance_approved_by"] == "clara"
    approved = post(as_ben, "approve")
    assert approved.status_code == 200, approved.json()
    assert approved.json()["status"] == "approved" and approved.json()["approvals"] is None
    assert approved.json()["needs_compliance"] is True
