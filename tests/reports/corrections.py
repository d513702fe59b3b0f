"""Corrections of a played day for the report tests: a re-settlement approved, a server-cancelled round
refunded in an incident, a completed round voided.

Each goes through the corrections services, which record the round's one correction
(`rounds.models.RoundCorrection`); `correction_recorded` checks that they did.
"""

from rounds import services
from rounds.choices import CorrectionKind
from rounds.models import Incident, Resettlement, Round, RoundCorrection, Void
from tests import factories


def correction_recorded(round_: Round, kind: str) -> RoundCorrection:
    """The round's correction, as the service recorded it."""
    correction = RoundCorrection.objects.get(round=round_)
    assert correction.kind == kind, (correction.kind, kind)
    return correction


def resettle(round_: Round, *, reason: str = "short paid") -> Resettlement:
    """Compliance proposes, a supervisor approves: one adjustment per bet that was paid wrong."""
    proposed = services.resettlement_propose(
        round_=round_, proposed_by=factories.user("compliance"), reason=reason
    )
    supervisor = factories.user("supervisor")
    approved = services.resettlement_approve(
        resettlement=proposed, decided_by=supervisor, comment="Checked the video."
    )
    correction_recorded(round_, CorrectionKind.RESETTLED)
    return approved


def refund_in_incident(round_: Round) -> Incident:
    """A supervisor ends the incident of a round the game server sent as cancelled by refunding it."""
    supervisor = factories.user("supervisor")
    incident = Incident.objects.filter(table=round_.table, status="open").first()
    if incident is None:
        incident = services.incident_open(
            table=round_.table, kind="network_failure", opened_by=supervisor, note="network", round_=round_
        )
    incident = services.incident_cancel_round(
        incident=incident, round_=round_, cancelled_by=supervisor, reason="network failure"
    )
    correction_recorded(round_, CorrectionKind.CANCELLED)
    return incident


def void(round_: Round, *, reason: str = "shuffler malfunction") -> Void:
    """A settled round voided with four eyes: every bet's payout reversed and its stake returned."""
    proposed = services.void_propose(round_=round_, proposed_by=factories.user("supervisor"), reason=reason)
    approved = services.void_approve(
        void=proposed,
        decided_by=factories.user("supervisor", "supervisor-second"),
        comment="Seen on the log.",
    )
    correction_recorded(round_, CorrectionKind.VOIDED)
    return approved
