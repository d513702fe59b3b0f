"""What every write to round history shares: its refusals, and how it names people and checks text.

Refusals: bad input is a ValidationError naming the field (HTTP 400, a form error); a transition the
record's state does not allow is a `TransitionRefused` (HTTP 409); deciding your own proposal is an
`OwnDecisionRefused` (HTTP 403). Both are ValidationErrors, so a page shows them like any other; both
are defined in core/refusals.py, shared with the configuration changes of tables.
"""

from django.core.exceptions import ValidationError
from django.utils import timezone

from core.refusals import OwnDecisionRefused, TransitionRefused

from ..choices import ProposalStatus
from ..correction_policy import by_name
from ..recall import archived_refusal


def required_text(text: str, field: str, message: str) -> str:
    if not text or not text.strip():
        raise ValidationError({field: message})
    return text.strip()


# --- four-eyes proposals (a re-settlement, a void): decided once, by someone else -------------------


def proposal_decidable(proposal, decided_by, comment: str, *, name: str, decider: str):
    """`proposal` (a Resettlement or a Void, called `name` in messages) locked with its round, still
    proposed and not `decided_by`'s own; and the decision's comment, required."""
    comment = required_text(comment, "comment", "Say why: the decision is kept with its comment.")
    try:
        proposal = (
            type(proposal).objects.select_for_update(of=("self",)).select_related("round").get(pk=proposal.pk)
        )
    except type(proposal).DoesNotExist:
        # Its round's month was archived since it was proposed: the round is not in the database.
        refusal = archived_refusal(pk=proposal.round_id)
        if refusal:
            raise TransitionRefused({"round": refusal}) from None
        raise
    if proposal.status != ProposalStatus.PROPOSED:
        raise TransitionRefused(
            f"{name[0].upper()}{name[1:]} {proposal.pk} was already {proposal.get_status_display().lower()} "
            f"by {by_name(proposal.decided_by)}; a decision is not made twice."
        )
    if proposal.proposed_by_id == decided_by.pk:
        raise OwnDecisionRefused(
            f"You proposed {name} {proposal.pk}: another {decider} must approve or reject it."
        )
    return proposal, comment


def proposal_decide(proposal, status: str, decided_by, comment: str):
    """Record the decision on a proposal from `proposal_decidable`."""
    proposal.status = status
    proposal.decided_by = decided_by
    proposal.decided_at = timezone.now()
    proposal.decision_comment = comment
    proposal.save(update_fields=["status", "decided_by", "decided_at", "decision_comment"])
    return proposal
