"""Reads about limits: the personal limits in force, and the effective range of a bet."""

from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_FLOOR, Decimal

from django.utils import timezone

from blackjack.rules import kind_label
from core.money import money_text
from tables.models import Table, TableConfiguration
from tables.selectors import configuration_in_force

from .choices import BetKind, PlayerStatus
from .models import PersonalLimit, Player, TableLimit, stake_range_text

CENT = Decimal("0.01")


def personal_limit_settings(player: Player, at: datetime | None = None) -> dict[tuple, PersonalLimit]:
    """The setting in force at `at` for each scope the player has ever limited (lifted ones included)."""
    at = at or timezone.now()
    current: dict[tuple, PersonalLimit] = {}
    rows = player.personal_limits.filter(effective_from__lte=at, withdrawn_at__isnull=True).select_related(
        "table"
    )
    for row in rows.order_by("effective_from", "id"):
        current[row.scope] = row
    return current


def personal_limits_in_force(player: Player, at: datetime | None = None) -> list[PersonalLimit]:
    settings = personal_limit_settings(player, at).values()
    return [row for row in settings if row.min_stake is not None or row.max_stake is not None]


def personal_limits_in_force_by_player(player_ids, at: datetime) -> dict[int, list[PersonalLimit]]:
    """`personal_limits_in_force` for many players in one query (for checking a whole round)."""
    current: dict[tuple, PersonalLimit] = {}
    rows = PersonalLimit.objects.filter(
        player_id__in=player_ids, effective_from__lte=at, withdrawn_at__isnull=True
    )
    for row in rows.select_related("table").order_by("effective_from", "id"):
        current[(row.player_id, *row.scope)] = row
    result: dict[int, list[PersonalLimit]] = {}
    for row in current.values():
        if row.min_stake is not None or row.max_stake is not None:
            result.setdefault(row.player_id, []).append(row)
    return result


@dataclass(frozen=True)
class ScopeSettings:
    """A scope's setting in force and its pending ones. `latest_id` is what an agent who looked at
    them has seen (`seen_setting`): the newest of them, 0 when the scope has none. Every change of
    the scope makes a newer setting, so a different `latest_id` means someone changed it."""

    current: PersonalLimit | None
    pending: list[PersonalLimit]

    @property
    def latest_id(self) -> int:
        return max([row.pk for row in self.pending] + ([self.current.pk] if self.current else []), default=0)


def personal_limit_scope_settings(
    player: Player, *, kind: str, table: Table | None, game: str, at: datetime | None = None
) -> ScopeSettings:
    """What is set for one scope of the player's limits at `at` (now): in force, and pending."""
    at = at or timezone.now()
    current = personal_limit_settings(player, at).get((kind, table.pk if table else None, game))
    pending = player.personal_limits.filter(
        kind=kind, table=table, game=game, effective_from__gt=at, withdrawn_at__isnull=True
    )
    return ScopeSettings(current, list(pending.select_related("table").order_by("effective_from", "id")))


def pending_personal_limits(player: Player) -> list[PersonalLimit]:
    rows = player.personal_limits.filter(effective_from__gt=timezone.now(), withdrawn_at__isnull=True)
    return list(rows.select_related("table").order_by("effective_from"))


@dataclass
class EffectiveLimit:
    """The range a player may stake on one bet kind at one table, and why it is what it is."""

    player: str
    table: str
    kind: str
    currency: str
    min_stake: Decimal | None = None
    max_stake: Decimal | None = None
    reasons: list[str] = field(default_factory=list)  # why the player cannot bet at all, in words
    sources: list[str] = field(default_factory=list)  # which limits made the range

    @property
    def allowed(self) -> bool:
        return not self.reasons

    def refuses(self, amount: Decimal) -> str | None:
        """Why `amount` may not be staked, or None when it may."""
        if self.reasons:
            return " ".join(self.reasons)
        if amount < self.min_stake:
            return f"{money_text(amount)} is below the minimum {money_text(self.min_stake)} {self.currency}."
        if amount > self.max_stake:
            return f"{money_text(amount)} is above the maximum {money_text(self.max_stake)} {self.currency}."
        return None


def _half(amount: Decimal) -> Decimal:
    return (amount / 2).quantize(CENT, rounding=ROUND_FLOOR)


def effective_limit(player: Player, table: Table, kind: str, at: datetime | None = None) -> EffectiveLimit:
    """The table's range for `kind` intersected with every personal limit of the player that applies."""
    return effective_limit_from(
        player,
        table,
        kind,
        configuration=lambda: configuration_in_force(table, at),
        table_limit=lambda table_kind: TableLimit.objects.filter(table=table, kind=table_kind).first(),
        personal_limits=lambda: personal_limits_in_force(player, at),
    )


def effective_limits(player: Player, tables, at: datetime | None = None) -> list[EffectiveLimit]:
    """`effective_limit` for every kind that each of `tables` offers, in three queries for any number
    of tables (for a page that shows them all)."""
    at = at or timezone.now()
    tables = list(tables)
    configurations: dict[int, TableConfiguration] = {}
    versions = TableConfiguration.objects.in_force(at).filter(table__in=tables)
    for version in versions.order_by("table_id", "-valid_from"):
        configurations.setdefault(version.table_id, version)
    table_limits = {
        (limit.table_id, limit.kind): limit for limit in TableLimit.objects.filter(table__in=tables)
    }
    personal = personal_limits_in_force(player, at)
    results = []
    for table in tables:
        configuration = configurations.get(table.pk)
        if configuration is None:
            continue
        for kind in configuration.rule_set.offered_kinds:
            results.append(
                effective_limit_from(
                    player,
                    table,
                    kind,
                    configuration=lambda configuration=configuration: configuration,
                    table_limit=lambda table_kind, table=table: table_limits.get((table.pk, table_kind)),
                    personal_limits=lambda: personal,
                )
            )
    return results


def effective_limit_from(
    player, table, kind, *, configuration, table_limit, personal_limits, insured: str = BetKind.MAIN
) -> EffectiveLimit:
    """The rules of the effective range; the callables give the configuration in force, the table's
    limit for a kind and the player's personal limits in force, read now or beforehand. Insurance
    is half of the bet it insures: the seat play, or (`insured="behind"`) a play-behind bet."""
    result = EffectiveLimit(player.external_id, table.code, kind, table.currency)
    if kind not in BetKind.values:
        result.reasons.append(f"{kind!r} is not a bet kind.")
        return result
    configuration = configuration()
    if configuration is None or kind not in configuration.rule_set.offered_kinds:
        result.reasons.append(f"{table.code} does not offer {kind_label(kind)}.")
        return result
    if player.status != PlayerStatus.ACTIVE:
        result.reasons.append(f"Player {player.external_id} is {player.get_status_display().lower()}.")
    if player.currency != table.currency:
        result.reasons.append(
            f"Player {player.external_id} plays in {player.currency}; {table.code} is in {table.currency}."
        )
    if kind == BetKind.MAIN and configuration.rule_set.seats is not None and not player.may_take_a_seat:
        result.reasons.append(f"A {player.get_account_type_display().lower()} account may not take a seat.")
    table_kind = insured if kind == BetKind.INSURANCE else kind
    table_limit = table_limit(table_kind)
    if table_limit is None:
        result.reasons.append(f"{table.code} has no limit set for {kind_label(table_kind)}.")
        return result
    low, high = table_limit.min_stake, table_limit.max_stake
    which = "" if table_kind == kind else f" {kind_label(table_kind)}"
    result.sources.append(f"table {table.code}{which}: {money_text(low)}–{money_text(high)}")
    personal = [limit for limit in personal_limits() if _applies_at(limit, table)]
    # Insurance is half the seat play: half of the main range the player may stake, then any
    # personal limit set for insurance itself.
    for limit in personal:
        if limit.kind in ("", table_kind):
            low, high = _narrowed(low, high, limit, result)
    if kind == BetKind.INSURANCE:
        low, high = _half(low), _half(high)
        result.sources.append(
            f"insurance: half the {kind_label(table_kind)} range, {money_text(low)}–{money_text(high)}"
        )
        for limit in personal:
            if limit.kind == BetKind.INSURANCE:
                low, high = _narrowed(low, high, limit, result)
    result.min_stake, result.max_stake = low, high
    if low > high:
        result.reasons.append(
            "No stake fits: the table and the player's personal limits leave "
            f"{stake_range_text(low, high, table.currency)}."
        )
    return result


def _narrowed(low, high, limit: PersonalLimit, result: EffectiveLimit):
    result.sources.append(f"personal ({limit.scope_label}): {limit.range_label}")
    if limit.min_stake is not None and limit.min_stake > low:
        low = limit.min_stake
    if limit.max_stake is not None and limit.max_stake < high:
        high = limit.max_stake
    return low, high


def _applies_at(limit: PersonalLimit, table: Table) -> bool:
    if limit.table_id is not None:
        return limit.table_id == table.pk
    return not limit.game or limit.game == table.game
