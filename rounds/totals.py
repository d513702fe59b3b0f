"""What a completed round adds to its gaming day's totals for the daily report: its result per bet
kind (TableDayTotal), its side options' pattern hits (TableDayPatternHits) and each player's bets
(PlayerDayTotal); models in `models.py`.

Ingest calls `round_totals_add` with the round's bets as it stores them, so that the report reads a
few rows a table instead of every bet (`make bench`: the daily job of 100,000 rounds). A row is
added to, never rewritten: INSERT ... ON CONFLICT DO UPDATE, in key order, so that two rounds of a
table stored at once take the rows' locks in the same order. Players' totals are added in batches
of rounds (`player_totals_catch_up`): at ingest they cost a 5,000-player round a third of its time.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db import connection, transaction

from blackjack.rules import RuleSet
from core.money import exact_product
from core.upsert import upsert_add
from tables.models import TableConfiguration

from .models import Bet, PlayerDayTotal, PlayerTotalsPending, Round, TableDayPatternHits, TableDayTotal

# What the totals need of one bet: its kind, the reported stake, wagered and returned, the pattern
# the engine found paying ("" for none), and whether it is a side option staked after its max round.
# A plain tuple: ingest makes 5,000 of them a round.
BetFigures = tuple[str, Decimal, Decimal, Decimal, str, bool]
ZERO = Decimal(0)


def top_odds(rules: RuleSet | None) -> dict[str, Decimal]:
    """Side option -> the odds of its paytable's top pattern: what a stake would win at most."""
    if rules is None:
        return {}
    return {option.kind: max(odds for _, odds in option.paytable) for option in rules.side_options}


def most_returned(rules: RuleSet, kind: str) -> Decimal | None:
    """The most a bet of `kind` can return per unit wagered under `rules`: the wager and its best
    payout (a blackjack on the main game and bets behind, insurance's odds, a side option's top
    pattern). None for a kind the rules do not offer."""
    if kind in ("main", "behind"):
        return 1 + max(Decimal(1), rules.blackjack_pays)
    if kind == "insurance":
        return 1 + rules.insurance_pays if rules.insurance else None
    odds = top_odds(rules).get(kind)
    return None if odds is None else 1 + odds


@dataclass(slots=True)
class KindSums:
    """One bet kind's bets in one round: how many, their reported stakes, wagered and returned, those
    the engine found paying a side-option pattern, and the side-option bets staked after their max
    round (and their stakes)."""

    bets: int = 0
    stakes: Decimal = ZERO
    wagered: Decimal = ZERO
    returned: Decimal = ZERO
    hits: int = 0
    late_bets: int = 0
    late_stakes: Decimal = ZERO


def kind_sums(bets: Iterable[BetFigures]) -> tuple[dict[str, KindSums], dict[tuple[str, str], int]]:
    """A round's bets summed per kind, and its pattern hits per (kind, pattern)."""
    kinds: dict[str, KindSums] = {}
    hits: dict[tuple[str, str], int] = defaultdict(int)
    # A round's bets repeat a few stakes and outcomes: each distinct figure is added once, times
    # its count (exact: Decimal sums and products of cents).
    for (kind, stake, wagered, returned, pattern, late), count in Counter(bets).items():
        total = kinds.get(kind)
        if total is None:
            total = kinds[kind] = KindSums()
        total.bets += count
        total.stakes += stake * count
        total.wagered += wagered * count
        total.returned += returned * count
        if late:
            total.late_bets += count
            total.late_stakes += stake * count
        if pattern:
            total.hits += count
            hits[(kind, pattern)] += count
    return kinds, hits


def round_totals_add(
    *,
    round_pk: int,
    table_pk: int,
    configuration_pk: int | None,
    day: date,
    kinds: dict[str, KindSums],
    hits: dict[tuple[str, str], int],
) -> None:
    """Add a completed round's bets (`kind_sums`) to the totals of its gaming day (`day`, as stored on
    the round) at its table."""
    same = (day, table_pk, configuration_pk or 0)
    upsert_add(
        TableDayTotal,
        [
            (
                *same,
                name,
                *(1, sums.bets, sums.stakes, sums.wagered, sums.returned),
                *(exact_product(sums.wagered, sums.wagered), exact_product(sums.returned, sums.returned)),
                exact_product(sums.wagered, sums.returned),
                *(sums.late_bets, sums.late_stakes, sums.stakes, round_pk),
            )
            for name, sums in sorted(kinds.items())
        ],
        keys=["day", "table_id", "configuration_pk", "kind"],
        sums=[
            *("rounds", "bets", "stakes", "wagered", "returned"),
            *("wagered_squared", "returned_squared", "wagered_returned"),
            *("after_max_round_bets", "after_max_round_stakes"),
        ],
        # Replaced only by a round that staked more: the first round stored keeps its place among equals.
        kept_if_larger=["largest_round_stakes", "largest_round_id"],
    )
    upsert_add(
        TableDayPatternHits,
        [(*same, kind, pattern, count, 1) for (kind, pattern), count in sorted(hits.items())],
        keys=["day", "table_id", "configuration_pk", "kind", "pattern"],
        sums=["bets", "rounds"],
    )
    PlayerTotalsPending.objects.bulk_create(
        [PlayerTotalsPending(round_id=round_pk, day=day, table_id=table_pk)]
    )


# --- players: in batches ------------------------------------------------------------------------------

CATCH_UP_ROUNDS = 5_000  # rounds a batch takes: a few seconds of work at most
PLAYER_TOTALS_FROM_BETS = """
INSERT INTO {player_total} (day, table_id, kind, player_id, bets, stakes, liability)
SELECT pending.day, pending.table_id, b.kind, b.player_id, count(*), sum(b.stake), sum(b.stake * {top_odds})
FROM {pending} pending
JOIN {round} r ON r.id = pending.round_id AND r.gaming_day = pending.day
JOIN {bet} b ON b.round_id = pending.round_id AND b.gaming_day = pending.day
WHERE {claimed} AND {round_days} AND {bet_days}
GROUP BY pending.day, pending.table_id, b.kind, b.player_id
ORDER BY pending.day, pending.table_id, b.kind, b.player_id
ON CONFLICT (day, table_id, kind, player_id) DO UPDATE
SET bets = {player_total}.bets + excluded.bets,
    stakes = {player_total}.stakes + excluded.stakes,
    liability = {player_total}.liability + excluded.liability
"""


def player_totals_catch_up() -> int:
    """Add the bets of every round awaiting it to PlayerDayTotal, a batch of rounds at a time, one
    statement a batch: a player of many rounds is one row of the batch. Returns the rounds added.

    Two catch-ups at once take different rounds (PostgreSQL's SKIP LOCKED) and add their rows in
    key order. Celery beat runs it every minute; the daily report runs it before it counts."""
    added = 0
    while True:
        with transaction.atomic():
            claimed = _claim(CATCH_UP_ROUNDS)
            if not claimed:
                return added
            _add_bets_of(claimed)
            PlayerTotalsPending.objects.filter(round_id__in=list(claimed)).delete()
        added += len(claimed)


def _claim(limit: int) -> dict[int, date]:
    """Rounds awaiting the catch-up: {round's id: its gaming day}."""
    pending = PlayerTotalsPending.objects.order_by("round_id")
    if connection.vendor == "postgresql":
        pending = pending.select_for_update(skip_locked=True)
    return dict(pending.values_list("round_id", "day")[:limit])


def _add_bets_of(claimed: dict[int, date]) -> None:
    """Add the bets of the `claimed` rounds. Their gaming days are named, so that PostgreSQL plans
    only those months of rounds and bets."""
    days = [connection.ops.adapt_datefield_value(day) for day in sorted(set(claimed.values()))]
    cases, params = [], []
    in_play = TableConfiguration.objects.filter(rounds__in=list(claimed), rounds__gaming_day__in=days)
    for configuration in in_play.distinct():
        for kind, odds in top_odds(configuration.rule_set).items():
            cases.append("WHEN r.configuration_id = %s AND b.kind = %s THEN CAST(%s AS NUMERIC)")
            params += [configuration.pk, kind, odds]
    if connection.vendor == "postgresql":  # one array: a long IN list costs more to plan
        claimed_sql, claimed_params = "pending.round_id = ANY(%s)", [list(claimed)]
        round_days, bet_days, days_params = "r.gaming_day = ANY(%s)", "b.gaming_day = ANY(%s)", [days, days]
    else:
        some_rounds, some_days = ", ".join(["%s"] * len(claimed)), ", ".join(["%s"] * len(days))
        claimed_sql, claimed_params = f"pending.round_id IN ({some_rounds})", list(claimed)
        round_days, bet_days = f"r.gaming_day IN ({some_days})", f"b.gaming_day IN ({some_days})"
        days_params = [*days, *days]
    sql = PLAYER_TOTALS_FROM_BETS.format(
        player_total=PlayerDayTotal._meta.db_table,
        pending=PlayerTotalsPending._meta.db_table,
        round=Round._meta.db_table,
        bet=Bet._meta.db_table,
        top_odds=f"CASE {' '.join(cases)} ELSE 0 END" if cases else "0",
        claimed=claimed_sql,
        round_days=round_days,
        bet_days=bet_days,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *claimed_params, *days_params])
