"""Incidents through the services: open (pauses the table), notes, resume, cancel a round the game
server sent as cancelled with refunds (a completed round is refused: it is voided instead), the table
guard, a cancelled round from ingest (pausing the table too), and every refusal."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from rounds import services
from rounds.models import Incident, IncidentNote, Refund, RoundCorrection
from tables.models import Table
from tables.services import table_set_status
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    classic_completed_blackjack,
    corrections_urls,
    demo,
    demo_user,
    ingest,
    renamed,
)

pytestmark = pytest.mark.usefixtures("demo")


def table(code="CLS1"):
    return Table.objects.get(code=code)


def open_incident(code="CLS1", kind="network_failure", round_=None):
    return services.incident_open(
        table=table(code), kind=kind, opened_by=demo_user("supervisor"), note="Stream froze", round_=round_
    )


def snapshot():
    return (
        list(Incident.objects.values_list("id", "status", "round", "closed_by", "closed_at")),
        list(IncidentNote.objects.values_list("id", "text")),
        list(Refund.objects.values_list("id", "bet", "amount")),
        list(Table.objects.values_list("code", "status")),
        list(Table.objects.get(code="CLS1").status_changes.values_list("id", flat=True)),
    )


def refunds(incident):
    return {r.bet.bet_id: r.amount for r in incident.refunds.select_related("bet")}


def test_opening_pauses_the_table_and_starts_the_timeline():
    incident = open_incident()
    assert incident.status == "open" and incident.opened_by.username == "supervisor"
    assert table().status == "paused"
    change = table().status_changes.order_by("-id").first()
    assert change.to_status == "paused" and change.reason.startswith(
        f"Incident {incident.pk}: network failure"
    )
    assert [(n.author.username, n.text) for n in incident.notes.all()] == [("supervisor", "Stream froze")]


def test_a_closed_table_stays_closed():
    table_set_status(table=table(), status="closed", changed_by=demo_user("supervisor"), reason="night")
    open_incident()
    assert table().status == "closed"


def test_notes_go_into_the_timeline_in_order():
    incident = open_incident()
    services.incident_note_add(incident=incident, author=demo_user("supervisor"), text="Called the studio")
    assert list(incident.notes.values_list("text", flat=True)) == ["Stream froze", "Called the studio"]


def test_resuming_ends_the_incident_and_opens_the_table_it_paused():
    incident = open_incident()
    services.incident_resume(incident=incident, resumed_by=demo_user("supervisor"), note="Stream back")
    incident.refresh_from_db()
    assert (incident.status, incident.closed_by.username) == ("resumed", "supervisor")
    assert incident.closed_at is not None and table().status == "open"
    assert incident.notes.last().text == "Resumed: Stream back" and not Refund.objects.exists()


def test_resuming_leaves_a_table_whose_status_changed_since():
    incident = open_incident()
    table_set_status(table=table(), status="closed", changed_by=demo_user("supervisor"), reason="end of day")
    services.incident_resume(incident=incident, resumed_by=demo_user("supervisor"), note="ok")
    assert table().status == "closed"


def test_a_table_cannot_open_while_an_incident_is_open():
    incident = open_incident()
    before = snapshot()
    with pytest.raises(ValidationError) as error:
        table_set_status(table=table(), status="open", changed_by=demo_user("supervisor"), reason="go")
    assert f"incident {incident.pk}" in error.value.message_dict["status"][0]
    assert snapshot() == before
    table_set_status(
        table=table(), status="closed", changed_by=demo_user("supervisor"), reason="closing is fine"
    )


def test_a_completed_round_is_never_refunded_on_top_of_its_payouts():
    """Cancel-with-refunds is for rounds the game server could not complete; a settled round is
    voided instead (proposed by one supervisor, approved by another)."""
    round_ = ingest(classic_completed_blackjack())
    incident = open_incident(round_=round_)
    before = snapshot()
    with pytest.raises(services.TransitionRefused) as refused:
        services.incident_cancel_round(
            incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="Network failure"
        )
    assert refused.value.message_dict["round"] == [
        f"Round {round_.round_id} was completed and settled: a settled round hit by a malfunction is "
        "voided, proposed by one supervisor and approved by another; it is never refunded on top of its "
        "payouts."
    ]
    assert snapshot() == before and not RoundCorrection.objects.exists()
    incident.refresh_from_db()
    assert incident.status == "open"


def test_cancelling_records_the_rounds_correction():
    round_ = ingest(round_document("classic-network-failure-refunds"))
    incident = Incident.objects.get(table=table(), status="open")
    services.incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="Server cancelled it"
    )
    correction = RoundCorrection.objects.get(round=round_)
    assert (correction.kind, correction.incident, correction.recorded_by.username) == (
        "cancelled",
        incident,
        "supervisor",
    )


def test_without_a_network_failure_the_blackjack_gets_its_wager_back():
    document = renamed(round_document("classic-network-failure-refunds"), "-M")
    document["cancel_reason"] = "malfunction"
    for bet in document["bets"]:
        bet["returned"] = bet["wagered"]
    round_ = ingest(document)
    incident = Incident.objects.get(table=table(), status="open")
    assert incident.kind == "malfunction"
    services.incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="x"
    )
    assert refunds(incident) == {
        "C18-1-M": Decimal("20.00"),
        "C18-2-M": Decimal("4.00"),
        "C18-3-M": Decimal("1.50"),
        "C18-4-M": Decimal("2.00"),
        "C18-5-M": Decimal("12.00"),
        "C18-6-M": Decimal("2.00"),
    }
    incident.refresh_from_db()
    assert incident.round == round_


def test_a_round_the_server_cancelled_opens_an_incident_and_its_refunds_come_when_it_ends():
    round_ = ingest(round_document("classic-network-failure-refunds"))
    incident = Incident.objects.get(table=table())
    assert (incident.status, incident.round, incident.kind, incident.opened_by) == (
        "open",
        round_,
        "network_failure",
        None,
    )
    assert not Refund.objects.exists()
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match="cancel it here so its refunds are recorded"):
        services.incident_resume(incident=incident, resumed_by=demo_user("supervisor"), note="back")
    assert snapshot() == before
    services.incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="Server cancelled it"
    )
    assert refunds(incident) == {
        "C18-1": Decimal("50.00"),
        "C18-2": Decimal("10.00"),
        "C18-3": Decimal("1.50"),
        "C18-4": Decimal("2.00"),
        "C18-5": Decimal("12.00"),
        "C18-6": Decimal("2.00"),
    }


def test_a_cancelled_round_from_ingest_pauses_its_table_as_a_supervisors_incident_does():
    assert table().status == "open"
    round_ = ingest(round_document("classic-network-failure-refunds"))
    incident = Incident.objects.get(table=table(), status="open")
    assert table().status == "paused"
    change = table().status_changes.order_by("-id").first()
    assert (change.from_status, change.to_status, change.changed_by) == ("open", "paused", None)
    assert change.reason.startswith(f"Incident {incident.pk}: network failure")
    assert round_.round_id in change.reason
    services.incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="Server cancelled it"
    )
    assert table().status == "open"  # the incident that paused it has ended


def test_a_cancelled_round_joining_an_open_incident_leaves_the_table_as_it_is():
    table_set_status(table=table(), status="closed", changed_by=demo_user("supervisor"), reason="night")
    ingest(round_document("classic-network-failure-refunds"))
    assert table().status == "closed"


def test_a_second_cancelled_round_joins_the_open_incident_and_is_refunded_with_it():
    incident = open_incident()
    first = ingest(renamed(round_document("classic-network-failure-refunds"), "-1"))
    second = ingest(renamed(round_document("classic-network-failure-refunds"), "-2"))
    assert Incident.objects.count() == 1
    incident.refresh_from_db()
    assert incident.round == first
    services.incident_cancel_round(
        incident=incident, round_=first, cancelled_by=demo_user("supervisor"), reason="x"
    )
    assert set(refunds(incident)) == {f"C18-{n}-{s}" for n in range(1, 7) for s in (1, 2)}
    assert second.round_id in incident.notes.last().text


def test_cancelling_a_round_twice_is_refused():
    round_ = ingest(round_document("classic-network-failure-refunds"))
    services.incident_cancel_round(
        incident=Incident.objects.get(status="open"),
        round_=round_,
        cancelled_by=demo_user("supervisor"),
        reason="x",
    )
    other = open_incident()
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match="cancelled already"):
        services.incident_cancel_round(
            incident=other, round_=round_, cancelled_by=demo_user("supervisor"), reason="y"
        )
    assert snapshot() == before


def test_a_round_of_another_table_is_refused():
    round_ = ingest(round_document("deluxe-split-double-play-behind"))
    incident = open_incident()
    before = snapshot()
    with pytest.raises(ValidationError) as error:
        services.incident_cancel_round(
            incident=incident, round_=round_, cancelled_by=demo_user("supervisor"), reason="x"
        )
    assert "round" in error.value.message_dict and snapshot() == before


@pytest.mark.parametrize("ended", ["resumed", "cancelled"])
def test_a_closed_incident_takes_no_note_resume_or_cancel(ended):
    supervisor = demo_user("supervisor")
    if ended == "resumed":
        incident = open_incident()
        services.incident_resume(incident=incident, resumed_by=supervisor, note="ok")
        round_ = ingest(round_document("classic-network-failure-refunds"))  # opens another incident
    else:
        round_ = ingest(round_document("classic-network-failure-refunds"))
        incident = Incident.objects.get(status="open")
        services.incident_cancel_round(incident=incident, round_=round_, cancelled_by=supervisor, reason="x")
    before = snapshot()
    steps = [
        lambda: services.incident_note_add(incident=incident, author=supervisor, text="late"),
        lambda: services.incident_resume(incident=incident, resumed_by=supervisor, note="again"),
        lambda: services.incident_cancel_round(
            incident=incident, round_=round_, cancelled_by=supervisor, reason="z"
        ),
    ]
    for step in steps:
        with pytest.raises(services.TransitionRefused, match=f"Incident {incident.pk} is closed"):
            step()
    assert snapshot() == before


def test_a_second_open_incident_on_a_table_is_refused():
    open_incident()
    before = snapshot()
    with pytest.raises(services.TransitionRefused, match="already has an open incident"):
        open_incident()
    assert snapshot() == before


@pytest.mark.parametrize(
    "fields, field",
    [({"note": " "}, "note"), ({"kind": "gremlins"}, "kind")],
)
def test_bad_input_is_refused_naming_the_field(fields, field):
    before = snapshot()
    with pytest.raises(ValidationError) as error:
        services.incident_open(
            **{"table": table(), "kind": "other", "opened_by": demo_user("supervisor"), "note": "n", **fields}
        )
    assert field in error.value.message_dict and snapshot() == before


def test_a_blank_note_or_reason_is_refused():
    incident = open_incident()
    round_ = ingest(classic_completed_blackjack())
    supervisor = demo_user("supervisor")
    with pytest.raises(ValidationError):
        services.incident_note_add(incident=incident, author=supervisor, text="")
    with pytest.raises(ValidationError):
        services.incident_resume(incident=incident, resumed_by=supervisor, note="")
    with pytest.raises(ValidationError):
        services.incident_cancel_round(incident=incident, round_=round_, cancelled_by=supervisor, reason="")
    incident.refresh_from_db()
    assert incident.status == "open" and incident.notes.count() == 1 and not Refund.objects.exists()
