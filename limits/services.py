"""Every write to players and limits. Each change keeps who, when, before, after and why."""

from datetime import timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from config.money import money_text
from config.refusals import refused_when_taken, require_reason
from tables.choices import Currency, Game
from tables.models import Table
from tables.selectors import configuration_in_force

from .choices import TABLE_LIMIT_KINDS, AccountType, BetKind, PlayerStatus
from .models import PersonalLimit, Player, TableLimit
from .selectors import personal_limit_settings

RAISE_DELAY = timedelta(hours=24)  # UK and Malta: a loosening takes effect only a day later


def _check_amount(name: str, amount: Decimal | None, *, required: bool) -> None:
    if amount is None:
        if required:
            raise ValidationError({name: "Required."})
        return
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise ValidationError({name: "Must be an amount such as 10.00."})
    if amount <= 0:
        raise ValidationError({name: "Must be above 0."})
    if amount.as_tuple().exponent < -2:
        raise ValidationError({name: "At most 2 decimals."})


def _check_range(min_stake: Decimal | None, max_stake: Decimal | None) -> None:
    if min_stake is not None and max_stake is not None and min_stake > max_stake:
        above = f"The minimum {money_text(min_stake)} is above the maximum {money_text(max_stake)}."
        raise ValidationError({"min_stake": above})


@transaction.atomic
def player_create(
    *,
    external_id: str,
    currency: str,
    display_name: str = "",
    account_type: str = AccountType.REAL,
    status: str = PlayerStatus.ACTIVE,
    created_by=None,
    reason: str = "New player",
) -> Player:
    if Player.objects.filter(external_id=external_id).exists():
        raise ValidationError({"external_id": f"Player {external_id} already exists."})
    if currency not in Currency.values:
        raise ValidationError({"currency": f"Unknown currency {currency!r}."})
    player = Player(
        external_id=external_id,
        display_name=display_name,
        account_type=account_type,
        currency=currency,
        status=status,
    )
    player.full_clean()
    player._change_reason = reason
    player._history_user = created_by
    with refused_when_taken("external_id", f"Player {external_id} already exists."):
        player.save()
    return player


@transaction.atomic
def player_update(*, player: Player, changed_by, reason: str, **fields) -> Player:
    reason = require_reason(reason)
    for name, value in fields.items():
        if name not in {"display_name", "account_type", "status"}:
            raise ValidationError({name: "This cannot be changed."})
        setattr(player, name, value)
    player.full_clean()
    player._change_reason = reason
    player._history_user = changed_by
    player.save()
    return player


@transaction.atomic
def table_limit_set(
    *,
    table: Table,
    kind: str,
    min_stake: Decimal,
    max_stake: Decimal,
    changed_by,
    reason: str,
    currency: str = "",
) -> TableLimit:
    """Set a table's stake range for one bet kind (insurance follows from the main bet's)."""
    reason = require_reason(reason)
    if kind not in dict(TABLE_LIMIT_KINDS):
        known = ", ".join(dict(TABLE_LIMIT_KINDS))
        raise ValidationError({"kind": f"Unknown bet kind {kind!r} for a table limit (one of {known})."})
    configuration = configuration_in_force(table)
    if configuration and kind not in configuration.rule_set.offered_kinds:
        raise ValidationError({"kind": f"{table.code} does not offer {BetKind(kind).label}."})
    if currency and currency != table.currency:
        raise ValidationError({"currency": f"{table.code} plays in {table.currency}, not {currency}."})
    _check_amount("min_stake", min_stake, required=True)
    _check_amount("max_stake", max_stake, required=True)
    _check_range(min_stake, max_stake)
    limit = TableLimit.objects.select_for_update().filter(table=table, kind=kind).first()
    if limit is None:
        limit = TableLimit(table=table, kind=kind)
    limit.min_stake, limit.max_stake = min_stake, max_stake
    limit._change_reason = reason
    limit._history_user = changed_by
    with refused_when_taken("kind", f"{table.code} got a limit for {kind} at the same moment; try again."):
        limit.save()
    return limit


@transaction.atomic
def personal_limit_set(
    *,
    player: Player,
    changed_by,
    reason: str,
    min_stake: Decimal | None = None,
    max_stake: Decimal | None = None,
    kind: str = "",
    table: Table | None = None,
    game: str = "",
    currency: str = "",
    seen_setting: int | None = None,
) -> PersonalLimit:
    """Set a player's stake range for a scope. A lower maximum is in force at once; a higher one (or
    lifting it) 24 hours later, pending until then. A later change withdraws a pending one.

    `seen_setting` is the id of the setting the agent was looking at (0: none); when someone else
    changed the scope since, the change is refused rather than silently overwriting theirs.
    """
    reason = require_reason(reason)
    if kind and kind not in BetKind.values:
        raise ValidationError({"kind": f"Unknown bet kind {kind!r}."})
    if game and game not in Game.values:
        raise ValidationError({"game": f"Unknown game {game!r}."})
    if table is not None and game:
        raise ValidationError({"game": "A personal limit is for one table or for one game, not both."})
    if currency and currency != player.currency:
        raise ValidationError(
            {"currency": f"Player {player.external_id} plays in {player.currency}, not {currency}."}
        )
    if table is not None and table.currency != player.currency:
        raise ValidationError(
            {
                "table": f"{table.code} plays in {table.currency}; "
                f"player {player.external_id} in {player.currency}."
            }
        )
    _check_amount("min_stake", min_stake, required=False)
    _check_amount("max_stake", max_stake, required=False)
    _check_range(min_stake, max_stake)

    player = Player.objects.select_for_update().get(pk=player.pk)  # one change to a player's limits at a time
    scope = (kind, table.pk if table else None, game)
    now = timezone.now()
    current = personal_limit_settings(player, now).get(scope)
    pending = [
        row
        for row in player.personal_limits.filter(effective_from__gt=now, withdrawn_at__isnull=True)
        if row.scope == scope
    ]
    latest_seen = max([row.pk for row in pending] + ([current.pk] if current else []), default=0)
    if seen_setting is not None and seen_setting != latest_seen:
        raise ValidationError(
            {
                "__all__": "Someone changed this limit since you opened it; "
                "look at the new value and try again."
            }
        )
    current_max = current.max_stake if current else None
    current_min = current.min_stake if current else None
    if current and (current_min, current_max) == (min_stake, max_stake) and not pending:
        raise ValidationError({"max_stake": "That is the limit already in force."})
    raises_max = (
        max_stake is None
        and current_max is not None
        or (max_stake is not None and current_max is not None and max_stake > current_max)
    )
    for row in pending:
        row.withdrawn_at = now
        row.save(update_fields=["withdrawn_at"])
    return PersonalLimit.objects.create(
        player=player,
        kind=kind,
        table=table,
        game=game,
        min_stake=min_stake,
        max_stake=max_stake,
        effective_from=now + RAISE_DELAY if raises_max else now,
        replaces=current,
        reason=reason,
        created_by=changed_by,
    )
