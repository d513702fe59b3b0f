"""Re-settlements: compliance proposes to pay a round's bets what the engine computes; a supervisor
who did not propose it approves (one Adjustment per differing bet: computed − reported; the round's
correction) or rejects. A round takes one correction: one re-settled is not cancelled or voided, one
cancelled or voided is not re-settled."""

from django.db import IntegrityError, transaction

from core.refusals import require_reason
from ledger.services import ledger_append

from ..choices import CorrectionKind, ProposalStatus
from ..correction_policy import resettlement_refusal, round_corrections
from ..models import Adjustment, Bet, Resettlement, Round
from .common import TransitionRefused, proposal_decidable, proposal_decide
from .corrections import correction_record, refuse_if_corrected, round_locked


def bets_to_adjust(round_: Round):
    """The bets whose computed returned differs from the reported one (bets the engine cannot
    compute, computed None, are never adjusted)."""
    return Bet.objects.of_round(round_).to_adjust().order_by("id")


@transaction.atomic
def resettlement_propose(*, round_: Round, proposed_by, reason: str) -> Resettlement:
    """Propose to pay the round's bets what the engine computes; a supervisor decides. Refused, under
    the round's lock, for the reason `correction_policy.resettlement_refusal` gives."""
    reason = require_reason(reason)
    round_ = round_locked(round_)
    refusal = resettlement_refusal(round_corrections(round_, shown=False))
    if refusal:
        raise TransitionRefused({"round": refusal})
    try:
        with transaction.atomic():
            return Resettlement.objects.create(round=round_, reason=reason, proposed_by=proposed_by)
    except IntegrityError:  # another proposal won the race
        raise TransitionRefused(
            {"round": f"Round {round_.round_id} already has an open or approved re-settlement."}
        ) from None


@transaction.atomic
def resettlement_approve(*, resettlement: Resettlement, decided_by, comment: str) -> Resettlement:
    """Approve: one Adjustment per bet whose computed returned differs (computed − reported), and
    the round's correction. Refused when the round was corrected (cancelled, voided) since."""
    resettlement, comment = proposal_decidable(
        resettlement, decided_by, comment, name="re-settlement", decider="person"
    )
    round_ = round_locked(resettlement.round)
    refuse_if_corrected(round_)
    adjustments = Adjustment.objects.bulk_create(
        Adjustment(
            resettlement=resettlement,
            bet=bet,
            gaming_day=round_.gaming_day,
            amount=bet.computed_returned - bet.returned,
        )
        for bet in bets_to_adjust(round_)
    )
    ledger_append("adjustment", adjustments)
    resettlement = proposal_decide(resettlement, ProposalStatus.APPROVED, decided_by, comment)
    correction_record(
        round_=round_, kind=CorrectionKind.RESETTLED, resettlement=resettlement, recorded_by=decided_by
    )
    return resettlement


@transaction.atomic
def resettlement_reject(*, resettlement: Resettlement, decided_by, comment: str) -> Resettlement:
    resettlement, comment = proposal_decidable(
        resettlement, decided_by, comment, name="re-settlement", decider="person"
    )
    return proposal_decide(resettlement, ProposalStatus.REJECTED, decided_by, comment)
