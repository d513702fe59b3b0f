"""Whether a void or a re-settlement may be proposed for a round, and why not: one rule, decided from
a round's corrections read once (`round_corrections`).

The services ask it under the round's lock and refuse with its reason (a TransitionRefused naming
`round`: HTTP 409 in the API, a form error on a page); the round page asks it to offer a proposal's
form or link, or to say why none is offered. The same reason, word for word, everywhere.

A round takes one correction (an approved re-settlement, the refunds of a cancellation, an approved
void), never two, and one proposal at a time awaits its decision.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connection
from django.db.models import Q
from django.utils.functional import cached_property

from .choices import CorrectionKind, ProposalStatus, RoundStatus
from .models import Bet, Incident, Refund, Resettlement, Round, RoundCorrection, Void
from .querysets import PAID_OTHER_THAN_COMPUTED

ONE_PER_BET = "a bet takes one correction; nothing was changed."


def by_name(user) -> str:
    return user.get_username() if user is not None else "the system"


def correction_described(correction: RoundCorrection) -> str:
    """What the round received, in a few words: "re-settled (re-settlement 3, approved by sam)"."""
    if correction.kind == CorrectionKind.RESETTLED:
        resettlement = correction.resettlement
        return f"re-settled (re-settlement {resettlement.pk}, approved by {by_name(resettlement.decided_by)})"
    if correction.kind == CorrectionKind.VOIDED:
        return f"voided (void {correction.void_id}, approved by {by_name(correction.void.decided_by)})"
    return f"cancelled already, in incident {correction.incident_id}, every bet refunded"


def corrected_refusal(round_: Round, correction: RoundCorrection) -> str:
    """Why a round that received `correction` takes no other."""
    return f"Round {round_.round_id} was {correction_described(correction)}: {ONE_PER_BET}"


def correction_of(round_: Round) -> RoundCorrection | None:
    """The round's one correction, with what `correction_described` names; None when it has none."""
    return (
        RoundCorrection.objects.filter(round_id=round_.pk)
        .select_related("resettlement__decided_by", "void__decided_by")
        .first()
    )


# --- a round's corrections, read once ------------------------------------------------------------


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


def corrections_present(round_: Round) -> Present:
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


@dataclass(frozen=True)
class RoundCorrections:
    """A round's corrections as read by `round_corrections`: what the policy decides from, and (when
    read `shown`) what the round page shows, each with what its rows name, so rendering reads nothing."""

    round: Round
    correction: RoundCorrection | None  # None too for an archived round (it takes none: `archived`)
    resettlements: list[Resettlement]  # oldest first; `adjustment_rows` each, when shown
    voids: list[Void]  # oldest first
    differing: list[Bet]  # paid other than the engine computes, where it computes them: to adjust
    uncomputed: int  # bets the engine cannot compute: never adjusted
    refunds: list[Refund] = field(default_factory=list)  # read when shown
    incidents: list[Incident] = field(default_factory=list)  # read when shown
    archived: str | None = None  # why an archived round takes no correction (how to restore it)

    @property
    def refund_total(self) -> Decimal | None:
        return sum((refund.amount for refund in self.refunds), Decimal(0)) if self.refunds else None

    @property
    def approved_resettlement(self) -> Resettlement | None:
        return next((r for r in self.resettlements if r.status == ProposalStatus.APPROVED), None)

    def proposed(self, proposals: list) -> object | None:
        """The first of `proposals` still awaiting its decision."""
        return next((p for p in proposals if p.status == ProposalStatus.PROPOSED), None)


def round_corrections(round_: Round, *, recalled=None, shown: bool = True) -> RoundCorrections:
    """The round's corrections: one query says which it has, one more reads each kind it has; its
    correction (`round_.correction`) is read with the round on its page, here otherwise.
    `recalled`: the round read back from the archive (its bets, adjustments and refunds from there,
    the rest from the database). `shown=False` (the services) reads only what the policy needs."""
    present = corrections_present(round_) if recalled is None else recalled_present(recalled)
    correction = None
    if recalled is None:
        try:  # read with the round on its page (select_related), else here
            correction = round_.correction
        except RoundCorrection.DoesNotExist:
            pass
    resettlements = []
    if present.resettlements:
        query = Resettlement.objects.filter(round_id=round_.pk).order_by("id")
        if shown:
            query = query.select_related("proposed_by", "decided_by")
            if recalled is None:
                query = query.prefetch_related("adjustments__bet__player")
        resettlements = list(query)
    if shown:
        for resettlement in resettlements:
            if recalled is None:
                resettlement.adjustment_rows = list(resettlement.adjustments.all())
            else:
                resettlement.adjustment_rows = [
                    a for a in recalled.adjustments if a.resettlement_id == resettlement.pk
                ]
    voids = []
    if present.voids:
        query = Void.objects.filter(round_id=round_.pk).order_by("id")
        if shown:
            query = query.select_related("proposed_by", "decided_by", "incident")
        voids = list(query)
    if correction is not None:  # what correction_described names: the proposal, as read here
        if correction.resettlement_id is not None:
            correction.resettlement = next(r for r in resettlements if r.pk == correction.resettlement_id)
        if correction.void_id is not None:
            correction.void = next(v for v in voids if v.pk == correction.void_id)
    # One query for both: the bets to adjust and those the engine cannot compute (computed NULL).
    bets = []
    if recalled is not None:
        bets = recalled.differing
    elif present.differing_bets:
        query = Bet.objects.of_round(round_).paid_other_than_computed().order_by("id")
        bets = list(query.select_related("player") if shown else query)
    differing = [bet for bet in bets if bet.computed_returned is not None]
    refunds, incidents = [], []
    if shown:
        incidents_of = None
        if recalled is not None:
            refunds = recalled.refunds
            incidents_of = Q(round_id=round_.pk) | Q(pk__in={r.incident_id for r in refunds})
        else:
            if present.refunds:
                refunds = list(Refund.objects.filter(bet__round=round_).select_related("bet__player"))
            if present.refunds or present.incidents:
                incidents_of = Q(round=round_) | Q(refunds__bet__round=round_)
        if incidents_of is not None:
            incidents = list(
                Incident.objects.filter(incidents_of).distinct().select_related("opened_by", "closed_by")
            )
    return RoundCorrections(
        round=round_,
        correction=correction,
        resettlements=resettlements,
        voids=voids,
        differing=differing,
        uncomputed=len(bets) - len(differing),
        refunds=refunds,
        incidents=incidents,
        archived=recalled.place.refusal(round_.round_id) if recalled is not None else None,
    )


# --- the policy ------------------------------------------------------------------------------------


def _awaiting(round_: Round, proposal, what: str, proposing: str) -> str:
    """One proposal at a time: a void is not proposed while a re-settlement awaits its decision, nor
    a re-settlement while a void does."""
    return (
        f"Round {round_.round_id} has {what} {proposal.pk} proposed: a supervisor approves or "
        f"rejects it before a {proposing} is proposed, as {ONE_PER_BET}"
    )


def void_refusal(corrections: RoundCorrections) -> str | None:
    """Why no void of the round may be proposed; None when one may."""
    round_ = corrections.round
    if corrections.archived:
        return corrections.archived
    if round_.status == RoundStatus.CANCELLED:
        return (
            f"Round {round_.round_id} was cancelled by the game server: it is cancelled in "
            "its incident (every bet refunded what it wagered), not voided."
        )
    if corrections.correction is not None:
        return corrected_refusal(round_, corrections.correction)
    void = corrections.proposed(corrections.voids)
    if void is not None:
        return f"Round {round_.round_id} already has void {void.pk} proposed; nothing was changed."
    resettlement = corrections.proposed(corrections.resettlements)
    if resettlement is not None:
        return _awaiting(round_, resettlement, "re-settlement", "void")
    if round_.bet_count == 0:
        return f"Round {round_.round_id} has no bet: there is nothing to void."
    return None


def resettlement_refusal(corrections: RoundCorrections) -> str | None:
    """Why no re-settlement of the round may be proposed; None when one may."""
    round_ = corrections.round
    if corrections.archived:
        return corrections.archived
    if round_.status == RoundStatus.CANCELLED:
        return (
            f"Round {round_.round_id} was cancelled: its bets are refunded through its "
            "incident, not re-settled."
        )
    standing = [
        r for r in corrections.resettlements if r.status in (ProposalStatus.PROPOSED, ProposalStatus.APPROVED)
    ]
    if standing:
        latest = standing[-1]
        return (
            f"Round {round_.round_id} already has re-settlement {latest.pk}, "
            f"{latest.get_status_display().lower()}; nothing was changed."
        )
    if corrections.correction is not None:
        return corrected_refusal(round_, corrections.correction)
    void = corrections.proposed(corrections.voids)
    if void is not None:
        return _awaiting(round_, void, "void", "re-settlement")
    if not corrections.differing:
        extra = ""
        if corrections.uncomputed:
            extra = f" ({corrections.uncomputed} bet(s) the engine cannot compute are never adjusted)"
        return (
            f"Nothing to re-settle: every bet of round {round_.round_id} was paid what the "
            f"engine computes{extra}."
        )
    return None
