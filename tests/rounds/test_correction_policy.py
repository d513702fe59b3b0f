"""One rule decides whether a void or a re-settlement may be proposed for a round, and why not
(rounds.correction_policy). For each case a round can be in, the rule's answer is the expected one,
and the service (refusing under the round's lock), the round page (its form or link, or the reason),
the proposal's form page (the reason above the form) and the API (201, or 409 with the reason) give
that same answer and the same reason, word for word. The round page reads a round's corrections
once; rendering them reads nothing."""

import html
import re

import pytest
from django.contrib.auth.context_processors import PermWrapper
from django.db import transaction
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from rounds import services
from rounds.correction_policy import resettlement_refusal, round_corrections, void_refusal
from rounds.models import Bet, Incident, Refund, Round, RoundCorrection
from rounds.outcome import outcome_expression
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    classic_completed_blackjack,
    corrections_urls,
    demo,
    demo_user,
    ingest,
    renamed,
    second_supervisor,
    wrongly_paid,
)

pytestmark = pytest.mark.usefixtures("demo")

VOID, RESETTLEMENT = "void", "re-settlement"
PROPOSER = {VOID: "supervisor", RESETTLEMENT: "compliance"}


def completed() -> Round:
    return ingest(renamed(round_document("deluxe-split-double-play-behind"), "-K"))


def uncomputed_only() -> Round:
    round_ = completed()
    Bet.objects.filter(bet_id="D23-2-K").update(computed_returned=None)
    return round_


def cancelled_by_server() -> Round:
    return ingest(renamed(round_document("classic-network-failure-refunds"), "-S"))


def cancelled_in_incident() -> Round:
    round_ = cancelled_by_server()
    services.incident_cancel_round(
        incident=Incident.objects.get(round=round_),
        round_=round_,
        cancelled_by=demo_user("supervisor"),
        reason="Network failure",
    )
    return round_


def refunded_before_voids() -> Round:
    """A completed round refunded in an incident, as a supervisor could before voids existed."""
    supervisor = demo_user("supervisor")
    round_ = completed()
    incident = services.incident_open(
        table=round_.table, kind="malfunction", opened_by=supervisor, note="Shuffler jammed", round_=round_
    )
    Refund.objects.bulk_create(
        Refund(incident=incident, bet=bet, gaming_day=bet.gaming_day, amount=bet.wagered)
        for bet in Bet.objects.filter(round=round_)
    )
    RoundCorrection.objects.create(round=round_, kind="cancelled", incident=incident, recorded_by=supervisor)
    return round_


def void_proposed() -> Round:
    round_ = wrongly_paid()
    services.void_propose(round_=round_, proposed_by=second_supervisor(), reason="Shuffler jammed")
    return round_


def voided() -> Round:
    round_ = wrongly_paid()
    void = services.void_propose(round_=round_, proposed_by=second_supervisor(), reason="Shuffler jammed")
    services.void_approve(void=void, decided_by=demo_user("supervisor"), comment="Seen on the video")
    return round_


def resettlement_proposed() -> Round:
    round_ = wrongly_paid()
    services.resettlement_propose(round_=round_, proposed_by=demo_user("compliance"), reason="D23-1 short")
    return round_


def resettled() -> Round:
    round_ = resettlement_proposed()
    services.resettlement_approve(
        resettlement=round_.resettlements.get(), decided_by=demo_user("supervisor"), comment="Checked"
    )
    return round_


def resettlement_rejected() -> Round:
    round_ = resettlement_proposed()
    services.resettlement_reject(
        resettlement=round_.resettlements.get(), decided_by=demo_user("supervisor"), comment="Not short"
    )
    return round_


def first_void(round_):
    return round_.voids.get().pk


def first_resettlement(round_):
    return round_.resettlements.get().pk


# Each case: how to make its round; what the rule answers for a void and for a re-settlement, a
# function of the round (None: it may be proposed).
CASES = {
    "completed, paid as computed": (
        completed,
        lambda r: None,
        lambda r: f"Nothing to re-settle: every bet of round {r.round_id} was paid what the engine computes.",
    ),
    "paid other than computed": (wrongly_paid, lambda r: None, lambda r: None),
    "a bet the engine cannot compute, the rest as computed": (
        uncomputed_only,
        lambda r: None,
        lambda r: (
            f"Nothing to re-settle: every bet of round {r.round_id} was paid what the engine "
            "computes (1 bet(s) the engine cannot compute are never adjusted)."
        ),
    ),
    "cancelled by the game server": (
        cancelled_by_server,
        lambda r: (
            f"Round {r.round_id} was cancelled by the game server: it is cancelled in its incident "
            "(every bet refunded what it wagered), not voided."
        ),
        lambda r: (
            f"Round {r.round_id} was cancelled: its bets are refunded through its incident, not re-settled."
        ),
    ),
    "cancelled and refunded in its incident": (
        cancelled_in_incident,
        lambda r: (
            f"Round {r.round_id} was cancelled by the game server: it is cancelled in its incident "
            "(every bet refunded what it wagered), not voided."
        ),
        lambda r: (
            f"Round {r.round_id} was cancelled: its bets are refunded through its incident, not re-settled."
        ),
    ),
    "completed, refunded in an incident before voids": (
        refunded_before_voids,
        lambda r: (
            f"Round {r.round_id} was cancelled already, in incident {r.incidents.get().pk}, every bet "
            "refunded: a bet takes one correction; nothing was changed."
        ),
        lambda r: (
            f"Round {r.round_id} was cancelled already, in incident {r.incidents.get().pk}, every bet "
            "refunded: a bet takes one correction; nothing was changed."
        ),
    ),
    "a void proposed": (
        void_proposed,
        lambda r: f"Round {r.round_id} already has void {first_void(r)} proposed; nothing was changed.",
        lambda r: (
            f"Round {r.round_id} has void {first_void(r)} proposed: a supervisor approves or rejects "
            "it before a re-settlement is proposed, as a bet takes one correction; nothing was changed."
        ),
    ),
    "voided": (
        voided,
        lambda r: (
            f"Round {r.round_id} was voided (void {first_void(r)}, approved by supervisor): a bet "
            "takes one correction; nothing was changed."
        ),
        lambda r: (
            f"Round {r.round_id} was voided (void {first_void(r)}, approved by supervisor): a bet "
            "takes one correction; nothing was changed."
        ),
    ),
    "a re-settlement proposed": (
        resettlement_proposed,
        lambda r: (
            f"Round {r.round_id} has re-settlement {first_resettlement(r)} proposed: a supervisor "
            "approves or rejects it before a void is proposed, as a bet takes one correction; nothing was "
            "changed."
        ),
        lambda r: (
            f"Round {r.round_id} already has re-settlement {first_resettlement(r)}, proposed; "
            "nothing was changed."
        ),
    ),
    "re-settled": (
        resettled,
        lambda r: (
            f"Round {r.round_id} was re-settled (re-settlement {first_resettlement(r)}, approved by "
            "supervisor): a bet takes one correction; nothing was changed."
        ),
        lambda r: (
            f"Round {r.round_id} already has re-settlement {first_resettlement(r)}, approved; "
            "nothing was changed."
        ),
    ),
    "a re-settlement rejected": (resettlement_rejected, lambda r: None, lambda r: None),
}


def undone(step):
    """Run `step` and roll back what it wrote: the next way of asking finds the round as it was."""
    with transaction.atomic():
        result = step()
        transaction.set_rollback(True)
    return result


def service_answer(kind: str, round_: Round) -> str | None:
    proposer = demo_user(PROPOSER[kind])

    def propose():
        if kind == VOID:
            services.void_propose(round_=round_, proposed_by=proposer, reason="Asked by the test")
        else:
            services.resettlement_propose(round_=round_, proposed_by=proposer, reason="Asked by the test")

    try:
        undone(propose)
    except services.TransitionRefused as refusal:
        (reason,) = refusal.message_dict["round"]
        return reason
    return None


def page_answer(kind: str, round_: Round) -> str | None:
    """The round page, to one who may propose: the reason shown, or None when it offers the form."""
    client = Client()
    client.force_login(demo_user(PROPOSER[kind]))
    page = client.get(round_.get_absolute_url()).content.decode()
    name = "void" if kind == VOID else "resettlement"
    shown = re.search(rf'<p class="subtle proposal-refusal" id="{name}-refusal">(.*?)</p>', page, re.S)
    offered = (
        f'href="/rounds/voids/new/?round={round_.round_id}"' in page
        if kind == VOID
        else "Propose the re-settlement" in page
    )
    assert bool(shown) != offered, "the page offers the proposal or says why not, not both"
    return html.unescape(shown.group(1)) if shown else None


def propose_page_answer(kind: str, round_: Round) -> str | None:
    """The proposal's form page, opened for the round: the reason above the form, or None."""
    client = Client()
    client.force_login(demo_user(PROPOSER[kind]))
    url = "/rounds/voids/new/" if kind == VOID else "/rounds/resettlements/new/"
    page = client.get(url, {"round": round_.round_id}).content.decode()
    shown = re.search(r'<p class="message warning proposal-refusal" role="status">(.*?)</p>', page, re.S)
    return html.unescape(shown.group(1)) if shown else None


def api_answer(kind: str, round_: Round) -> str | None:
    api = APIClient()
    api.force_authenticate(demo_user(PROPOSER[kind]))
    url = "/api/voids/" if kind == VOID else "/api/resettlements/"
    response = undone(
        lambda: api.post(url, {"round": round_.round_id, "reason": "Asked by the test"}, format="json")
    )
    if response.status_code == 201:
        return None
    assert response.status_code == 409, response.content
    (reason,) = response.json()["round"]
    return reason


@pytest.mark.parametrize("case", CASES)
def test_the_rule_service_page_and_api_give_one_answer(case):
    make, expected_void, expected_resettlement = CASES[case]
    round_ = make()
    corrections = round_corrections(round_, shown=False)
    answers = {VOID: void_refusal(corrections), RESETTLEMENT: resettlement_refusal(corrections)}
    assert answers == {VOID: expected_void(round_), RESETTLEMENT: expected_resettlement(round_)}
    for kind, answer in answers.items():
        assert page_answer(kind, round_) == answer, kind
        assert propose_page_answer(kind, round_) == answer, kind
        assert service_answer(kind, round_) == answer, kind
        assert api_answer(kind, round_) == answer, kind


def test_the_page_shows_no_reason_to_those_who_may_not_propose():
    round_ = resettled()
    client = Client()
    client.force_login(demo_user("customer-service"))
    assert "proposal-refusal" not in client.get(round_.get_absolute_url()).content.decode()


def test_rendering_a_rounds_corrections_reads_nothing(django_assert_num_queries):
    """A round with every kind of row the partial shows: a rejected void, an approved re-settlement
    with its adjustment, an incident; read once, then rendered without a query."""
    supervisor = demo_user("supervisor")
    round_ = wrongly_paid()
    services.incident_open(
        table=round_.table, kind="malfunction", opened_by=supervisor, note="Shuffler jammed", round_=round_
    )
    void = services.void_propose(round_=round_, proposed_by=supervisor, reason="Shuffler jammed")
    services.void_reject(void=void, decided_by=second_supervisor(), comment="It was not")
    resettled_round = resettlement_rejected_then_approved(round_)
    round_ = (
        Round.objects.select_related("table")
        .annotate(outcome=outcome_expression())
        .get(pk=resettled_round.pk)
    )
    corrections = round_corrections(round_)
    request = RequestFactory().get("/")
    request.user = demo_user("supervisor-2")
    request.user.has_perm("rounds.propose_void")  # read by the page's navigation already
    context = {"round": round_, "corrections": corrections, "request": request}
    with django_assert_num_queries(0):
        partial = render_to_string(
            "rounds/includes/round_corrections.html",
            {**context, "user": request.user, "perms": PermWrapper(request.user)},
            request=request,
        )
    assert f"Void {void.pk}" in partial and "It was not" in partial
    assert "D23-1-W" in partial and "Checked" in partial  # the approved re-settlement's adjustment
    assert "Malfunction" in partial
    assert f"was re-settled (re-settlement {round_.resettlements.get(status='approved').pk}" in partial


def resettlement_rejected_then_approved(round_: Round) -> Round:
    compliance, supervisor = demo_user("compliance"), demo_user("supervisor")
    first = services.resettlement_propose(round_=round_, proposed_by=compliance, reason="D23-1 short")
    services.resettlement_reject(resettlement=first, decided_by=supervisor, comment="Look again")
    second = services.resettlement_propose(round_=round_, proposed_by=compliance, reason="D23-1 short, sure")
    services.resettlement_approve(resettlement=second, decided_by=supervisor, comment="Checked")
    return round_
