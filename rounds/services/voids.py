"""Voids: a settled round hit by a malfunction ("Malfunctions void all plays and pays") is voided, at
any table. One supervisor proposes it with a reason (and the malfunction's incident, if one was
opened); another approves or rejects it. Approval records, per bet, the payout taken back (what it
was returned, as reported) and its stake given back (what it wagered, as reported), so each bet nets
to exactly what it wagered; and the round's correction. Nothing is refunded on top of a payout, and
the bets themselves never change."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from core.money import money_text
from core.refusals import require_reason
from ledger.services import ledger_append

from ..choices import CorrectionKind, IncidentStatus, ProposalStatus
from ..correction_policy import round_corrections, void_refusal
from ..models import Bet, Incident, IncidentNote, Round, Void, VoidLine
from .common import TransitionRefused, by_name, proposal_decidable, proposal_decide
from .corrections import correction_record, refuse_if_corrected, round_locked


@transaction.atomic
def void_propose(*, round_: Round, proposed_by, reason: str, incident: Incident | None = None) -> Void:
    """Propose to void a completed round; a supervisor other than the proposer decides. Refused, under
    the round's lock, for the reason `correction_policy.void_refusal` gives."""
    reason = require_reason(reason)
    round_ = round_locked(round_)
    if incident is not None and incident.table_id != round_.table_id:
        raise ValidationError(
            {"incident": f"Incident {incident.pk} is at another table than round {round_.round_id}."}
        )
    refusal = void_refusal(round_corrections(round_, shown=False))
    if refusal:
        raise TransitionRefused({"round": refusal})
    try:
        with transaction.atomic():
            return Void.objects.create(
                round=round_, incident=incident, reason=reason, proposed_by=proposed_by
            )
    except IntegrityError:  # another proposal won the race
        raise TransitionRefused({"round": f"Round {round_.round_id} already has a void proposed."}) from None


def void_lines(round_: Round) -> list[VoidLine]:
    """What voiding the round records, bet by bet (unsaved): the payout reversed, the stake returned."""
    bets = Bet.objects.of_round(round_).only("id", "wagered", "returned").order_by("id")
    return [VoidLine(bet=bet, reversed_returned=bet.returned, returned_stake=bet.wagered) for bet in bets]


@transaction.atomic
def void_approve(*, void: Void, decided_by, comment: str) -> Void:
    """Approve: one VoidLine per bet and the round's correction. Refused when the round was corrected
    (re-settled) since it was proposed."""
    void, comment = proposal_decidable(void, decided_by, comment, name="void", decider="supervisor")
    # The incident before the round, in the order incident_cancel_round takes them: no deadlock.
    incident = None
    if void.incident_id is not None:
        incident = Incident.objects.select_for_update(of=("self",)).get(pk=void.incident_id)
    round_ = round_locked(void.round)
    refuse_if_corrected(round_)
    lines = void_lines(round_)
    for line in lines:
        line.void = void
    VoidLine.objects.bulk_create(lines, batch_size=2000)
    ledger_append("void_line", lines)
    void = proposal_decide(void, ProposalStatus.APPROVED, decided_by, comment)
    correction_record(round_=round_, kind=CorrectionKind.VOIDED, void=void, recorded_by=decided_by)
    if incident is not None:
        if incident.status == IncidentStatus.OPEN:
            net = sum((line.net for line in lines), start=Decimal("0.00"))
            IncidentNote.objects.create(
                incident=incident,
                author=decided_by,
                text=f"Round {round_.round_id} voided (void {void.pk}, proposed by "
                f"{by_name(void.proposed_by)}): {len(lines)} bet(s), each returned what it wagered; "
                f"{money_text(net)} {round_.table.currency} in all against the payouts.",
            )
    return void


@transaction.atomic
def void_reject(*, void: Void, decided_by, comment: str) -> Void:
    """Reject the proposal: nothing is voided; the round may be proposed again."""
    void, comment = proposal_decidable(void, decided_by, comment, name="void", decider="supervisor")
    return proposal_decide(void, ProposalStatus.REJECTED, decided_by, comment)
