"""The stored figures of a gaming day: computed in the database, replaced as a whole when run again.

`table_day_compute` replaces one table's rows of a gaming day: DailyFigures (one per bet kind
staked), DailyTableSummary and DailyExposure (one per side option staked, `exposure.py`).
`totals_compute` replaces the day's totals: DailyFigures per game, currency and bet kind, with
`table` null (never summed across currencies). The daily job's tasks call them, once per table
and once when every table is done.

What the figures mean:
- A round belongs to the gaming day in which it opened ([starts_at, ends_at) of `gaming_day`).
- RTP figures count completed rounds only: a cancelled round's bets are refunded, whether the
  game server cancelled it or a supervisor did in an incident. The summary counts cancelled
  rounds too.
- rounds: distinct rounds with a bet of the kind; players: distinct players; wagered: the reported
  wagered (the handle); returned: the reported returned plus the adjustments of approved
  re-settlements; GGR = wagered − returned; observed RTP = returned / wagered × 100.
- theoretical RTP: that of the configuration version each round was played under
  (ConfigurationOdds), weighted by handle when the version changed during the day; null when it
  is not known for any of them.
- 95% and 99% intervals of the observed RTP from the spread of per-round results
  (`stats.ratio_interval`); `outside_99` when the theoretical RTP lies outside the 99% interval.

How: every figure comes from aggregate queries (GROUP BY) over the day's bets; Python only does
arithmetic on the few rows they return. A table costs a fixed number of queries, whatever its
number of bets: its configurations, one per-round aggregate for the figures and the exposure's
liabilities, one per player, one per pattern, one for stakes after the max round, the peak rounds'
ids, three for the summary, then three deletes and three inserts.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Q

from rounds.choices import ResettlementStatus, RoundStatus
from rounds.models import Adjustment, Bet, Finding, Refund, Resettlement, Round
from tables.models import Table, TableConfiguration

from . import exposure
from .gaming_day import GamingDay, gaming_day
from .models import DailyExposure, DailyFigures, DailyTableSummary, ReportRun
from .stats import Z95, Z99, RoundMoments, exact, money, ratio_interval, rtp

# --- the day's rounds -----------------------------------------------------------------------------


# A completed round with refunds was cancelled in an incident (see `refunded`).
REFUNDED_ROUND_SQL = (
    f"SELECT 1 FROM {Refund._meta.db_table} refund JOIN {Bet._meta.db_table} refunded "
    "ON refunded.id = refund.bet_id WHERE refunded.round_id = r.id"
)


@dataclass(frozen=True)
class DayRounds:
    """Rounds of one gaming day, of one table or of every table, as a WHERE clause on the alias `r`."""

    day: GamingDay
    table_id: int | None = None
    completed_only: bool = True

    def where(self) -> tuple[str, list]:
        adapt = connection.ops.adapt_datetimefield_value
        sql = "r.opened_at >= %s AND r.opened_at < %s"
        params = [adapt(self.day.starts_at), adapt(self.day.ends_at)]
        if self.table_id is not None:
            sql += " AND r.table_id = %s"
            params.append(self.table_id)
        if self.completed_only:
            sql += f" AND r.status = %s AND NOT EXISTS ({REFUNDED_ROUND_SQL})"
            params.append(RoundStatus.COMPLETED.value)
        return sql, params

    def queryset(self):
        rounds = Round.objects.filter(opened_at__gte=self.day.starts_at, opened_at__lt=self.day.ends_at)
        if self.table_id is not None:
            rounds = rounds.filter(table_id=self.table_id)
        if self.completed_only:
            rounds = rounds.filter(status=RoundStatus.COMPLETED).exclude(refunded())
        return rounds


def refunded() -> Exists:
    """A round cancelled in an incident: the game server reported it completed, a supervisor
    cancelled it and every bet was refunded. Its figures are its refunds, not its settlement."""
    return Exists(Refund.objects.filter(bet__round=OuterRef("pk")))


TABLES = {
    "bet": Bet._meta.db_table,
    "round": Round._meta.db_table,
    "adjustment": Adjustment._meta.db_table,
    "resettlement": Resettlement._meta.db_table,
}


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


@dataclass(frozen=True)
class KindGroup:
    """One bet kind's completed rounds under one configuration version of one table."""

    table_id: int
    configuration_id: int | None
    kind: str
    bets: int
    stakes: Decimal
    moments: RoundMoments
    largest_round_stakes: Decimal  # the most this kind staked in one round
    largest_round_pk: int | None  # that round (the first stored, when several)


# What each completed round of the day wagered and returned on each bet kind (with the
# adjustments of approved re-settlements). A round without a configuration version counts as
# version 0, so that it joins like the others.
PER_ROUND_SQL = """
WITH per_round AS (
    SELECT r.table_id, coalesce(r.configuration_id, 0) AS configuration_id, b.round_id, b.kind,
        count(*) AS bets, sum(b.stake) AS stakes, sum(b.wagered) AS wagered,
        sum(b.returned) + coalesce(sum(adjusted.amount), 0) AS returned
    FROM {bet} b
    JOIN {round} r ON r.id = b.round_id
    LEFT JOIN (
        SELECT adjustment.bet_id, sum(adjustment.amount) AS amount
        FROM {adjustment} adjustment
        JOIN {resettlement} resettlement ON resettlement.id = adjustment.resettlement_id
        JOIN {round} r ON r.id = resettlement.round_id
        WHERE resettlement.status = %s AND {rounds}
        GROUP BY adjustment.bet_id
    ) adjusted ON adjusted.bet_id = b.id
    WHERE {rounds}
    GROUP BY r.table_id, r.configuration_id, b.round_id, b.kind
)
"""
# Summed over rounds per table, version and kind.
KIND_GROUPS_SQL = """
SELECT per_round.table_id, per_round.configuration_id, per_round.kind, count(*), sum(per_round.bets),
    sum(per_round.stakes), sum(per_round.wagered), sum(per_round.returned),
    sum(per_round.wagered * per_round.wagered), sum(per_round.returned * per_round.returned),
    sum(per_round.wagered * per_round.returned), max(per_round.stakes), NULL
FROM per_round
GROUP BY per_round.table_id, per_round.configuration_id, per_round.kind
"""
# The same, with the first round stored among those that staked the most on the kind: the
# exposure's peak round (its liability is the stakes times one version's top odds).
KIND_GROUPS_WITH_PEAK_SQL = """
, largest AS (
    SELECT table_id, configuration_id, kind, max(stakes) AS stakes
    FROM per_round
    GROUP BY table_id, configuration_id, kind
)
SELECT per_round.table_id, per_round.configuration_id, per_round.kind, count(*), sum(per_round.bets),
    sum(per_round.stakes), sum(per_round.wagered), sum(per_round.returned),
    sum(per_round.wagered * per_round.wagered), sum(per_round.returned * per_round.returned),
    sum(per_round.wagered * per_round.returned), max(per_round.stakes),
    min(CASE WHEN per_round.stakes = largest.stakes THEN per_round.round_id END)
FROM per_round
JOIN largest ON largest.table_id = per_round.table_id
    AND largest.configuration_id = per_round.configuration_id AND largest.kind = per_round.kind
GROUP BY per_round.table_id, per_round.configuration_id, per_round.kind
"""


def kind_groups(rounds: DayRounds, *, with_peak: bool) -> list[KindGroup]:
    where, params = rounds.where()
    groups_sql = KIND_GROUPS_WITH_PEAK_SQL if with_peak else KIND_GROUPS_SQL
    sql = PER_ROUND_SQL.format(rounds=where, **TABLES) + groups_sql
    rows = fetch(sql, [ResettlementStatus.APPROVED.value, *params, *params])
    return [
        KindGroup(
            table_id=table_id,
            configuration_id=configuration_id or None,
            kind=kind,
            bets=int(bets),
            stakes=money(stakes),
            moments=RoundMoments(count, *(exact(value) for value in sums)),
            largest_round_stakes=money(largest),
            largest_round_pk=largest_pk,
        )
        for table_id, configuration_id, kind, count, bets, stakes, *sums, largest, largest_pk in rows
    ]


# --- configuration versions --------------------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    """What the figures need of a configuration version: its theoretical odds, if known, and rules."""

    pk: int
    number: int
    valid_from: datetime
    rtp: dict[str, Decimal]  # bet kind -> theoretical RTP; empty while its odds are not worked out
    patterns: dict[str, dict[str, float]]  # side option -> paying pattern -> probability
    paytables: dict[str, tuple[str, ...]]  # side option -> the patterns its paytable pays
    top_odds: dict[str, Decimal]  # side option -> the odds of its paytable's top pattern
    shared_deal: bool


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
            top_odds={option.kind: max(odds for _, odds in option.paytable) for option in rules.side_options},
            shared_deal=rules.shared_deal,
        )
    return result


def theoretical_rtp(kind: str, groups: list[KindGroup], known: dict[int, Version]) -> Decimal | None:
    """The theoretical RTP of the versions the rounds were played under, weighted by handle."""
    handle = sum((group.moments.wagered for group in groups), Decimal(0))
    if handle <= 0:
        return None
    weighted = Decimal(0)
    for group in groups:
        version = known.get(group.configuration_id)
        if version is None or kind not in version.rtp:
            return None
        weighted += group.moments.wagered * version.rtp[kind]
    return rtp(weighted / handle)


# --- figures of a bet kind ------------------------------------------------------------------------------


def figures_fields(kind: str, groups: list[KindGroup], players: int, known: dict[int, Version]) -> dict:
    """The DailyFigures fields of one bet kind from its groups (one per version, or per table)."""
    moments = sum((group.moments for group in groups), RoundMoments())
    wagered, returned = money(moments.wagered), money(moments.returned)
    theoretical = theoretical_rtp(kind, groups, known)
    interval95 = ratio_interval(moments, Z95)
    interval99 = ratio_interval(moments, Z99)
    low95, high95 = (rtp(value) for value in interval95) if interval95 else (None, None)
    low99, high99 = (rtp(value) for value in interval99) if interval99 else (None, None)
    return {
        "kind": kind,
        "rounds": moments.rounds,
        "bets": sum(group.bets for group in groups),
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
    }


def by_kind(groups: list[KindGroup]) -> dict[str, list[KindGroup]]:
    kinds = defaultdict(list)
    for group in groups:
        kinds[group.kind].append(group)
    return dict(sorted(kinds.items()))


# --- one table --------------------------------------------------------------------------------------------


def table_day_compute(*, table: Table, day: date, run: ReportRun) -> None:
    """Replace the table's DailyFigures, DailyTableSummary and DailyExposure rows of the gaming day."""
    the_day = gaming_day(day)
    completed = DayRounds(the_day, table.pk)
    with transaction.atomic():
        tune_session()
        known = versions(table.configurations.filter(valid_from__lt=the_day.ends_at))
        offers_side_options = any(version.top_odds for version in known.values())
        groups = kind_groups(completed, with_peak=offers_side_options)
        kinds = by_kind(groups)
        players = exposure.kind_players(completed, known)
        same = {"day": day, "table": table, "game": table.game, "currency": table.currency, "run": run}
        figures = []
        for kind, groups_of_kind in kinds.items():
            players_of_kind = players.get(kind, exposure.KindPlayers()).players
            fields = figures_fields(kind, groups_of_kind, players_of_kind, known)
            figures.append(DailyFigures(table_code=table.code, **same, **fields))
        exposures = exposure.exposure_rows(
            completed,
            kinds={kind: kinds[kind] for kind in kinds if kind in exposure.SIDE_OPTION_KINDS},
            figures={row.kind: row for row in figures},
            players=players,
            known=known,
            fields=same,
        )
        summary = table_summary(the_day, table, known, figures, fields=same)
        DailyFigures.objects.filter(day=day, table=table).delete()
        DailyExposure.objects.filter(day=day, table=table).delete()
        DailyTableSummary.objects.filter(day=day, table=table).delete()
        DailyFigures.objects.bulk_create(figures)
        DailyExposure.objects.bulk_create(exposures)
        summary.save()


def table_summary(
    the_day: GamingDay, table: Table, known: dict[int, Version], figures: list[DailyFigures], *, fields: dict
) -> DailyTableSummary:
    """Cancelled rounds, re-settlements and findings of every round of the day (cancelled ones too)."""
    every_round = DayRounds(the_day, table.pk, completed_only=False).queryset()
    counts = every_round.annotate(refunded=refunded()).aggregate(
        rounds=Count("id"), cancelled=Count("id", filter=Q(status=RoundStatus.CANCELLED) | Q(refunded=True))
    )
    finding_codes = dict(
        Finding.objects.filter(round__in=every_round)
        .values("code")
        .annotate(count=Count("id"))
        .order_by("code")
        .values_list("code", "count")
    )
    # Every re-settlement of the day's rounds, whatever its status: proposed, approved or rejected.
    resettlements = Resettlement.objects.filter(round__in=every_round).count()
    cancelled = counts["cancelled"]
    return DailyTableSummary(
        **fields,
        rounds=counts["rounds"],
        cancelled_rounds=cancelled,
        resettlements=resettlements,
        findings=sum(finding_codes.values()),
        finding_codes=finding_codes,
        configuration_versions=", ".join(str(v.number) for v in versions_in_force(the_day, known)),
        flagged=bool(cancelled or resettlements or finding_codes or any(row.outside_99 for row in figures)),
    )


def versions_in_force(the_day: GamingDay, known: dict[int, Version]) -> list[Version]:
    """The version in force when the day began and every version that came into force during it."""
    ordered = sorted(known.values(), key=lambda version: version.valid_from)
    started = [version for version in ordered if version.valid_from <= the_day.starts_at][-1:]
    return started + [version for version in ordered if version.valid_from > the_day.starts_at]


# --- totals per game and currency ----------------------------------------------------------------------


def totals_compute(*, day: date, run: ReportRun) -> None:
    """Replace the day's totals: DailyFigures per game, currency and bet kind across the tables (never
    across currencies), with their intervals from the per-round results of all those tables."""
    the_day = gaming_day(day)
    with transaction.atomic():
        tune_session()
        groups = kind_groups(DayRounds(the_day), with_peak=False)
        tables = {table.pk: table for table in Table.objects.filter(pk__in={g.table_id for g in groups})}
        known = versions(TableConfiguration.objects.filter(pk__in={g.configuration_id for g in groups}))
        scopes = defaultdict(list)
        for group in groups:
            table = tables[group.table_id]
            scopes[(table.game, table.currency, group.kind)].append(group)
        players = players_per_game(the_day)
        totals = [
            DailyFigures(
                day=day,
                table=None,
                table_code="",
                game=game,
                currency=currency,
                run=run,
                **figures_fields(kind, scope_groups, players[(game, currency, kind)], known),
            )
            for (game, currency, kind), scope_groups in sorted(scopes.items())
        ]
        DailyFigures.objects.filter(day=day, table=None).delete()
        DailyFigures.objects.bulk_create(totals)


PLAYERS_PER_GAME_SQL = """
SELECT t.game, t.currency, b.kind, count(DISTINCT b.player_id)
FROM {bet} b
JOIN {round} r ON r.id = b.round_id
JOIN {table} t ON t.id = r.table_id
WHERE {rounds}
GROUP BY t.game, t.currency, b.kind
"""


def players_per_game(the_day: GamingDay) -> dict[tuple[str, str, str], int]:
    where, params = DayRounds(the_day).where()
    sql = PLAYERS_PER_GAME_SQL.format(rounds=where, table=Table._meta.db_table, **TABLES)
    return {(game, currency, kind): players for game, currency, kind, players in fetch(sql, params)}
