"""Every write to round history after ingest: re-settlements and incidents.

History is never edited. A re-settlement records one Adjustment per bet (computed minus reported
returned) once a second person approves it; a cancelled round records one Refund per bet. The bets
themselves never change.

Refusals: bad input is a ValidationError naming the field (HTTP 400, a form error); a transition the
record's state does not allow is a `TransitionRefused` (HTTP 409); deciding your own proposal is an
`OwnDecisionRefused` (HTTP 403). Both are ValidationErrors, so a page shows them like any other.
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from config.money import money_text
from config.refusals import require_reason
from rounds.engine.document import RoundFormatError, parse_round
from rounds.engine.replay import replay
from rounds.engine.rules import RuleSet, preset
from tables.choices import TableStatus
from tables.models import Table, TableStatusChange
from tables.services import table_set_status

from .choices import CancelReason, IncidentKind, IncidentStatus, ResettlementStatus, RoundStatus
from .models import Adjustment, Bet, Incident, IncidentNote, Refund, Resettlement, Round


class TransitionRefused(ValidationError):
    """The record is not in a state that allows this step (HTTP 409). Nothing was changed."""

    status_code = 409


class OwnDecisionRefused(TransitionRefused):
    """A second person must decide (HTTP 403). Nothing was changed."""

    status_code = 403


def _require(text: str, field: str, message: str) -> str:
    if not text or not text.strip():
        raise ValidationError({field: message})
    return text.strip()


def _by(user) -> str:
    return user.get_username() if user is not None else "the system"


# --- re-settlements ------------------------------------------------------------------------------


def bets_to_adjust(round_: Round):
    """The bets whose computed returned differs from the reported one (bets the engine cannot
    compute, computed None, are never adjusted)."""
    return (
        Bet.objects.filter(round=round_, computed_returned__isnull=False)
        .exclude(computed_returned=F("returned"))
        .order_by("id")
    )


@transaction.atomic
def resettlement_propose(*, round_: Round, proposed_by, reason: str) -> Resettlement:
    """Propose to pay the round's bets what the engine computes; a supervisor decides."""
    reason = require_reason(reason)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == RoundStatus.CANCELLED:
        raise TransitionRefused(
            {
                "round": f"Round {round_.round_id} was cancelled: its bets are refunded through its "
                "incident, not re-settled."
            }
        )
    pending = (
        Resettlement.objects.filter(
            round=round_, status__in=[ResettlementStatus.PROPOSED, ResettlementStatus.APPROVED]
        )
        .order_by("-id")
        .first()
    )
    if pending is not None:
        raise TransitionRefused(
            {
                "round": f"Round {round_.round_id} already has re-settlement {pending.pk}, "
                f"{pending.get_status_display().lower()}; nothing was changed."
            }
        )
    if not bets_to_adjust(round_).exists():
        uncomputed = Bet.objects.filter(round=round_, computed_returned__isnull=True).count()
        extra = f" ({uncomputed} bet(s) the engine cannot compute are never adjusted)" if uncomputed else ""
        raise TransitionRefused(
            {
                "round": f"Nothing to re-settle: every bet of round {round_.round_id} was paid what the "
                f"engine computes{extra}."
            }
        )
    try:
        with transaction.atomic():
            return Resettlement.objects.create(round=round_, reason=reason, proposed_by=proposed_by)
    except IntegrityError:  # another proposal won the race
        raise TransitionRefused(
            {"round": f"Round {round_.round_id} already has an open or approved re-settlement."}
        ) from None


def _decidable(resettlement: Resettlement, decided_by, comment: str) -> tuple[Resettlement, str]:
    comment = _require(comment, "comment", "Say why: the decision is kept with its comment.")
    resettlement = (
        Resettlement.objects.select_for_update(of=("self",)).select_related("round").get(pk=resettlement.pk)
    )
    if resettlement.status != ResettlementStatus.PROPOSED:
        raise TransitionRefused(
            f"Re-settlement {resettlement.pk} was already {resettlement.get_status_display().lower()} "
            f"by {_by(resettlement.decided_by)}; a decision is not made twice."
        )
    if resettlement.proposed_by_id == decided_by.pk:
        raise OwnDecisionRefused(
            f"You proposed re-settlement {resettlement.pk}: another person must approve or reject it."
        )
    return resettlement, comment


def _decide(resettlement: Resettlement, status: str, decided_by, comment: str) -> Resettlement:
    resettlement.status = status
    resettlement.decided_by = decided_by
    resettlement.decided_at = timezone.now()
    resettlement.decision_comment = comment
    resettlement.save(update_fields=["status", "decided_by", "decided_at", "decision_comment"])
    return resettlement


@transaction.atomic
def resettlement_approve(*, resettlement: Resettlement, decided_by, comment: str) -> Resettlement:
    """Approve: one Adjustment per bet whose computed returned differs (computed − reported)."""
    resettlement, comment = _decidable(resettlement, decided_by, comment)
    Adjustment.objects.bulk_create(
        Adjustment(resettlement=resettlement, bet=bet, amount=bet.computed_returned - bet.returned)
        for bet in bets_to_adjust(resettlement.round)
    )
    return _decide(resettlement, ResettlementStatus.APPROVED, decided_by, comment)


@transaction.atomic
def resettlement_reject(*, resettlement: Resettlement, decided_by, comment: str) -> Resettlement:
    resettlement, comment = _decidable(resettlement, decided_by, comment)
    return _decide(resettlement, ResettlementStatus.REJECTED, decided_by, comment)


# --- incidents -----------------------------------------------------------------------------------


def incident_status_guard(table: Table, new_status: str) -> str | None:
    """Registered in tables.services.status_guards: a table does not open while an incident is open."""
    if new_status != TableStatus.OPEN:
        return None
    incident = Incident.objects.filter(table=table, status=IncidentStatus.OPEN).first()
    if incident is None:
        return None
    return (
        f"{table.code} cannot open while incident {incident.pk} ({incident.get_kind_display().lower()}) "
        "is open: resume it or cancel its round first."
    )


def _pause_reason(incident: Incident) -> str:
    return f"Incident {incident.pk}: {incident.get_kind_display().lower()}"


def _open_incident(incident: Incident) -> Incident:
    """The incident locked and still open, or a refusal naming how it ended."""
    incident = Incident.objects.select_for_update(of=("self",)).select_related("table").get(pk=incident.pk)
    if incident.status != IncidentStatus.OPEN:
        raise TransitionRefused(
            f"Incident {incident.pk} is closed ({incident.get_status_display().lower()} by "
            f"{_by(incident.closed_by)}); nothing was changed."
        )
    return incident


@transaction.atomic
def incident_open(*, table: Table, kind: str, opened_by, note: str, round_: Round | None = None) -> Incident:
    """Open an incident on a table: the table pauses (if open) and the note starts the timeline."""
    note = _require(note, "note", "Say what happened: the first note starts the incident's timeline.")
    if kind not in IncidentKind.values:
        raise ValidationError({"kind": f"Unknown kind {kind!r}: one of {', '.join(IncidentKind.values)}."})
    table = Table.objects.select_for_update().get(pk=table.pk)
    if round_ is not None and round_.table_id != table.pk:
        raise ValidationError({"round": f"Round {round_.round_id} was played at another table."})
    existing = Incident.objects.filter(table=table, status=IncidentStatus.OPEN).first()
    if existing is not None:
        raise TransitionRefused(
            {"table": f"{table.code} already has an open incident ({existing.pk}): add a note to it instead."}
        )
    incident = Incident.objects.create(table=table, round=round_, kind=kind, opened_by=opened_by)
    IncidentNote.objects.create(incident=incident, author=opened_by, text=note)
    if table.status == TableStatus.OPEN:
        table_set_status(
            table=table,
            status=TableStatus.PAUSED,
            changed_by=opened_by,
            reason=f"{_pause_reason(incident)} — {note}",
        )
    return incident


@transaction.atomic
def incident_note_add(*, incident: Incident, author, text: str) -> IncidentNote:
    text = _require(text, "text", "Write the note.")
    incident = _open_incident(incident)
    return IncidentNote.objects.create(incident=incident, author=author, text=text)


def unrefunded_server_cancelled_rounds(incident: Incident):
    """Rounds the game server sent as cancelled that joined this incident (its round, or any
    cancelled round of its table ingested while it was open) and whose bets have no refund yet."""
    refunded = Refund.objects.filter(bet__round=OuterRef("pk"))
    window = Q(ingested_at__gte=incident.opened_at)
    if incident.closed_at is not None:
        window &= Q(ingested_at__lte=incident.closed_at)
    return (
        Round.objects.filter(table=incident.table_id, status=RoundStatus.CANCELLED)
        .filter(Q(pk=incident.round_id) | window)
        .filter(bet_count__gt=0)
        .exclude(Exists(refunded))
        .order_by("id")
    )


def _reopen_if_paused_by(incident: Incident, by, text: str) -> None:
    """Ending an incident opens the table again when this incident paused it and nothing changed
    its status since: play resumes, as a supervisor ending an incident expects."""
    table = incident.table
    last = TableStatusChange.objects.filter(table=table).order_by("-changed_at", "-id").first()
    if (
        table.status == TableStatus.PAUSED
        and last is not None
        and last.to_status == TableStatus.PAUSED
        and last.reason.startswith(_pause_reason(incident))
    ):
        table_set_status(table=table, status=TableStatus.OPEN, changed_by=by, reason=text)


def _close(incident: Incident, status: str, by, note: str) -> Incident:
    incident.status = status
    incident.closed_by = by
    incident.closed_at = timezone.now()
    incident.save(update_fields=["status", "closed_by", "closed_at", "round"])
    IncidentNote.objects.create(incident=incident, author=by, text=note)
    return incident


@transaction.atomic
def incident_resume(*, incident: Incident, resumed_by, note: str) -> Incident:
    """End the incident with play resumed; the table opens again if this incident paused it."""
    note = _require(note, "note", "Say why play can resume.")
    incident = _open_incident(incident)
    waiting = list(unrefunded_server_cancelled_rounds(incident).values_list("round_id", flat=True))
    if waiting:
        raise TransitionRefused(
            f"The game server cancelled round {', '.join(waiting)}: cancel it here so its refunds are "
            "recorded (that ends the incident)."
        )
    _close(incident, IncidentStatus.RESUMED, resumed_by, f"Resumed: {note}")
    _reopen_if_paused_by(incident, resumed_by, f"Incident {incident.pk} resumed: {note}")
    return incident


def _rules(round_: Round) -> RuleSet:
    return round_.configuration.rule_set if round_.configuration_id else preset(round_.table.game)


def refund_amounts(round_: Round, kind: str) -> dict[int, Decimal]:
    """What each bet of `round_` gets back when the round is cancelled: exactly what it wagered,
    except a blackjack already dealt at a table whose rules pay it on a network failure (3:2).

    A round the game server sent as cancelled has these amounts already computed by the engine at
    ingest. A round sent as completed is re-played by the engine as cancelled for the incident's
    kind. Where the engine cannot compute a bet, the reported wager is refunded.
    """
    bets = list(Bet.objects.filter(round=round_).order_by("id"))
    computed: dict[str, Decimal | None] = {}
    if round_.status == RoundStatus.CANCELLED:
        computed = {bet.bet_id: bet.computed_returned for bet in bets}
    else:
        reason = kind if kind in CancelReason.values else CancelReason.PROCEDURE_ERROR
        document = {**round_.document, "status": "cancelled", "cancel_reason": reason}
        try:
            result = replay(parse_round(document), _rules(round_))
        except RoundFormatError:
            result = None
        if result is not None:
            computed = {bet_id: bet.returned for bet_id, bet in result.bets.items()}
    amounts = {}
    for bet in bets:
        amount = computed.get(bet.bet_id)
        if amount is None:
            amount = bet.computed_wagered if bet.computed_wagered is not None else bet.wagered
        amounts[bet.pk] = amount
    return amounts


def _refund(incident: Incident, round_: Round, kind: str) -> list[Refund]:
    already = set(Refund.objects.filter(bet__round=round_).values_list("bet_id", flat=True))
    refunds = [
        Refund(incident=incident, bet_id=bet_id, amount=amount)
        for bet_id, amount in refund_amounts(round_, kind).items()
        if bet_id not in already
    ]
    return Refund.objects.bulk_create(refunds)


@transaction.atomic
def incident_cancel_round(*, incident: Incident, round_: Round, cancelled_by, reason: str) -> Incident:
    """Cancel a round of the incident's table: every bet is refunded what it wagered (a dealt
    blackjack paid where the rules say so), and the incident ends cancelled. Rounds the game server
    sent as cancelled during the incident get their refunds recorded too."""
    reason = require_reason(reason)
    incident = _open_incident(incident)
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("table", "configuration")
        .get(pk=round_.pk)
    )
    if round_.table_id != incident.table_id:
        raise ValidationError(
            {
                "round": f"Round {round_.round_id} was played at {round_.table.code}, "
                f"not {incident.table.code}."
            }
        )
    earlier = Refund.objects.filter(bet__round=round_).select_related("incident").first()
    if earlier is not None:
        raise TransitionRefused(
            {
                "round": f"Round {round_.round_id} was cancelled already (incident {earlier.incident_id}); "
                "its refunds are recorded and are not made twice."
            }
        )
    refunds = _refund(incident, round_, incident.kind)
    others = [r for r in unrefunded_server_cancelled_rounds(incident) if r.pk != round_.pk]
    for other in others:
        refunds += _refund(incident, other, other.cancel_reason or incident.kind)
    if incident.round_id is None:
        incident.round = round_
    total = sum((refund.amount for refund in refunds), start=Decimal("0.00"))
    also = f" (and the game server's cancelled {', '.join(r.round_id for r in others)})" if others else ""
    _close(
        incident,
        IncidentStatus.CANCELLED,
        cancelled_by,
        f"Round {round_.round_id}{also} cancelled: {reason}. {len(refunds)} bet(s) refunded, "
        f"{money_text(total)} {incident.table.currency} in all.",
    )
    _reopen_if_paused_by(
        incident, cancelled_by, f"Incident {incident.pk} ended: round {round_.round_id} cancelled"
    )
    return incident


@transaction.atomic
def incident_attach_cancelled_round(*, round_: Round) -> Incident:
    """A cancelled round that arrives by ingest joins the open incident on its table, or opens one.
    Its refunds are recorded when the incident ends with the round cancelled (incident_cancel_round);
    until then the incident cannot be resumed."""
    incident = (
        Incident.objects.select_for_update().filter(table=round_.table, status=IncidentStatus.OPEN).first()
    )
    reason = round_.cancel_reason or "other"
    if incident is None:
        kind = reason if reason in IncidentKind.values else IncidentKind.OTHER
        incident = Incident.objects.create(table=round_.table, round=round_, kind=kind)
        IncidentNote.objects.create(
            incident=incident,
            text=f"Opened by the game server's cancelled round {round_.round_id} ({reason}).",
        )
    else:
        if incident.round_id is None:
            incident.round = round_
            incident.save(update_fields=["round"])
        IncidentNote.objects.create(
            incident=incident, text=f"The game server sent round {round_.round_id} as cancelled ({reason})."
        )
    return incident
