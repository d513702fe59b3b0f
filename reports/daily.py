"""The stored figures of a gaming day, computed in the database: each run writes its own rows.

`table_day_compute` writes one table's rows of the run's gaming day: DailyFigures (one per bet kind
staked), DailyTableSummary (`summary.py`) and DailyExposure (one per side option staked,
`exposure.py`). `totals_compute` writes the day's totals: DailyFigures per game, currency and bet
kind, with `table` null (never summed across currencies). The daily job's tasks call them, once per
table and once when every table is done. Run again (a task retried), each replaces that run's rows;
another run's rows are never touched.

What the figures mean:
- A round belongs to the gaming day in which it opened, as ingest stored it (Round.gaming_day,
  from `core.gaming_day`): the day its totals were added to.
- RTP figures count the rounds that were played: completed rounds whose correction, if any, does
  not take them out (`rounds.outcome.NOT_PLAYED`: cancelled in an incident, refunded; voided,
  every payout reversed and every stake returned). A round the game server cancelled never counts.
  The summary counts the rounds of each outcome.
- rounds: distinct rounds with a bet of the kind; players: distinct players; wagered: the reported
  wagered (the handle); returned: the reported returned plus the adjustments of approved
  re-settlements; GGR = wagered − returned; observed RTP = returned / wagered × 100.
- theoretical RTP: that of the configuration version each round was played under
  (ConfigurationOdds), weighted by handle when the version changed during the day; null when it
  is not known for any of them.
- 95% and 99% intervals of the observed RTP from the spread of per-round results, by the method that
  fits the kind (`stats.rtp_interval`: normal for the main game, bets behind and insurance,
  log-transformed for side options; never below 0); `outside_99` when the theoretical RTP lies
  outside the 99% interval: the table's RTP flag.

How: every figure comes from aggregate queries (GROUP BY) over the day's bets; Python only does
arithmetic on the few rows they return. A table costs a fixed number of queries, whatever its
number of bets: its configurations, one per-round aggregate for the figures and the exposure's
liabilities, one per player, one per pattern, one for stakes after the max round, the peak rounds'
ids, five for the summary, then three deletes and three inserts.
"""

from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from django.db import connection, transaction

from blackjack.rules import SIDE_OPTION_KINDS
from core.gaming_day import GamingDay, gaming_day
from core.money import exact_product, exact_sum
from core.rtp_stats import Z95, Z99, RoundMoments, exact, interval_method, money, rtp, rtp_interval
from rounds.choices import ProposalStatus, RoundStatus
from rounds.models import Adjustment, Bet, Finding, Resettlement, Round, RoundCorrection, TableDayTotal
from rounds.totals import player_totals_catch_up, top_odds
from tables.models import Table

from . import exposure
from .day_rounds import DayRounds, KindGroup, Version
from .models import DailyExposure, DailyFigures, DailyTableSummary, ReportRun
from .played import NOT_PLAYED_IN
from .players import player_totals_cte
from .summary import table_summary

# --- the day's rounds -----------------------------------------------------------------------------


TABLES = {
    "bet": Bet._meta.db_table,
    "round": Round._meta.db_table,
    "adjustment": Adjustment._meta.db_table,
    "resettlement": Resettlement._meta.db_table,
    "finding": Finding._meta.db_table,
    "correction": RoundCorrection._meta.db_table,
    "day_total": TableDayTotal._meta.db_table,
}
AFTER_MAX_ROUND = "side_option_after_max_round"


def tune_session() -> None:
    """PostgreSQL, for the rest of the transaction: no JIT compilation (compiling these aggregates
    took longer than running them) and room to sort and hash a day's rounds in memory rather than
    on disk (measured in `make bench`)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
            cursor.execute("SET LOCAL work_mem = '64MB'")


def fetch(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# --- one aggregate over per-round results ----------------------------------------------------------


# The day's totals of one table that ingest added its completed rounds to.
DAY_TOTALS_SQL = """
SELECT configuration_pk, kind, rounds, bets, stakes, wagered, returned, wagered_squared,
    returned_squared, wagered_returned, largest_round_stakes, largest_round_id, after_max_round_bets,
    after_max_round_stakes
FROM {day_total}
WHERE day = %s AND table_id = %s
"""
# The day's completed rounds at the table whose totals changed after ingest, each by its one
# correction (RoundCorrection): those cancelled in an incident or voided leave the figures
# (`refunded` 1), those re-settled return what they returned plus the approved adjustments. Per round
# and kind, their bets as ingest added them.
CORRECTED_ROUNDS_SQL = """
WITH corrected AS (
    SELECT correction.round_id AS id, CASE WHEN correction.kind IN ({not_played}) THEN 1 ELSE 0 END
        AS refunded
    FROM {correction} correction
),
per_bet AS (
    SELECT b.round_id, coalesce(r.configuration_id, 0) AS configuration_pk, b.kind, b.stake, b.wagered,
        b.returned, corrected.refunded,
        (
            SELECT coalesce(sum(adjustment.amount), 0)
            FROM {adjustment} adjustment
            JOIN {resettlement} resettlement ON resettlement.id = adjustment.resettlement_id
            WHERE adjustment.bet_id = b.id AND adjustment.gaming_day = %s AND resettlement.status = %s
        ) AS adjustment,
        -- A count, not EXISTS: PostgreSQL would hash every such finding ever stored.
        CASE WHEN (
            SELECT count(*) FROM {finding} late
            WHERE late.bet_id = b.id AND late.gaming_day = %s AND late.code = %s
        ) > 0 THEN 1 ELSE 0 END AS late
    FROM corrected
    JOIN {round} r ON r.id = corrected.id
    JOIN {bet} b ON b.round_id = r.id AND b.gaming_day = r.gaming_day
    WHERE {rounds}
)
SELECT round_id, configuration_pk, kind, max(refunded), count(*), sum(stake), sum(wagered), sum(returned),
    sum(adjustment), sum(late), sum(late * stake)
FROM per_bet
GROUP BY round_id, configuration_pk, kind
"""


@dataclass
class _Sums:
    """A TableDayTotal row as numbers, corrected in place."""

    rounds: int
    bets: int
    stakes: Decimal
    wagered: Decimal
    returned: Decimal
    wagered_squared: Decimal
    returned_squared: Decimal
    wagered_returned: Decimal
    largest_round_stakes: Decimal
    largest_round_pk: int | None
    late_bets: int
    late_stakes: Decimal

    def leave(
        self, round_pk: int, bets: int, stakes: Decimal, wagered: Decimal, returned: Decimal, late: tuple
    ):
        """Take a refunded round out."""
        self.rounds -= 1
        self.bets -= bets
        self.stakes -= stakes
        self.wagered -= wagered
        self.returned -= returned
        self.wagered_squared = exact_sum([-exact_product(wagered, wagered)], self.wagered_squared)
        self.returned_squared = exact_sum([-exact_product(returned, returned)], self.returned_squared)
        self.wagered_returned = exact_sum([-exact_product(wagered, returned)], self.wagered_returned)
        self.late_bets -= late[0]
        self.late_stakes -= late[1]
        if round_pk == self.largest_round_pk:
            self.largest_round_pk = None  # found again from the bets (`_largest_rounds`)

    def adjust(self, wagered: Decimal, returned: Decimal, adjustment: Decimal) -> None:
        """A re-settled round returned `returned + adjustment`, not `returned`."""
        corrected = returned + adjustment
        self.returned += adjustment
        self.returned_squared = exact_sum(
            [exact_product(corrected, corrected), -exact_product(returned, returned)], self.returned_squared
        )
        self.wagered_returned = exact_sum([exact_product(wagered, adjustment)], self.wagered_returned)


def kind_groups(rounds: DayRounds) -> list[KindGroup]:
    """The table's played rounds of the day per version and bet kind: its day totals, less the
    rounds cancelled in an incident or voided since, with the adjustments of approved re-settlements."""
    sums = {
        (configuration_pk, kind): _Sums(
            int(count), int(bets), *map(exact, amounts), largest_pk, int(late), exact(late_stakes)
        )
        for configuration_pk, kind, count, bets, *amounts, largest_pk, late, late_stakes in _day_totals(
            rounds
        )
    }
    for (
        round_pk,
        configuration_pk,
        kind,
        refunded,
        bets,
        stakes,
        wagered,
        returned,
        adjustment,
        late,
        late_stakes,
    ) in _corrected_rounds(rounds):
        entry = sums[(configuration_pk, kind)]
        wagered, returned = exact(wagered), exact(returned)
        if refunded:
            entry.leave(
                round_pk, int(bets), exact(stakes), wagered, returned, (int(late), exact(late_stakes))
            )
        else:
            entry.adjust(wagered, returned, exact(adjustment))
    # Only a side option's largest round matters (its exposure's peak); main bets' is never shown.
    lost = {key for key, entry in sums.items() if entry.rounds and entry.largest_round_pk is None}
    found = _largest_rounds(rounds, {key for key in lost if key[1] in SIDE_OPTION_KINDS})
    groups = []
    for (configuration_pk, kind), entry in sorted(sums.items()):
        if entry.rounds == 0:
            continue
        if entry.largest_round_pk is None:
            entry.largest_round_stakes, entry.largest_round_pk = found.get(
                (configuration_pk, kind), (Decimal(0), None)
            )
        groups.append(
            KindGroup(
                table_id=rounds.table_id,
                configuration_id=configuration_pk or None,
                kind=kind,
                bets=entry.bets,
                stakes=money(entry.stakes),
                moments=RoundMoments(
                    entry.rounds,
                    entry.wagered,
                    entry.returned,
                    entry.wagered_squared,
                    entry.returned_squared,
                    entry.wagered_returned,
                ),
                largest_round_stakes=money(entry.largest_round_stakes),
                largest_round_pk=entry.largest_round_pk,
                after_max_round_bets=entry.late_bets,
                after_max_round_stakes=money(entry.late_stakes),
            )
        )
    return groups


def _day_totals(rounds: DayRounds) -> list[tuple]:
    return fetch(DAY_TOTALS_SQL.format(**TABLES), [rounds.day.day, rounds.table_id])


def _corrected_rounds(rounds: DayRounds) -> list[tuple]:
    where, params = replace(rounds, completed_only=False).where()
    where += " AND r.status = %s"
    sql = CORRECTED_ROUNDS_SQL.format(rounds=where, not_played=NOT_PLAYED_IN, **TABLES)
    approved = ProposalStatus.APPROVED.value
    # The rounds' gaming day is named in the subqueries too, so that one month of them is planned.
    day = connection.ops.adapt_datefield_value(rounds.day.day)
    return fetch(sql, [day, approved, day, AFTER_MAX_ROUND, *params, RoundStatus.COMPLETED.value])


# Per version and side option, the first round stored among those that staked the most on it.
LARGEST_ROUNDS_SQL = """
SELECT configuration_pk, kind, round_id, stakes
FROM (
    SELECT coalesce(r.configuration_id, 0) AS configuration_pk, b.kind, b.round_id, sum(b.stake) AS stakes,
        row_number() OVER (
            PARTITION BY coalesce(r.configuration_id, 0), b.kind ORDER BY sum(b.stake) DESC, b.round_id
        ) AS place
    FROM {bet} b
    JOIN {round} r ON r.id = b.round_id AND r.gaming_day = b.gaming_day
    WHERE {rounds} AND b.kind IN ({kinds})
    GROUP BY coalesce(r.configuration_id, 0), b.kind, b.round_id
) ranked
WHERE place = 1
"""


def _largest_rounds(rounds: DayRounds, wanted: set[tuple[int, str]]) -> dict[tuple[int, str], tuple]:
    """(version, side option) -> (stakes, round) of the round that staked the most on it, from the bets,
    in one pass over the table's bets of the day: only for those whose round the day totals kept left
    the figures since (a void or a cancellation of the day's peak round)."""
    if not wanted:
        return {}
    where, params = rounds.where()
    kinds = sorted({kind for _, kind in wanted})
    sql = LARGEST_ROUNDS_SQL.format(rounds=where, kinds=", ".join(["%s"] * len(kinds)), **TABLES)
    return {
        (configuration_pk, kind): (exact(stakes), round_pk)
        for configuration_pk, kind, round_pk, stakes in fetch(sql, [*params, *kinds])
        if (configuration_pk, kind) in wanted
    }


# --- configuration versions --------------------------------------------------------------------------


def versions(configurations) -> dict[int, Version]:
    result = {}
    for configuration in configurations.select_related("odds"):
        figures = configuration.odds.figures if hasattr(configuration, "odds") else {}
        rules = configuration.rule_set
        result[configuration.pk] = Version(
            pk=configuration.pk,
            number=configuration.version,
            valid_from=configuration.valid_from,
            rtp={kind: Decimal(value) for kind, value in figures.get("rtp", {}).items()},
            patterns=figures.get("patterns", {}),
            paytables={option.kind: tuple(p for p, _ in option.paytable) for option in rules.side_options},
            top_odds=top_odds(rules),
            shared_deal=rules.shared_deal,
        )
    return result


def theoretical_handle(kind: str, groups: list[KindGroup], known: dict[int, Version]) -> Decimal | None:
    """Σ handle × theoretical RTP over the versions the rounds were played under; None when one of
    them has no theoretical RTP for the kind. Divided by the handle: the handle-weighted RTP."""
    weighted = Decimal(0)
    for group in groups:
        version = known.get(group.configuration_id)
        if version is None or kind not in version.rtp:
            return None
        weighted = exact_sum([exact_product(group.moments.wagered, version.rtp[kind])], weighted)
    return weighted


# --- figures of a bet kind ------------------------------------------------------------------------------


def figures_fields(
    kind: str, moments: RoundMoments, *, bets: int, players: int, weighted_theoretical: Decimal | None
) -> dict:
    """The DailyFigures fields of one bet kind from its rounds' moments. `moments` keeps them, so
    that the totals add the tables up without reading their rounds again."""
    wagered, returned = money(moments.wagered), money(moments.returned)
    theoretical = None
    if weighted_theoretical is not None and moments.wagered > 0:
        theoretical = rtp(weighted_theoretical / moments.wagered)
    method = interval_method(kind)
    interval95 = rtp_interval(moments, Z95, method)
    interval99 = rtp_interval(moments, Z99, method)
    low95, high95 = (rtp(value) for value in interval95) if interval95 else (None, None)
    low99, high99 = (rtp(value) for value in interval99) if interval99 else (None, None)
    return {
        "kind": kind,
        "rounds": moments.rounds,
        "bets": bets,
        "players": players,
        "wagered": wagered,
        "returned": returned,
        "gross_gaming_revenue": wagered - returned,
        "observed_rtp": rtp(returned / wagered * 100) if wagered else None,
        "theoretical_rtp": theoretical,
        "ci95_low": low95,
        "ci95_high": high95,
        "ci99_low": low99,
        "ci99_high": high99,
        "outside_99": theoretical is not None and low99 is not None and not low99 <= theoretical <= high99,
        "interval_method": method,
        "moments": {
            **moments.as_json(),
            "weighted_theoretical": None if weighted_theoretical is None else str(weighted_theoretical),
        },
    }


def by_kind(groups: list[KindGroup]) -> dict[str, list[KindGroup]]:
    kinds = defaultdict(list)
    for group in groups:
        kinds[group.kind].append(group)
    return dict(sorted(kinds.items()))


# --- one table --------------------------------------------------------------------------------------------


def table_day_compute(*, table: Table, day: date, run: ReportRun, caught_up: bool = False) -> None:
    """Write the run's DailyFigures, DailyTableSummary and DailyExposure rows of the table (replacing
    those the run wrote before, when its task runs again). `caught_up`: the caller has just run
    `player_totals_catch_up`, before the transaction it calls this in (reports.tasks: the catch-up's
    batches commit as they go, rather than with the run's locks)."""
    the_day = gaming_day(day)
    completed = DayRounds(the_day, table.pk)
    if not caught_up:
        player_totals_catch_up()
    with transaction.atomic():
        tune_session()
        known = versions(table.configurations.approved().filter(valid_from__lt=the_day.ends_at))
        groups = kind_groups(completed)
        kinds = by_kind(groups)
        players = exposure.kind_players(completed, known)
        same = {"day": day, "table": table, "game": table.game, "currency": table.currency, "run": run}
        figures = []
        for kind, groups_of_kind in kinds.items():
            players_of_kind = players.get(kind, exposure.KindPlayers()).players
            fields = figures_fields(
                kind,
                sum((group.moments for group in groups_of_kind), RoundMoments()),
                bets=sum(group.bets for group in groups_of_kind),
                players=players_of_kind,
                weighted_theoretical=theoretical_handle(kind, groups_of_kind, known),
            )
            figures.append(DailyFigures(table_code=table.code, **same, **fields))
        exposures = exposure.exposure_rows(
            completed,
            kinds={kind: kinds[kind] for kind in kinds if kind in exposure.SIDE_OPTION_KINDS},
            figures={row.kind: row for row in figures},
            players=players,
            known=known,
            fields=same,
        )
        in_force = ", ".join(str(version.number) for version in versions_in_force(the_day, known))
        summary = table_summary(the_day, table, in_force, figures, fields=same)
        DailyFigures.objects.filter(run=run, day=day, table=table).delete()
        DailyExposure.objects.filter(run=run, day=day, table=table).delete()
        DailyTableSummary.objects.filter(run=run, day=day, table=table).delete()
        DailyFigures.objects.bulk_create(figures)
        DailyExposure.objects.bulk_create(exposures)
        summary.save()


def versions_in_force(the_day: GamingDay, known: dict[int, Version]) -> list[Version]:
    """The version in force when the day began and every version that came into force during it."""
    ordered = sorted(known.values(), key=lambda version: version.valid_from)
    started = [version for version in ordered if version.valid_from <= the_day.starts_at][-1:]
    return started + [version for version in ordered if version.valid_from > the_day.starts_at]


# --- totals per game and currency ----------------------------------------------------------------------


def totals_compute(*, day: date, run: ReportRun, caught_up: bool = False) -> None:
    """Write the run's totals of the day: DailyFigures per game, currency and bet kind across the
    tables (never across currencies), with their intervals from the per-round results of all those
    tables: the sums the run's table rows keep, so run it after every table's `table_day_compute`.
    `caught_up` as for `table_day_compute`."""
    if not caught_up:
        player_totals_catch_up()
    with transaction.atomic():
        tune_session()
        scopes = defaultdict(list)
        for row in DailyFigures.objects.filter(run=run, day=day, table__isnull=False).order_by("table_code"):
            scopes[(row.game, row.currency, row.kind)].append(row)
        # A game played at one table has that table's players; across tables, a player counts once.
        several_tables = any(len(rows) > 1 for rows in scopes.values())
        players = players_per_game(gaming_day(day)) if several_tables else {}
        totals = []
        for (game, currency, kind), rows in sorted(scopes.items()):
            weighted = [row.moments["weighted_theoretical"] for row in rows]
            fields = figures_fields(
                kind,
                sum((RoundMoments.from_json(row.moments) for row in rows), RoundMoments()),
                bets=sum(row.bets for row in rows),
                players=players[(game, currency, kind)] if len(rows) > 1 else rows[0].players,
                weighted_theoretical=None if None in weighted else exact_sum(map(Decimal, weighted)),
            )
            totals.append(
                DailyFigures(
                    day=day, table=None, table_code="", game=game, currency=currency, run=run, **fields
                )
            )
        DailyFigures.objects.filter(run=run, day=day, table=None).delete()
        DailyFigures.objects.bulk_create(totals)


PLAYERS_PER_GAME_SQL = """
SELECT t.game, t.currency, player_totals.kind, count(DISTINCT player_totals.player_id)
FROM player_totals
JOIN {table} t ON t.id = player_totals.table_id
GROUP BY t.game, t.currency, player_totals.kind
"""


def players_per_game(the_day: GamingDay) -> dict[tuple[str, str, str], int]:
    cte, params = player_totals_cte(DayRounds(the_day))
    sql = cte + PLAYERS_PER_GAME_SQL.format(table=Table._meta.db_table)
    return {(game, currency, kind): players for game, currency, kind, players in fetch(sql, params)}
