"""The threshold each monitor uses at each table, and its changes.

In force for a table: its own latest threshold in force, else its game's, else the monitor's default
(definitions.DEFINITIONS). A supervisor proposes a change for a game or a table with a reason; one
that makes the monitor more sensitive (a lower number) is in force at once, one that makes it less
sensitive waits for a compliance officer's approval. Every proposal is kept, with who, when and why.
"""

from decimal import Decimal, InvalidOperation

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from core.refusals import OwnDecisionRefused, TransitionRefused, require_reason
from tables.choices import Game
from tables.models import Table

from .choices import Monitor, ThresholdStatus
from .definitions import DEFINITIONS
from .models import Threshold

APPROVE = "alerts.approve_threshold"


def thresholds_in_force(tables) -> dict[tuple[int, str], Decimal]:
    """(table pk, monitor) → the threshold in force, for each of `tables` and every monitor: two
    queries, whatever the number of tables."""
    tables = list(tables)
    games = {table.game for table in tables}
    by_game, by_table = {}, {}
    rows = (
        Threshold.objects.filter(status=ThresholdStatus.IN_FORCE)
        .filter(game__in=games, table__isnull=True)
        .order_by("decided_at", "id")
        .values_list("game", "monitor", "value")
    )
    for game, monitor, value in rows:
        by_game[(game, monitor)] = value  # the latest wins
    rows = (
        Threshold.objects.filter(status=ThresholdStatus.IN_FORCE, table__in=[table.pk for table in tables])
        .order_by("decided_at", "id")
        .values_list("table", "monitor", "value")
    )
    for table_pk, monitor, value in rows:
        by_table[(table_pk, monitor)] = value
    return {
        (table.pk, monitor): by_table.get((table.pk, monitor))
        or by_game.get((table.game, monitor))
        or DEFINITIONS[monitor].default
        for table in tables
        for monitor in Monitor.values
    }


def threshold_in_force(monitor: str, *, table: Table | None = None, game: str = "") -> Decimal:
    """The threshold in force for a table, or for a game's tables without one of their own."""
    if table is not None:
        return thresholds_in_force([table])[(table.pk, monitor)]
    row = (
        Threshold.objects.filter(
            status=ThresholdStatus.IN_FORCE, game=game, table__isnull=True, monitor=monitor
        )
        .order_by("-decided_at", "-id")
        .values_list("value", flat=True)
        .first()
    )
    return row or DEFINITIONS[monitor].default


def _value(value) -> Decimal:
    try:
        value = Decimal(str(value))
    except InvalidOperation:
        raise ValidationError({"value": "Give the threshold as a number."}) from None
    if not value.is_finite():
        raise ValidationError({"value": "Give the threshold as a number."})
    return value


@transaction.atomic
def threshold_propose(
    *, monitor: str, value, reason: str, by, table: Table | None = None, game: str = ""
) -> Threshold:
    """A new threshold for a table or for a game's tables: in force now if it is as sensitive or more,
    else awaiting compliance."""
    reason = require_reason(reason)
    if monitor not in Monitor.values:
        raise ValidationError({"monitor": f"Unknown monitor {monitor!r}."})
    if (table is None) == (not game):
        raise ValidationError({"table": "Choose a table or a game, not both."})
    if game and game not in Game.values:
        raise ValidationError({"game": f"Unknown game {game!r}."})
    definition = DEFINITIONS[monitor]
    value = _value(value)
    if value < definition.minimum:
        raise ValidationError({"value": f"At least {definition.minimum} ({definition.unit})."})
    if value.as_tuple().exponent < -2 or value >= 10**12:
        raise ValidationError({"value": "At most 12 digits before the point and 2 after it."})
    if table is not None:
        table = Table.objects.select_for_update().get(pk=table.pk)
    scope = {"table": table} if table is not None else {"game": game, "table__isnull": True}
    if Threshold.objects.filter(monitor=monitor, status=ThresholdStatus.PENDING, **scope).exists():
        raise TransitionRefused(
            {"value": "A change of this threshold already awaits compliance: decide it first."}
        )
    previous = threshold_in_force(monitor, table=table, game=game)
    if value == previous:
        raise ValidationError({"value": f"{value} is the threshold in force already."})
    now = timezone.now()
    less_sensitive = value > previous
    return Threshold.objects.create(
        monitor=monitor,
        game=game,
        table=table,
        value=value,
        previous=previous,
        reason=reason,
        status=ThresholdStatus.PENDING if less_sensitive else ThresholdStatus.IN_FORCE,
        proposed_by=by,
        proposed_at=now,
        decided_at=None if less_sensitive else now,
    )


@transaction.atomic
def threshold_decide(*, threshold: Threshold, by, approve: bool, note: str = "") -> Threshold:
    """Compliance approves (in force now) or refuses a less sensitive threshold; never its proposer."""
    if not by.has_perm(APPROVE):
        raise PermissionDenied("Only compliance approves a less sensitive threshold.")
    threshold = Threshold.objects.select_for_update().get(pk=threshold.pk)
    if threshold.status != ThresholdStatus.PENDING:
        raise TransitionRefused({"threshold": "This change was decided already."})
    if threshold.proposed_by_id == by.pk:
        raise OwnDecisionRefused({"threshold": "Someone else decides a change you proposed."})
    if not approve and not note.strip():
        raise ValidationError({"note": "Say why the change is refused."})
    threshold.status = ThresholdStatus.IN_FORCE if approve else ThresholdStatus.REJECTED
    threshold.decided_by, threshold.decided_at = by, timezone.now()
    threshold.decision_note = note.strip()
    threshold.save()
    return threshold
