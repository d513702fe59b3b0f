"""Every write to round history after ingest: re-settlements, incidents (cancellations with refunds)
and voids, each a module of this package; `from rounds.services import ...` reads them all.

History is never edited. A re-settlement records one Adjustment per bet (computed minus reported
returned) once a second person approves it; a round the game server sent as cancelled records one
Refund per bet when its incident ends with it cancelled; a void of a completed round records one
VoidLine per bet (the payout reversed, the stake returned) once a second supervisor approves it. A
round takes one of these corrections, never two (corrections.py). The bets themselves never change.
"""

from .common import OwnDecisionRefused, TransitionRefused
from .corrections import correction_record, correction_refusal, refuse_if_archived, round_to_correct
from .incidents import (
    completed_round_refusal,
    incident_attach_cancelled_round,
    incident_cancel_round,
    incident_note_add,
    incident_open,
    incident_resume,
    incident_status_guard,
    refund_amounts,
    unrefunded_server_cancelled_rounds,
)
from .resettlements import bets_to_adjust, resettlement_approve, resettlement_propose, resettlement_reject
from .voids import void_approve, void_lines, void_propose, void_reject

__all__ = [
    "OwnDecisionRefused",
    "TransitionRefused",
    "bets_to_adjust",
    "completed_round_refusal",
    "correction_record",
    "correction_refusal",
    "incident_attach_cancelled_round",
    "incident_cancel_round",
    "incident_note_add",
    "incident_open",
    "incident_resume",
    "incident_status_guard",
    "refund_amounts",
    "refuse_if_archived",
    "round_to_correct",
    "resettlement_approve",
    "resettlement_propose",
    "resettlement_reject",
    "unrefunded_server_cancelled_rounds",
    "void_approve",
    "void_lines",
    "void_propose",
    "void_reject",
]
