"""Re-settlements through the services: propose, approve (adjustments), reject, and every refusal."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from rounds import services
from rounds.models import Adjustment, Bet, Resettlement
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    corrections_urls,
    demo,
    demo_user,
    ingest,
    renamed,
    wrongly_paid,
)
from tests.second_factor_support import enrolled_if_required

pytestmark = pytest.mark.usefixtures("demo")


def propose(round_, reason="D23-1 was paid 5.00 short"):
    return services.resettlement_propose(round_=round_, proposed_by=demo_user("compliance"), reason=reason)


def snapshot(round_):
    return (
        list(
            Resettlement.objects.filter(round=round_).values_list(
                "id", "status", "decided_by", "decision_comment"
            )
        ),
        list(Adjustment.objects.values_list("id", "bet_id", "amount")),
        list(Bet.objects.filter(round=round_).values_list("id", "returned", "computed_returned")),
    )


def test_it_approves_with_one_adjustment_per_differing_bet():
    round_ = wrongly_paid()
    resettlement = propose(round_)
    assert resettlement.status == "proposed"
    approved = services.resettlement_approve(
        resettlement=resettlement, decided_by=demo_user("supervisor"), comment="Checked the video."
    )
    assert approved.status == "approved" and approved.decided_by.username == "supervisor"
    assert approved.decision_comment == "Checked the video." and approved.decided_at is not None
    adjustments = list(approved.adjustments.select_related("bet"))
    assert [(a.bet.bet_id, a.amount) for a in adjustments] == [("D23-1-W", Decimal("5.00"))]
    bet = adjustments[0].bet
    assert (bet.returned, bet.computed_returned) == (Decimal("85.00"), Decimal("90.00"))  # never edited


def test_an_overpaid_bet_gets_a_negative_adjustment():
    round_ = wrongly_paid("-N", short="-3.50")
    resettlement = propose(round_)
    services.resettlement_approve(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok")
    assert list(resettlement.adjustments.values_list("amount", flat=True)) == [Decimal("-3.50")]


def test_a_bet_the_engine_cannot_compute_is_not_adjusted():
    round_ = wrongly_paid()
    Bet.objects.filter(bet_id="D23-2-W").update(computed_returned=None, returned=Decimal("1.00"))
    resettlement = propose(round_)
    services.resettlement_approve(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok")
    assert list(resettlement.adjustments.values_list("bet__bet_id", flat=True)) == ["D23-1-W"]


def test_it_rejects_without_adjusting():
    round_ = wrongly_paid()
    resettlement = propose(round_)
    rejected = services.resettlement_reject(
        resettlement=resettlement, decided_by=demo_user("supervisor"), comment="The server was right."
    )
    assert rejected.status == "rejected" and not Adjustment.objects.exists()
    again = propose(round_, "second look")  # a rejected proposal does not block a new one
    assert again.status == "proposed"


def test_it_refuses_a_round_where_nothing_differs():
    round_ = ingest(round_document("deluxe-split-double-play-behind"))
    before = snapshot(round_)
    with pytest.raises(services.TransitionRefused, match="Nothing to re-settle"):
        propose(round_)
    assert snapshot(round_) == before


@pytest.mark.parametrize("decide", ["proposed", "approved"])
def test_it_refuses_a_second_proposal(decide):
    round_ = wrongly_paid()
    first = propose(round_)
    if decide == "approved":
        services.resettlement_approve(resettlement=first, decided_by=demo_user("supervisor"), comment="ok")
    before = snapshot(round_)
    with pytest.raises(services.TransitionRefused, match=f"already has re-settlement {first.pk}, {decide}"):
        propose(round_)
    assert snapshot(round_) == before


def test_it_refuses_a_proposal_without_a_reason():
    round_ = wrongly_paid()
    with pytest.raises(ValidationError) as error:
        propose(round_, "  ")
    assert "reason" in error.value.message_dict and not Resettlement.objects.exists()


def test_it_refuses_a_cancelled_round():
    round_ = ingest(renamed(round_document("classic-network-failure-refunds"), "-X"))
    Bet.objects.filter(round=round_).update(returned=Decimal("0.00"))
    with pytest.raises(services.TransitionRefused, match="refunded through its incident"):
        propose(round_)


def test_it_refuses_approving_your_own_proposal():
    from accounts.services import user_create

    both = enrolled_if_required(user_create(username="both-hats", password="pw-both-hats", role="Supervisor"))
    round_ = wrongly_paid()
    resettlement = services.resettlement_propose(round_=round_, proposed_by=both, reason="mine")
    before = snapshot(round_)
    for decide in (services.resettlement_approve, services.resettlement_reject):
        with pytest.raises(services.OwnDecisionRefused, match="You proposed re-settlement"):
            decide(resettlement=resettlement, decided_by=both, comment="looks right")
    assert snapshot(round_) == before


@pytest.mark.parametrize("first", ["approve", "reject"])
@pytest.mark.parametrize("second", ["approve", "reject"])
def test_it_refuses_deciding_twice(first, second):
    round_ = wrongly_paid()
    resettlement = propose(round_)
    getattr(services, f"resettlement_{first}")(
        resettlement=resettlement, decided_by=demo_user("supervisor"), comment="first"
    )
    before = snapshot(round_)
    with pytest.raises(
        services.TransitionRefused, match="already .* by supervisor; a decision is not made twice"
    ):
        getattr(services, f"resettlement_{second}")(
            resettlement=resettlement, decided_by=demo_user("supervisor"), comment="second"
        )
    assert snapshot(round_) == before


def test_a_decision_needs_a_comment():
    round_ = wrongly_paid()
    resettlement = propose(round_)
    with pytest.raises(ValidationError) as error:
        services.resettlement_approve(
            resettlement=resettlement, decided_by=demo_user("supervisor"), comment=""
        )
    assert "comment" in error.value.message_dict
    resettlement.refresh_from_db()
    assert resettlement.status == "proposed" and not Adjustment.objects.exists()
