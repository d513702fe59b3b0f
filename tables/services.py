"""Every write to tables: creating them, changing their rules, opening, pausing and closing them."""

from collections.abc import Callable, Mapping
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from config.refusals import refused_when_taken, require_reason
from rounds.engine.rules import RuleError, preset

from .choices import Currency, Game, TableStatus
from .models import Table, TableConfiguration, TableStatusChange
from .odds import configuration_odds_schedule

# Checks another app adds (apps depend downwards: tables never imports them). Each is called as
# `guard(table, new_status)` before a status change and returns a message to refuse it, or None.
StatusGuard = Callable[[Table, str], str | None]
status_guards: list[StatusGuard] = []

# What a supervisor may change of a game's preset rules; the rest is the game itself.
CHANGEABLE_RULES = frozenset({"seats", "side_options", "auto_play", "strategy_overrides"})


@transaction.atomic
def table_create(
    *,
    code: str,
    name: str,
    game: str,
    currency: str,
    studio: str,
    facilitator: str = "",
    created_by,
    reason: str = "New table",
    first_version_from: datetime | None = None,
) -> Table:
    """A new table, closed, with version 1 of its configuration: the game's preset rules, in force
    from now (or from `first_version_from`: no round of a new table can have been checked yet)."""
    if game not in Game.values:
        raise ValidationError({"game": f"Unknown game {game!r}: one of {', '.join(Game.values)}."})
    if currency not in Currency.values:
        raise ValidationError({"currency": f"Unknown currency {currency!r}."})
    if Table.objects.filter(code=code).exists():
        raise ValidationError({"code": f"The code {code} is already taken."})
    table = Table(code=code, name=name, game=game, currency=currency, studio=studio, facilitator=facilitator)
    table.full_clean()
    table._change_reason = reason
    with refused_when_taken("code", f"The code {code} is already taken."):
        table.save()
    first = TableConfiguration.objects.create(
        table=table,
        version=1,
        valid_from=first_version_from or timezone.now(),
        rules=preset(game).to_dict(),
        reason=reason,
        created_by=created_by,
    )
    configuration_odds_schedule(first)
    return table


@transaction.atomic
def table_update(*, table: Table, changed_by, reason: str, **fields) -> Table:
    """Change a table's name, studio or facilitator on duty; kept in its history with the reason."""
    reason = require_reason(reason)
    allowed = {"name", "studio", "facilitator"}
    for name in fields:
        if name not in allowed:
            raise ValidationError({name: "This cannot be changed here."})
    # Read afresh and save only these fields: a stale `table` must not undo a status change made since.
    fresh = Table.objects.select_for_update().get(pk=table.pk)
    for name, value in fields.items():
        setattr(fresh, name, value)
    fresh.full_clean()
    fresh._change_reason = reason
    fresh._history_user = changed_by
    fresh.save(update_fields=list(fields))
    for name, value in fields.items():
        setattr(table, name, value)
    return fresh


@transaction.atomic
def configuration_change(
    *,
    table: Table,
    changes: Mapping,
    changed_by,
    reason: str,
    valid_from: datetime | None = None,
) -> TableConfiguration:
    """A new configuration version with `changes` (the RuleSet's stored form) from `valid_from`.

    A version is in force from its `valid_from` on; it may not start in the past, so a version
    that rounds were played under never changes.
    """
    reason = require_reason(reason)
    table = Table.objects.select_for_update().get(pk=table.pk)
    now = timezone.now()
    valid_from = valid_from or now
    if valid_from < now - timezone.timedelta(seconds=5):
        raise ValidationError({"valid_from": "A new version cannot start in the past."})
    for name in changes:
        if name not in CHANGEABLE_RULES:
            changeable = ", ".join(sorted(CHANGEABLE_RULES))
            raise ValidationError({f"rules.{name}": f"Not changeable at a table (changeable: {changeable})."})
    latest = table.configurations.order_by("-version").first()
    if latest and valid_from <= latest.valid_from:
        raise ValidationError(
            {"valid_from": f"Must be after version {latest.version} starts ({latest.valid_from})."}
        )
    offered = {option.kind for option in preset(table.game).side_options}
    for kind in changes.get("side_options") or {}:
        if kind not in offered:
            raise ValidationError(
                {f"rules.side_options.{kind}": f"{table.get_game_display()} has no {kind} option."}
            )
    try:
        rules = latest.rule_set.with_changes(changes)
    except RuleError as error:
        raise ValidationError({f"rules.{error.field}": error.message}) from None
    if rules == latest.rule_set:
        raise ValidationError({"rules": "Nothing changes: the rules are those of the current version."})
    configuration = TableConfiguration.objects.create(
        table=table,
        version=latest.version + 1,
        valid_from=valid_from,
        rules=rules.to_dict(),
        reason=reason,
        created_by=changed_by,
    )
    configuration_odds_schedule(configuration)
    return configuration


@transaction.atomic
def table_set_status(*, table: Table, status: str, changed_by, reason: str) -> TableStatusChange:
    """Open, pause or close a table; the change goes into the game availability log."""
    reason = require_reason(reason)
    if status not in TableStatus.values:
        raise ValidationError({"status": f"Unknown status {status!r}."})
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status == status:
        raise ValidationError({"status": f"{table.code} is already {table.get_status_display().lower()}."})
    for guard in status_guards:
        refusal = guard(table, status)
        if refusal:
            raise ValidationError({"status": refusal})
    change = TableStatusChange.objects.create(
        table=table, from_status=table.status, to_status=status, reason=reason, changed_by=changed_by
    )
    table.status = status
    table.save(update_fields=["status"])
    return change
