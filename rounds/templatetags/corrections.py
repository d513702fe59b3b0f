"""{% round_corrections corrections as c %}: what the partial `rounds/includes/round_corrections.html`
shows of a round's corrections, read once by the round page's view (`rounds.correction_policy.
round_corrections`): its re-settlements, voids, incidents and refunds, and whether the user may
propose a re-settlement or a void, or why not (the services' reason, word for word). It reads nothing
from the database. Also `{{ outcome|outcome_label }}`."""

from django import template

from rounds.correction_policy import RoundCorrections, resettlement_refusal, void_refusal
from rounds.outcome import RoundOutcome, outcome_label

register = template.Library()
register.filter("outcome_label", outcome_label)


@register.simple_tag(takes_context=True)
def round_corrections(context, corrections: RoundCorrections) -> dict:
    round_ = corrections.round
    user = context["request"].user if "request" in context else None
    archived = corrections.archived is not None
    # The reasons are shown to those who may propose: to others the form or link is simply not there.
    may_resettle = bool(user and user.has_perm("rounds.add_resettlement"))
    may_void = bool(user and user.has_perm("rounds.propose_void"))
    resettlement_refused = resettlement_refusal(corrections) if may_resettle else None
    void_refused = void_refusal(corrections) if may_void else None
    for proposal in (*corrections.voids, *corrections.resettlements):
        proposal.may_decide = not archived and proposal.may_be_decided_by(user)
    return {
        "resettlements": corrections.resettlements,
        "approved": corrections.approved_resettlement,
        "differing": corrections.differing,
        "uncomputed": corrections.uncomputed,
        "may_propose": may_resettle and resettlement_refused is None,
        "resettlement_refusal": resettlement_refused,
        "voids": corrections.voids,
        "may_propose_void": may_void and void_refused is None,
        "void_refusal": void_refused,
        "outcome": getattr(round_, "outcome", None) or RoundOutcome.COMPLETED,
        "incidents": corrections.incidents,
        "refunds": corrections.refunds,
        "refund_total": corrections.refund_total,
        "currency": round_.table.currency,
        "archived_refusal": corrections.archived,
    }
