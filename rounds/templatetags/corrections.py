"""{% round_corrections round as corrections %}: a round's re-settlements, voids, incidents and
refunds, for the partial `rounds/includes/round_corrections.html` on the round page; and
`{{ outcome|outcome_label }}`. A round read back from the archive (the page's `recalled`) has its
bets, adjustments and refunds from there, the rest from the database, and takes no correction."""

from dataclasses import dataclass
from decimal import Decimal

from django import template
from django.db import connection
from django.db.models import Q
from django.utils.functional import cached_property

from rounds.choices import ProposalStatus
from rounds.models import Bet, Incident, Refund, Resettlement, Void
from rounds.outcome import RoundOutcome, outcome_label
from rounds.querysets import PAID_OTHER_THAN_COMPUTED

register = template.Library()
register.filter("outcome_label", outcome_label)


@dataclass(frozen=True)
class Present:
    """Which corrections a round has. Most rounds have none: one query finds that out, where
    the four that read them cost 2.6 ms of a round page."""

    resettlements: bool
    refunds: bool
    incidents: bool  # opened on the round (those of its refunds count through `refunds`)
    differing_bets: bool  # paid other than the engine computes, or not computed
    voids: bool = False


class _PresentSql:
    @cached_property
    def text(self) -> str:
        bets, refunds = Bet._meta.db_table, Refund._meta.db_table
        return f"""
            SELECT EXISTS (SELECT 1 FROM "{Resettlement._meta.db_table}" WHERE round_id = %(round)s),
                   EXISTS (SELECT 1 FROM "{refunds}" r JOIN "{bets}" b ON b.id = r.bet_id
                            WHERE b.round_id = %(round)s),
                   EXISTS (SELECT 1 FROM "{Incident._meta.db_table}" WHERE round_id = %(round)s),
                   EXISTS (SELECT 1 FROM "{bets}" WHERE round_id = %(round)s
                            AND ({PAID_OTHER_THAN_COMPUTED})),
                   EXISTS (SELECT 1 FROM "{Void._meta.db_table}" WHERE round_id = %(round)s)
        """


_PRESENT_SQL = _PresentSql()


def corrections_present(round_) -> Present:
    with connection.cursor() as cursor:
        cursor.execute(_PRESENT_SQL.text, {"round": round_.pk})
        return Present(*(bool(flag) for flag in cursor.fetchone()))


def recalled_present(recalled) -> Present:
    """Which corrections an archived round has: its bets, adjustments and refunds as read back; its
    proposals, voids and incidents kept in the database (every one is looked at)."""
    return Present(
        resettlements=True,
        refunds=bool(recalled.refunds),
        incidents=True,
        differing_bets=bool(recalled.differing),
        voids=True,
    )


@register.simple_tag(takes_context=True)
def round_corrections(context, round_) -> dict:
    user = context["request"].user if "request" in context else None
    recalled = context.get("recalled")
    present = corrections_present(round_) if recalled is None else recalled_present(recalled)
    resettlements = []
    if present.resettlements:
        resettlements = Resettlement.objects.filter(round_id=round_.pk).select_related(
            "proposed_by", "decided_by"
        )
        if recalled is None:
            resettlements = resettlements.prefetch_related("adjustments__bet__player")
        resettlements = list(resettlements)
    for resettlement in resettlements:
        if recalled is None:
            resettlement.adjustment_rows = list(resettlement.adjustments.all())
        else:
            resettlement.adjustment_rows = [
                a for a in recalled.adjustments if a.resettlement_id == resettlement.pk
            ]
    refunds = []
    if recalled is not None:
        refunds = recalled.refunds
    elif present.refunds:
        refunds = list(Refund.objects.filter(bet__round=round_).select_related("bet__player"))
    refund_total = sum((refund.amount for refund in refunds), Decimal(0)) if refunds else None
    incidents = Incident.objects.none()
    if recalled is not None:
        incidents = Incident.objects.filter(
            Q(round_id=round_.pk) | Q(pk__in={r.incident_id for r in refunds})
        )
    elif present.refunds or present.incidents:
        incidents = Incident.objects.filter(Q(round=round_) | Q(refunds__bet__round=round_)).distinct()
    pending = any(r.status in (ProposalStatus.PROPOSED, ProposalStatus.APPROVED) for r in resettlements)
    # One query for both: the bets to adjust (services.bets_to_adjust) and those the engine cannot
    # compute (computed NULL, which the exclusion keeps).
    differing, uncomputed = [], 0
    bets = Bet.objects.none()
    if recalled is not None:
        bets = recalled.differing
    elif present.differing_bets:
        bets = Bet.objects.of_round(round_).paid_other_than_computed()
        bets = bets.select_related("player").order_by("id")
    for bet in bets:
        if bet.computed_returned is None:
            uncomputed += 1
        else:
            differing.append(bet)
    voids = []
    if present.voids:
        voids = list(
            Void.objects.filter(round_id=round_.pk).select_related("proposed_by", "decided_by", "incident")
        )
    void_proposed = any(v.status == ProposalStatus.PROPOSED for v in voids)
    resettlement_proposed = any(r.status == ProposalStatus.PROPOSED for r in resettlements)
    # One correction per bet: a round corrected (re-settled, cancelled, voided) takes no other, and
    # one proposal at a time awaits its decision.
    outcome = getattr(round_, "outcome", None) or RoundOutcome.COMPLETED
    # Sent as completed, and not corrected; and in the database (an archived round's month is
    # restored first: `archived_refusal` says how).
    open_to_correction = outcome == RoundOutcome.COMPLETED and recalled is None
    may_propose = bool(
        user
        and user.has_perm("rounds.add_resettlement")
        and differing
        and not pending
        and open_to_correction
        and not void_proposed
    )
    may_propose_void = bool(
        user
        and user.has_perm("rounds.propose_void")
        and open_to_correction
        and round_.bet_count
        and not void_proposed
        and not resettlement_proposed
    )
    for proposal in (*voids, *resettlements):
        proposal.may_decide = recalled is None and proposal.may_be_decided_by(user)
    return {
        "resettlements": resettlements,
        "approved": next((r for r in resettlements if r.status == ProposalStatus.APPROVED), None),
        "differing": differing,
        "uncomputed": uncomputed,
        "may_propose": may_propose,
        "voids": voids,
        "may_propose_void": may_propose_void,
        "outcome": outcome,
        "incidents": incidents.select_related("opened_by", "closed_by"),
        "refunds": refunds,
        "refund_total": refund_total,
        "currency": round_.table.currency,
        "archived_refusal": recalled.place.refusal(round_.round_id) if recalled is not None else None,
    }
