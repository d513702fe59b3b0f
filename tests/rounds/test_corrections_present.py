"""The round page asks once which corrections a round has (`corrections_present`), then reads only
those: each flag against the ORM's answer, through a round's whole life."""

import pytest
from django.db.models import F, Q

from rounds.models import Incident, Refund
from rounds.services import incident_cancel_round, incident_open, resettlement_propose
from rounds.templatetags.corrections import Present, corrections_present
from tests.rounds.corrections_support import (  # noqa: F401
    classic_completed_blackjack,
    demo,
    demo_user,
    ingest,
    wrongly_paid,
)

pytestmark = pytest.mark.usefixtures("demo")


def orm_present(round_) -> Present:
    return Present(
        resettlements=round_.resettlements.exists(),
        refunds=Refund.objects.filter(bet__round=round_).exists(),
        incidents=Incident.objects.filter(round=round_).exists(),
        differing_bets=round_.bets.exclude(computed_returned=F("returned")).exists(),
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
    round_ = ingest(classic_completed_blackjack())
    supervisor = demo_user("supervisor")
    incident = incident_open(
        table=round_.table, kind="network_failure", opened_by=supervisor, note="Stream froze", round_=round_
    )
    assert corrections_present(round_) == orm_present(round_) == Present(False, False, True, False)
    incident_cancel_round(incident=incident, round_=round_, cancelled_by=supervisor, reason="Network failure")
    present = corrections_present(round_)
    assert present == orm_present(round_) and present.refunds and present.incidents
    assert Incident.objects.filter(Q(round=round_) | Q(refunds__bet__round=round_)).exists()


def test_refunds_of_an_incident_opened_without_the_round():
    round_ = ingest(classic_completed_blackjack())
    supervisor = demo_user("supervisor")
    incident = incident_open(table=round_.table, kind="network_failure", opened_by=supervisor, note="Froze")
    incident_cancel_round(incident=incident, round_=round_, cancelled_by=supervisor, reason="Network failure")
    present = corrections_present(round_)
    assert present == orm_present(round_) and present.refunds and present.incidents
