"""The round page asks once which corrections a round has (`corrections_present`), then reads only
those: each flag against the ORM's answer, through a round's whole life."""

import pytest
from django.db.models import F, Q

from rounds.correction_policy import Present, corrections_present
from rounds.models import Incident, Refund, Void
from rounds.services import (
    incident_cancel_round,
    incident_open,
    resettlement_propose,
    void_approve,
    void_propose,
)
from tables.models import Table
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    classic_completed_blackjack,
    demo,
    demo_user,
    ingest,
    renamed,
    second_supervisor,
    wrongly_paid,
)

pytestmark = pytest.mark.usefixtures("demo")


def orm_present(round_) -> Present:
    return Present(
        resettlements=round_.resettlements.exists(),
        refunds=Refund.objects.filter(bet__round=round_).exists(),
        incidents=Incident.objects.filter(round=round_).exists(),
        differing_bets=round_.bets.exclude(computed_returned=F("returned")).exists(),
        voids=Void.objects.filter(round=round_).exists(),
    )


def test_a_clean_round_has_nothing():
    round_ = ingest(classic_completed_blackjack())
    assert corrections_present(round_) == orm_present(round_) == Present(False, False, False, False)


def test_a_wrongly_paid_round_then_its_resettlement():
    round_ = wrongly_paid()
    assert corrections_present(round_) == orm_present(round_) == Present(False, False, False, True)
    resettlement_propose(round_=round_, proposed_by=demo_user("compliance"), reason="D23-1 short")
    assert corrections_present(round_) == orm_present(round_) == Present(True, False, False, True)


def test_an_incident_on_the_round_then_its_refunds():
    round_ = ingest(renamed(round_document("classic-network-failure-refunds"), "-P"))
    incident = Incident.objects.get(round=round_)  # ingest opened it on the server's cancelled round
    assert corrections_present(round_) == orm_present(round_)
    assert corrections_present(round_).incidents and not corrections_present(round_).refunds
    incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="Network failure"
    )
    present = corrections_present(round_)
    assert present == orm_present(round_) and present.refunds and present.incidents
    assert Incident.objects.filter(Q(round=round_) | Q(refunds__bet__round=round_)).exists()


def test_refunds_of_a_round_that_joined_an_incident_opened_without_it():
    supervisor = demo_user("supervisor")
    incident = incident_open(
        table=Table.objects.get(code="CLS1"), kind="network_failure", opened_by=supervisor, note="Froze"
    )
    first = ingest(renamed(round_document("classic-network-failure-refunds"), "-1"))
    second = ingest(renamed(round_document("classic-network-failure-refunds"), "-2"))
    incident_cancel_round(incident=incident, round_=first, cancelled_by=supervisor, reason="Network failure")
    present = corrections_present(second)  # refunded with the first; the incident names the first
    assert present == orm_present(second) and present.refunds and not present.incidents


def test_a_void_proposed_then_approved():
    round_ = ingest(classic_completed_blackjack())
    void = void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="Shuffler jammed")
    assert corrections_present(round_) == orm_present(round_) == Present(False, False, False, False, True)
    void_approve(void=void, decided_by=second_supervisor(), comment="Seen on the video")
    assert corrections_present(round_) == orm_present(round_) == Present(False, False, False, False, True)
