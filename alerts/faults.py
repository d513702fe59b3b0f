"""A confirmed game fault marked reportable: the figures a regulator's key-event report asks for,
worked out from the table's rounds over the period the fault affected."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Sum
from django.utils import timezone

from core.refusals import TransitionRefused
from core.rtp_stats import money
from rounds.models import Bet, Round

from .choices import AlertEventKind
from .models import Alert, AlertEvent, ReportableFault
from .services import require_note

MAX_PERIOD_DAYS = 31


def affected_figures(table_pk: int, affected_from: datetime, affected_to: datetime) -> dict:
    """Rounds opened at the table in the period, their players and their money as stored."""
    rounds = Round.objects.filter(table=table_pk, opened_at__gte=affected_from, opened_at__lte=affected_to)
    days = rounds.values("gaming_day").distinct()
    bets = Bet.objects.filter(round__in=rounds, gaming_day__in=days).aggregate(
        players=Count("player", distinct=True), wagered=Sum("wagered"), returned=Sum("returned")
    )
    return {
        "rounds": rounds.count(),
        "players": bets["players"] or 0,
        "wagered": money(bets["wagered"]),  # to the cent: SQLite sums decimals as floats
        "returned": money(bets["returned"]),
    }


@transaction.atomic
def fault_mark(
    *, alert: Alert, by, what_happened: str, affected_from: datetime, affected_to: datetime
) -> ReportableFault:
    """Mark the alert's fault confirmed and reportable, with the rounds it affected."""
    what_happened = require_note(what_happened)
    alert = Alert.objects.select_for_update().select_related("table").get(pk=alert.pk)
    if ReportableFault.objects.filter(alert=alert).exists():
        raise TransitionRefused({"alert": f"Alert {alert.pk} is marked reportable already."})
    if affected_to < affected_from:
        raise ValidationError({"affected_to": "The period ends after it starts."})
    if (affected_to - affected_from).days > MAX_PERIOD_DAYS:
        raise ValidationError({"affected_to": f"A fault's period is at most {MAX_PERIOD_DAYS} days."})
    now = timezone.now()
    if affected_from > now:
        raise ValidationError({"affected_from": "The period starts in the past."})
    figures = affected_figures(alert.table_id, affected_from, affected_to)
    fault = ReportableFault.objects.create(
        alert=alert,
        table=alert.table,
        game=alert.table.game,
        what_happened=what_happened,
        found_at=alert.first_seen,
        affected_from=affected_from,
        affected_to=affected_to,
        currency=alert.table.currency,
        marked_by=by,
        marked_at=now,
        **figures,
    )
    AlertEvent.objects.create(alert=alert, kind=AlertEventKind.REPORTABLE, at=now, by=by, note=what_happened)
    return fault
