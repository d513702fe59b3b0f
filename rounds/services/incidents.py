"""Incidents: opened by a supervisor or by ingest (a round the game server sent as cancelled), either
way pausing an open table; notes build the timeline; it ends resumed, or with the server's cancelled
rounds cancelled here: every bet refunded what it wagered (a blackjack already dealt at a classic
table before a network failure paid 3:2), as Refund records and the round's correction.

Only a round the game server sent as cancelled is cancelled with refunds. A completed round was
settled: one hit by a malfunction is voided (voids.py), never refunded on top of its payouts.
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from core.money import money_text
from core.refusals import require_reason
from ledger.services import ledger_append
from tables.choices import TableStatus
from tables.models import Table, TableStatusChange
from tables.services import table_set_status

from ..choices import CorrectionKind, IncidentKind, IncidentStatus, RoundStatus
from ..models import Bet, Incident, IncidentNote, Refund, Round
from .common import TransitionRefused, by_name, required_text
from .corrections import correction_record, refuse_if_corrected, round_locked


def completed_round_refusal(round_: Round) -> str:
    return (
        f"Round {round_.round_id} was completed and settled: a settled round hit by a malfunction is "
        "voided, proposed by one supervisor and approved by another; it is never refunded on top of "
        "its payouts."
    )


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


def _pause_if_open(table: Table, incident: Incident, by, note: str) -> None:
    """A table with an open incident is never open: it pauses (a paused or closed one stays)."""
    if table.status == TableStatus.OPEN:
        table_set_status(
            table=table,
            status=TableStatus.PAUSED,
            changed_by=by,
            reason=f"{_pause_reason(incident)} — {note}",
        )


def _open_incident(incident: Incident) -> Incident:
    """The incident locked and still open, or a refusal naming how it ended."""
    incident = Incident.objects.select_for_update(of=("self",)).select_related("table").get(pk=incident.pk)
    if incident.status != IncidentStatus.OPEN:
        raise TransitionRefused(
            f"Incident {incident.pk} is closed ({incident.get_status_display().lower()} by "
            f"{by_name(incident.closed_by)}); nothing was changed."
        )
    return incident


@transaction.atomic
def incident_open(*, table: Table, kind: str, opened_by, note: str, round_: Round | None = None) -> Incident:
    """Open an incident on a table: the table pauses (if open) and the note starts the timeline."""
    note = required_text(note, "note", "Say what happened: the first note starts the incident's timeline.")
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
    _pause_if_open(table, incident, opened_by, note)
    return incident


@transaction.atomic
def incident_note_add(*, incident: Incident, author, text: str) -> IncidentNote:
    text = required_text(text, "text", "Write the note.")
    incident = _open_incident(incident)
    return IncidentNote.objects.create(incident=incident, author=author, text=text)


def unrefunded_server_cancelled_rounds(incident: Incident):
    """Rounds the game server sent as cancelled that joined this incident (its round, or any
    cancelled round of its table ingested while it was open) and whose bets have no refund yet."""
    refunded = Refund.objects.filter(bet__round=OuterRef("pk"))
    joined = Q(ingested_at__gte=incident.opened_at)
    if incident.closed_at is not None:
        joined &= Q(ingested_at__lte=incident.closed_at)
    if incident.round_id is not None:
        joined |= Q(pk=incident.round_id)
    return (
        Round.objects.filter(table=incident.table_id, status=RoundStatus.CANCELLED, correction__isnull=True)
        .filter(joined)
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
    note = required_text(note, "note", "Say why play can resume.")
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


def refund_amounts(round_: Round) -> dict[int, Decimal]:
    """What each bet of a round the game server sent as cancelled gets back: what the engine computed
    at ingest, exactly what it wagered except a blackjack already dealt at a table whose rules pay it
    on a network failure (3:2). Where the engine could not compute a bet, its reported wager."""
    amounts = {}
    for bet in Bet.objects.of_round(round_).order_by("id"):
        amount = bet.computed_returned
        if amount is None:
            amount = bet.computed_wagered if bet.computed_wagered is not None else bet.wagered
        amounts[bet.pk] = amount
    return amounts


def _refund(incident: Incident, round_: Round, cancelled_by) -> list[Refund]:
    refunds = Refund.objects.bulk_create(
        Refund(incident=incident, bet_id=bet_id, gaming_day=round_.gaming_day, amount=amount)
        for bet_id, amount in refund_amounts(round_).items()
    )
    ledger_append("refund", refunds)
    correction_record(
        round_=round_, kind=CorrectionKind.CANCELLED, incident=incident, recorded_by=cancelled_by
    )
    return refunds


@transaction.atomic
def incident_cancel_round(*, incident: Incident, round_: Round, cancelled_by, reason: str) -> Incident:
    """Cancel a round the game server sent as cancelled: every bet is refunded what it wagered (a
    dealt blackjack paid where the rules say so), and the incident ends cancelled. The server's other
    cancelled rounds of the incident get their refunds recorded too. A completed round is refused:
    it is voided instead (voids.py)."""
    reason = require_reason(reason)
    incident = _open_incident(incident)
    round_ = round_locked(round_)
    if round_.table_id != incident.table_id:
        raise ValidationError(
            {
                "round": f"Round {round_.round_id} was played at {round_.table.code}, "
                f"not {incident.table.code}."
            }
        )
    refuse_if_corrected(round_)
    if round_.status != RoundStatus.CANCELLED:
        raise TransitionRefused({"round": completed_round_refusal(round_)})
    refunds = _refund(incident, round_, cancelled_by)
    others = [round_locked(r) for r in unrefunded_server_cancelled_rounds(incident) if r.pk != round_.pk]
    for other in others:
        refunds += _refund(incident, other, cancelled_by)
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
    """A cancelled round that arrives by ingest joins the open incident on its table, or opens one;
    either way an open table pauses, as when a supervisor opens an incident (the availability log
    names the `ingest` account). Its refunds are recorded when the incident ends with the round
    cancelled (incident_cancel_round); until then the incident cannot be resumed."""
    table = Table.objects.select_for_update().get(pk=round_.table_id)
    incident = Incident.objects.select_for_update().filter(table=table, status=IncidentStatus.OPEN).first()
    reason = round_.cancel_reason or "other"
    if incident is None:
        kind = reason if reason in IncidentKind.values else IncidentKind.OTHER
        incident = Incident.objects.create(table=table, round=round_, kind=kind)
        note = f"Opened by the game server's cancelled round {round_.round_id} ({reason})."
    else:
        if incident.round_id is None:
            incident.round = round_
            incident.save(update_fields=["round"])
        note = f"The game server sent round {round_.round_id} as cancelled ({reason})."
    IncidentNote.objects.create(incident=incident, text=note)
    if table.status == TableStatus.OPEN:
        _pause_if_open(table, incident, None, note)  # None: the game server, by ingest
    return incident
