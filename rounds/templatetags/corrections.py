"""{% round_corrections round as corrections %}: a round's re-settlements, incidents and refunds, for
the partial `rounds/includes/round_corrections.html` on the round page."""

from decimal import Decimal

from django import template
from django.db.models import F, Q

from rounds.choices import ResettlementStatus
from rounds.models import Incident, Refund

register = template.Library()


@register.simple_tag(takes_context=True)
def round_corrections(context, round_) -> dict:
    user = context["request"].user if "request" in context else None
    resettlements = list(
        round_.resettlements.select_related("proposed_by", "decided_by").prefetch_related(
            "adjustments__bet__player"
        )
    )
    refunds = list(Refund.objects.filter(bet__round=round_).select_related("bet__player"))
    refund_total = sum((refund.amount for refund in refunds), Decimal(0)) if refunds else None
    incidents = Incident.objects.filter(Q(round=round_) | Q(refunds__bet__round=round_)).distinct()
    pending = any(
        r.status in (ResettlementStatus.PROPOSED, ResettlementStatus.APPROVED) for r in resettlements
    )
    # One query for both: the bets to adjust (services.bets_to_adjust) and those the engine cannot
    # compute (computed NULL, which the exclusion keeps).
    differing, uncomputed = [], 0
    for bet in round_.bets.exclude(computed_returned=F("returned")).select_related("player").order_by("id"):
        if bet.computed_returned is None:
            uncomputed += 1
        else:
            differing.append(bet)
    may_propose = bool(
        user
        and user.has_perm("rounds.add_resettlement")
        and differing
        and not pending
        and round_.status != "cancelled"
    )
    for resettlement in resettlements:
        resettlement.may_decide = bool(
            user
            and resettlement.status == ResettlementStatus.PROPOSED
            and user.has_perm("rounds.decide_resettlement")
            and resettlement.proposed_by_id != user.pk
        )
    return {
        "resettlements": resettlements,
        "approved": next((r for r in resettlements if r.status == ResettlementStatus.APPROVED), None),
        "differing": differing,
        "uncomputed": uncomputed,
        "may_propose": may_propose,
        "incidents": incidents.select_related("opened_by", "closed_by"),
        "refunds": refunds,
        "refund_total": refund_total,
        "currency": round_.table.currency,
    }
