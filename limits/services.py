"""Every write to players and limits. Each change keeps who, when, before, after and why."""

from datetime import datetime, timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst

from core.money import money_text
from core.refusals import refused_when_taken, require_reason
from core.templatetags.pitboss import local_time_text
from ledger.services import ledger_append
from tables.choices import Currency, Game
from tables.models import Table
from tables.selectors import configuration_in_force

from .choices import TABLE_LIMIT_KINDS, AccountType, BetKind, PlayerStatus
from .models import PersonalLimit, Player, TableLimit
from .selectors import ScopeSettings, personal_limit_scope_settings

RAISE_DELAY = timedelta(hours=24)  # UK and Malta: a loosening takes effect only a day later


class PersonalLimitChanged(ValidationError):
    """Someone changed the scope since the agent looked at it (`seen_setting`): HTTP 409 in the
    API, the new value shown on the page. Nothing was changed."""

    status_code = 409


def changed_since_seen(scope: PersonalLimit, settings: ScopeSettings) -> str:
    """Why a change was refused as stale, naming what is set for the scope now."""
    current = settings.current
    now = [
        f"in force {current.range_label} since {local_time_text(current.effective_from)} "
        f"(setting {current.pk})"
        if current
        else "no limit in force"
    ]
    now += [
        f"pending {row.range_label} from {local_time_text(row.effective_from)} (setting {row.pk})"
        for row in settings.pending
    ]
    return (
        f"Someone changed this limit since you opened it. {capfirst(scope.scope_label)}: "
        f"{'; '.join(now)}. Look at the new value and try again (the latest setting is {settings.latest_id})."
    )


def amount_check(name: str, amount: Decimal | None, *, required: bool) -> None:
    """A stake of a limit: above 0, at most 2 decimals (ValidationError naming `name`)."""
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


def stake_range_check(min_stake: Decimal | None, max_stake: Decimal | None) -> None:
    """A minimum above the maximum is refused, naming `min_stake` (forms check it too, to show it
    with their other errors)."""
    if min_stake is not None and max_stake is not None and min_stake > max_stake:
        above = f"The minimum {money_text(min_stake)} is above the maximum {money_text(max_stake)}."
        raise ValidationError({"min_stake": above})


@transaction.atomic
def player_id_taken(external_id: str) -> str | None:
    """Why `external_id` cannot name a new player (another has it), or None. The new-player form
    asks too, to show it with its other errors."""
    if Player.objects.filter(external_id=external_id).exists():
        return f"Player {external_id} already exists."
    return None


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
    if taken := player_id_taken(external_id):
        raise ValidationError({"external_id": taken})
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
    amount_check("min_stake", min_stake, required=True)
    amount_check("max_stake", max_stake, required=True)
    stake_range_check(min_stake, max_stake)
    limit = TableLimit.objects.select_for_update().filter(table=table, kind=kind).first()
    if limit is None:
        limit = TableLimit(table=table, kind=kind)
    limit.min_stake, limit.max_stake = min_stake, max_stake
    limit._change_reason = reason
    limit._history_user = changed_by
    with refused_when_taken("kind", f"{table.code} got a limit for {kind} at the same moment; try again."):
        limit.save()
    ledger_append("table_limit", [limit.history.latest()])
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
    backdated_to: datetime | None = None,
) -> PersonalLimit:
    """Set a player's stake range for a scope. A lower maximum is in force at once; a higher one (or
    lifting it) 24 hours later, pending until then. A later change withdraws a pending one.

    `seen_setting` is the latest setting of the scope the agent was looking at (`ScopeSettings.
    latest_id`, 0: none); when someone else changed the scope since, the change is refused with
    `PersonalLimitChanged` rather than silently overwriting theirs. Pages and the API always send
    it; None (no check) is for the demo and tests only. So is `backdated_to`: in force from then (the
    demo's history), written so, not edited afterwards behind the ledger.
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
    amount_check("min_stake", min_stake, required=False)
    amount_check("max_stake", max_stake, required=False)
    stake_range_check(min_stake, max_stake)

    player = Player.objects.select_for_update().get(pk=player.pk)  # one change to a player's limits at a time
    now = timezone.now()
    settings = personal_limit_scope_settings(player, kind=kind, table=table, game=game, at=now)
    current, pending = settings.current, settings.pending
    if seen_setting is not None and seen_setting != settings.latest_id:
        raise PersonalLimitChanged(
            {"seen_setting": changed_since_seen(PersonalLimit(kind=kind, table=table, game=game), settings)}
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
    change = PersonalLimit.objects.create(
        player=player,
        kind=kind,
        table=table,
        game=game,
        min_stake=min_stake,
        max_stake=max_stake,
        effective_from=backdated_to or (now + RAISE_DELAY if raises_max else now),
        replaces=current,
        reason=reason,
        created_by=changed_by,
    )
    ledger_append("personal_limit", [change])
    return change
