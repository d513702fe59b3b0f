"""A gaming day's players, from the per-player totals ingest wrote (rounds.PlayerDayTotal): each
player's bets and stakes per table, version and bet kind, less the bets of completed rounds taken
out of the figures since (`rounds.outcome.NOT_PLAYED`: cancelled in an incident and refunded, or
voided). A player counts when some such bets remain."""

from __future__ import annotations

from rounds.choices import RoundStatus
from rounds.models import Bet, PlayerDayTotal, Round, RoundCorrection

from .day_rounds import DayRounds, Version
from .played import NOT_PLAYED_IN

# `player_totals`: (table_id, kind, player_id, bets, stakes, liability) with bets > 0.
PLAYER_TOTALS_CTE = f"""
refunded_bets AS (
    SELECT r.table_id, b.kind, b.player_id, count(*) AS bets, sum(b.stake) AS stakes,
        sum(b.stake * {{top_odds}}) AS liability
    FROM {RoundCorrection._meta.db_table} correction
    JOIN {Round._meta.db_table} r ON r.id = correction.round_id
    JOIN {Bet._meta.db_table} b ON b.round_id = r.id AND b.gaming_day = r.gaming_day
    WHERE correction.kind IN ({NOT_PLAYED_IN}) AND r.status = %s AND {{rounds}}
    GROUP BY r.table_id, b.kind, b.player_id
),
player_totals AS (
    SELECT p.table_id, p.kind, p.player_id, p.bets - coalesce(x.bets, 0) AS bets,
        p.stakes - coalesce(x.stakes, 0) AS stakes, p.liability - coalesce(x.liability, 0) AS liability
    FROM {PlayerDayTotal._meta.db_table} p
    LEFT JOIN refunded_bets x ON x.table_id = p.table_id AND x.kind = p.kind AND x.player_id = p.player_id
    WHERE p.day = %s {{table}} AND p.bets - coalesce(x.bets, 0) > 0
)
"""


def player_totals_cte(rounds: DayRounds, known: dict[int, Version] | None = None) -> tuple[str, list]:
    """The `WITH` clause defining `player_totals` for the day (and table) of `rounds`, its parameters.
    The liability of the bets taken out is worked out with the top odds of `known` versions."""
    where, params = DayRounds(rounds.day, rounds.table_id, completed_only=False).where()
    table, table_params = (
        ("AND p.table_id = %s", [rounds.table_id]) if rounds.table_id is not None else ("", [])
    )
    top_odds, odds_params = top_odds_case(known or {})
    sql = "WITH " + PLAYER_TOTALS_CTE.format(rounds=where, table=table, top_odds=top_odds)
    return sql, [*odds_params, RoundStatus.COMPLETED.value, *params, rounds.day.day, *table_params]


def top_odds_case(known: dict[int, Version]) -> tuple[str, list]:
    """SQL for the top pattern's odds of a bet `b`'s side option under its round `r`'s version."""
    cases, params = [], []
    for version in known.values():
        for kind, odds in version.top_odds.items():
            cases.append("WHEN r.configuration_id = %s AND b.kind = %s THEN CAST(%s AS NUMERIC)")
            params += [version.pk, kind, odds]
    if not cases:
        return "0", []
    return f"CASE {' '.join(cases)} ELSE 0 END", params
