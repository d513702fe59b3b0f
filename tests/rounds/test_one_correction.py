"""One correction per bet: a round re-settled is not then cancelled or voided; a round cancelled
or voided is not then re-settled; a void and a re-settlement are not proposed side by side. Each
refusal is a TransitionRefused naming what the round received, and changes nothing. The round's
RoundCorrection records the one it received (concurrent attempts: test_corrections_race.py)."""

from decimal import Decimal

import pytest
from django.db.models import Exists, OuterRef

from rounds import services
from rounds.models import Adjustment, Bet, Refund, Resettlement, RoundCorrection, Void, VoidLine
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    corrections_urls,
    demo,
    demo_user,
    ingest,
    renamed,
    second_supervisor,
    wrongly_paid,
)

pytestmark = pytest.mark.usefixtures("demo")


def bets_corrected_twice():
    """Bets holding two kinds of correction: an approved adjustment, a refund, a void line."""
    adjusted = Exists(
        Adjustment.objects.filter(bet=OuterRef("pk"), resettlement__status="approved").values("pk")
    )
    refunded = Exists(Refund.objects.filter(bet=OuterRef("pk")).values("pk"))
    voided = Exists(VoidLine.objects.filter(bet=OuterRef("pk")).values("pk"))
    bets = Bet.objects.annotate(a=adjusted, r=refunded, v=voided)
    return [bet.bet_id for bet in bets if sum((bet.a, bet.r, bet.v)) > 1]


def snapshot():
    return (
        list(Resettlement.objects.values_list("id", "status")),
        list(Adjustment.objects.values_list("id", "bet_id", "amount")),
        list(Refund.objects.values_list("id", "bet_id", "amount")),
        list(Void.objects.values_list("id", "status")),
        list(VoidLine.objects.values_list("id", "bet_id")),
        list(RoundCorrection.objects.values_list("round_id", "kind")),
    )


def resettle(round_):
    proposed = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="D23-1 was paid 5.00 short"
    )
    return services.resettlement_approve(
        resettlement=proposed, decided_by=demo_user("supervisor"), comment="Checked the video"
    )


def legacy_refunded(round_):
    """A completed round refunded in an incident before this rule (migration 0011 recorded its
    correction as `cancelled`): its payouts and its refunds both stand."""
    supervisor = demo_user("supervisor")
    incident = services.incident_open(
        table=round_.table, kind="malfunction", opened_by=supervisor, note="Shuffler jammed"
    )
    Refund.objects.bulk_create(
        Refund(incident=incident, bet=bet, gaming_day=bet.gaming_day, amount=bet.wagered)
        for bet in Bet.objects.filter(round=round_)
    )
    RoundCorrection.objects.create(round=round_, kind="cancelled", incident=incident)
    services.incident_resume(incident=incident, resumed_by=supervisor, note="Play resumed")
    return incident


def test_resettlement_approval_records_the_rounds_correction():
    round_ = wrongly_paid()
    resettlement = resettle(round_)
    correction = RoundCorrection.objects.get(round=round_)
    assert (correction.kind, correction.resettlement, correction.recorded_by.username) == (
        "resettled",
        resettlement,
        "supervisor",
    )


def test_a_resettled_round_is_not_then_cancelled_with_refunds():
    round_ = wrongly_paid()
    resettlement = resettle(round_)
    incident = services.incident_open(
        table=round_.table, kind="malfunction", opened_by=demo_user("supervisor"), note="Shuffler jammed"
    )
    before = snapshot()
    with pytest.raises(services.TransitionRefused) as refused:
        services.incident_cancel_round(
            incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="malfunction"
        )
    assert f"re-settlement {resettlement.pk}" in str(refused.value)
    assert snapshot() == before and bets_corrected_twice() == []


def test_a_round_refunded_in_an_incident_is_not_then_resettled():
    round_ = wrongly_paid()
    incident = legacy_refunded(round_)
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match=f"cancelled already, in incident {incident.pk}"):
        services.resettlement_propose(round_=round_, proposed_by=demo_user("compliance"), reason="short")
    assert snapshot() == before and bets_corrected_twice() == []


def test_a_resettled_round_is_not_then_voided():
    round_ = wrongly_paid()
    resettlement = resettle(round_)
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match=f"re-settlement {resettlement.pk}"):
        services.void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="Shuffler jammed")
    assert snapshot() == before


def test_a_voided_round_is_not_then_resettled_nor_voided_again():
    round_ = wrongly_paid()
    void = services.void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="Shuffler jammed")
    services.void_approve(void=void, decided_by=second_supervisor(), comment="Seen on the video")
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match=f"voided \\(void {void.pk}"):
        services.resettlement_propose(round_=round_, proposed_by=demo_user("compliance"), reason="short")
    with pytest.raises(services.TransitionRefused, match=f"voided \\(void {void.pk}"):
        services.void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="again")
    assert snapshot() == before and bets_corrected_twice() == []


def test_a_server_cancelled_round_refunded_is_not_then_voided():
    round_ = ingest(renamed(round_document("classic-network-failure-refunds"), "-V"))
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match="cancelled by the game server"):
        services.void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="malfunction")
    assert snapshot() == before


def test_no_void_is_proposed_beside_a_proposed_resettlement_and_no_resettlement_beside_a_void():
    round_ = wrongly_paid()
    resettlement = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="short"
    )
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match=f"re-settlement {resettlement.pk} proposed"):
        services.void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="malfunction")
    assert snapshot() == before
    services.resettlement_reject(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="no")
    void = services.void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="malfunction")
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match=f"void {void.pk} proposed"):
        services.resettlement_propose(round_=round_, proposed_by=demo_user("compliance"), reason="short")
    assert snapshot() == before


def test_approving_a_resettlement_of_a_round_voided_since_is_refused():
    """Two proposals that both stand (as before this rule): whichever is approved first corrects the
    round; approving the other is refused and changes nothing."""
    round_ = wrongly_paid()
    resettlement = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="short"
    )
    void = Void.objects.create(round=round_, reason="Shuffler jammed", proposed_by=demo_user("supervisor"))
    services.void_approve(void=void, decided_by=second_supervisor(), comment="Seen on the video")
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match=f"voided \\(void {void.pk}"):
        services.resettlement_approve(
            resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok"
        )
    assert snapshot() == before and bets_corrected_twice() == []


def test_a_second_correction_record_is_refused_by_its_primary_key():
    """Past every check (a writer that skipped the lock): the database's one correction per round
    becomes a refusal with a message, not an IntegrityError."""
    round_ = wrongly_paid()
    resettlement = resettle(round_)
    void = Void.objects.create(round=round_, reason="late", proposed_by=demo_user("supervisor"))
    with pytest.raises(services.TransitionRefused, match=f"Round {round_.round_id} received its correction"):
        services.correction_record(
            round_=round_, kind="voided", void=void, recorded_by=demo_user("supervisor")
        )
    assert RoundCorrection.objects.get(round=round_).resettlement == resettlement


def test_bets_of_a_voided_round_net_to_what_they_wagered():
    round_ = wrongly_paid()
    void = services.void_propose(round_=round_, proposed_by=demo_user("supervisor"), reason="malfunction")
    services.void_approve(void=void, decided_by=second_supervisor(), comment="ok")
    lines = list(void.lines.select_related("bet"))
    assert len(lines) == round_.bet_count
    for line in lines:
        assert (line.reversed_returned, line.returned_stake) == (line.bet.returned, line.bet.wagered)
        assert line.bet.returned + line.net == line.bet.wagered
    assert sum(line.net for line in lines) == round_.wagered - round_.returned
    assert isinstance(lines[0].net, Decimal)
