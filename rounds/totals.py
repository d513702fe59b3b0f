"""What a completed round adds to its gaming day's totals for the daily report: its result per bet
kind (TableDayTotal), its side options' pattern hits (TableDayPatternHits) and each player's bets
(PlayerDayTotal); models in `models.py`.

Ingest calls `round_totals_add` with the round's bets as it stores them, so that the report reads a
few rows a table instead of every bet (`make bench`: the daily job of 100,000 rounds). A row is
added to, never rewritten: INSERT ... ON CONFLICT DO UPDATE, in key order, so that two rounds of a
table stored at once take the rows' locks in the same order.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import connection

from reports.gaming_day import gaming_day_of
from tables.models import TableConfiguration

from .engine.rules import RuleSet
from .models import PlayerDayTotal, TableDayPatternHits, TableDayTotal


@dataclass(frozen=True, slots=True)
class BetFigures:
    """What the totals need of one bet: the reported amounts and the pattern the engine found."""

    kind: str
    player_pk: int
    stake: Decimal
    wagered: Decimal
    returned: Decimal
    pattern: str
    after_max_round: bool  # a side option staked after its max round of the shoe


@dataclass
class _KindInRound:
    bets: int = 0
    stakes: Decimal = Decimal(0)
    wagered: Decimal = Decimal(0)
    returned: Decimal = Decimal(0)
    late_bets: int = 0
    late_stakes: Decimal = Decimal(0)


def top_odds(rules: RuleSet | None) -> dict[str, Decimal]:
    """Side option -> the odds of its paytable's top pattern: what a stake would win at most."""
    if rules is None:
        return {}
    return {option.kind: max(odds for _, odds in option.paytable) for option in rules.side_options}


def round_totals_add(
    *,
    round_pk: int,
    table_pk: int,
    configuration: TableConfiguration | None,
    opened_at: datetime,
    bets: Iterable[BetFigures],
) -> None:
    """Add a completed round's bets to its gaming day's totals at its table."""
    kinds: dict[str, _KindInRound] = defaultdict(_KindInRound)
    hits: dict[tuple[str, str], int] = defaultdict(int)
    players: dict[tuple[str, int], list] = defaultdict(lambda: [0, Decimal(0), Decimal(0)])
    odds = top_odds(configuration.rule_set if configuration else None)
    for bet in bets:
        kind = kinds[bet.kind]
        kind.bets += 1
        kind.stakes += bet.stake
        kind.wagered += bet.wagered
        kind.returned += bet.returned
        if bet.after_max_round:
            kind.late_bets += 1
            kind.late_stakes += bet.stake
        if bet.pattern:
            hits[(bet.kind, bet.pattern)] += 1
        player = players[(bet.kind, bet.player_pk)]
        player[0] += 1
        player[1] += bet.stake
        player[2] += bet.stake * odds.get(bet.kind, 0)
    day = gaming_day_of(opened_at)
    same = (day, table_pk, configuration.pk if configuration else 0)
    _upsert(
        TableDayTotal,
        [
            (
                *same,
                name,
                *(1, k.bets, k.stakes, k.wagered, k.returned),
                *(k.wagered * k.wagered, k.returned * k.returned, k.wagered * k.returned),
                *(k.stakes, round_pk, k.late_bets, k.late_stakes),
            )
            for name, k in sorted(kinds.items())
        ],
    )
    _upsert(
        TableDayPatternHits,
        [(*same, kind, pattern, count, 1) for (kind, pattern), count in sorted(hits.items())],
    )
    _player_totals_add(
        (day, table_pk), [(kind, player_pk, *totals) for (kind, player_pk), totals in sorted(players.items())]
    )


# Per model: the key, the columns added to, and any other assignment on conflict.
_KEYS = {
    TableDayTotal: ["day", "table_id", "configuration_pk", "kind"],
    TableDayPatternHits: ["day", "table_id", "configuration_pk", "kind", "pattern"],
}
_SUMS = {
    TableDayTotal: [
        *("rounds", "bets", "stakes", "wagered", "returned"),
        *("wagered_squared", "returned_squared", "wagered_returned"),
    ],
    TableDayPatternHits: ["bets", "rounds"],
}
_LARGER = "excluded.largest_round_stakes > {table}.largest_round_stakes"
# Replaced only by a round that staked more: the first round stored keeps its place among equals.
_OTHERS = {TableDayTotal: ["largest_round_stakes", "largest_round_id"], TableDayPatternHits: []}
_LATE = {TableDayTotal: ["after_max_round_bets", "after_max_round_stakes"], TableDayPatternHits: []}


def _upsert(model, rows: list[tuple]) -> None:
    """Insert `rows` (values in the order: key, sums, others, late sums), or add them to the rows of
    the same key."""
    if not rows:
        return
    table = model._meta.db_table
    keys, sums, others, late = _KEYS[model], _SUMS[model], _OTHERS[model], _LATE[model]
    columns = [*keys, *sums, *others, *late]
    assignments = [f"{name} = {table}.{name} + excluded.{name}" for name in [*sums, *late]]
    larger = _LARGER.format(table=table)
    assignments += [
        f"{name} = CASE WHEN {larger} THEN excluded.{name} ELSE {table}.{name} END" for name in others
    ]
    row_sql = f"({', '.join(['%s'] * len(columns))})"
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row_sql] * len(rows))} "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {', '.join(assignments)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in row])


PLAYER_TOTALS_TABLE = PlayerDayTotal._meta.db_table
_PLAYER_TOTALS_UPSERT = f"""
INSERT INTO {PLAYER_TOTALS_TABLE} (day, table_id, kind, player_id, bets, stakes, liability)
{{rows}}
ON CONFLICT (day, table_id, kind, player_id) DO UPDATE
SET bets = {PLAYER_TOTALS_TABLE}.bets + excluded.bets,
    stakes = {PLAYER_TOTALS_TABLE}.stakes + excluded.stakes,
    liability = {PLAYER_TOTALS_TABLE}.liability + excluded.liability
"""


def _player_totals_add(same: tuple, rows: list[tuple]) -> None:
    """A round of 5,000 players adds 5,000 rows or more: one array per column on PostgreSQL."""
    if not rows:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            columns = [list(column) for column in zip(*rows, strict=True)]
            select = (
                "SELECT %s::date, %s, kind, player_id, bets, stakes, liability FROM unnest("
                "%s::text[], %s::bigint[], %s::int[], %s::numeric[], %s::numeric[]"
                ") t(kind, player_id, bets, stakes, liability)"
            )
            cursor.execute(_PLAYER_TOTALS_UPSERT.format(rows=select), [*same, *columns])
        else:
            sql = _PLAYER_TOTALS_UPSERT.format(rows="VALUES (%s, %s, %s, %s, %s, %s, %s)")
            cursor.executemany(sql, [(*same, *row) for row in rows])
