"""Side-option exposure of one table's gaming day: what was staked and returned, and what it could
have cost the house. Completed rounds only, as the RTP figures.

Per side option (rules.SIDE_OPTION_KINDS) staked at the table:
- bets, stakes, returned, observed and theoretical RTP: those of the kind's DailyFigures row.
- liability: every stake paid at the odds of the top pattern of the paytable in force for its
  round, winnings only (the stake itself not counted); `liability_total` over the day, and the
  peak round, the one whose stakes had the largest liability (the first stored of equal ones).
- top_players: the ten players with the largest liability (ties: larger stakes, then player id).
- pattern_hits: each paying pattern's hits against the number expected from the exact odds of the
  versions played, with the two-sided p-value of the exact binomial test (`stats.binomial_p_value`),
  all three in one unit, the trial, which each entry's "unit" names:
  - bets, where each bet has cards of its own: hits are the bets the engine found paying the
    pattern, expected = Σ over versions of bets × probability, the test over the bets staked;
  - rounds, where the bets of a round share their cards and so are one trial, not many: at a shared
    deal (Boundless) every bet of a round has the same cards, and Bust Bonus pays on the
    facilitator's cards alone. Hits are the rounds in which the pattern paid, expected = Σ rounds
    staked × probability, the test over the rounds staked. ("bets_hit" keeps the bets paid.)
- after_max_round_bets/stakes: bets with a `side_option_after_max_round` finding (counted at ingest).

The per-player query also counts every bet kind's distinct players for DailyFigures.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.db import connection

from blackjack.rules import SIDE_OPTION_KINDS, SIDE_OPTION_PATTERNS
from core.rtp_stats import money
from limits.models import Player
from rounds.choices import RoundStatus
from rounds.models import Bet, Round, RoundKey, TableDayPatternHits

from .day_rounds import DayRounds, KindGroup, Version
from .models import DailyExposure
from .played import NOT_PLAYED_ROUND_SQL
from .players import player_totals_cte
from .stats import binomial_p_value

__all__ = ["SIDE_OPTION_KINDS", "KindPlayers", "exposure_rows", "kind_players"]

TOP_PLAYERS = 10
TABLES = {
    "player": Player._meta.db_table,
    "hits": TableDayPatternHits._meta.db_table,
    "bet": Bet._meta.db_table,
    "round": Round._meta.db_table,
}


def _fetch(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# --- players -----------------------------------------------------------------------------------------


@dataclass
class KindPlayers:
    players: int = 0
    top: list[dict] = field(default_factory=list)


# Each player's bets, stakes and liability per bet kind; every kind's number of players and its
# TOP_PLAYERS players with the largest liability.
KIND_PLAYERS_SQL = """
SELECT ranked.kind, ranked.players, ranked.place, player.external_id, ranked.bets, ranked.stakes,
    ranked.liability
FROM (
    SELECT player_totals.*,
        count(*) OVER (PARTITION BY player_totals.kind) AS players,
        rank() OVER (
            PARTITION BY player_totals.kind ORDER BY player_totals.liability DESC, player_totals.stakes DESC
        ) AS place
    FROM player_totals
) ranked
JOIN {player} player ON player.id = ranked.player_id
WHERE ranked.place <= %s
"""


def kind_players(rounds: DayRounds, known: dict[int, Version]) -> dict[str, KindPlayers]:
    """Per bet kind: its number of distinct players and, for side options, the top players."""
    cte, cte_params = player_totals_cte(rounds, known)
    sql = cte + KIND_PLAYERS_SQL.format(**TABLES)
    # rank() ties share a place, so that ties at the tenth place are broken by external id here.
    rows = sorted(_fetch(sql, [*cte_params, TOP_PLAYERS]), key=lambda row: row[:4])
    result: dict[str, KindPlayers] = {}
    for kind, players, _, external_id, bets, stakes, liability in rows:
        entry = result.setdefault(kind, KindPlayers(players))
        if kind in SIDE_OPTION_KINDS and len(entry.top) < TOP_PLAYERS:
            entry.top.append(
                {
                    "player": external_id,
                    "bets": int(bets),
                    "stakes": str(money(stakes)),
                    "liability": str(money(liability)),
                }
            )
    return result


# --- patterns and stakes after the max round ---------------------------------------------------------

# The day's hits ingest counted, less those of rounds cancelled in an incident or voided since.
PATTERN_HITS_SQL = """
SELECT kind, pattern, sum(bets), sum(rounds)
FROM (
    SELECT kind, pattern, bets, rounds
    FROM {hits}
    WHERE day = %s AND table_id = %s
    UNION ALL
    SELECT b.kind, b.computed_pattern, -count(*), -count(DISTINCT b.round_id)
    FROM {bet} b
    JOIN {round} r ON r.id = b.round_id AND r.gaming_day = b.gaming_day
    WHERE {rounds} AND r.status = %s AND b.computed_pattern <> '' AND EXISTS ({not_played})
    GROUP BY b.kind, b.computed_pattern
) hits
GROUP BY kind, pattern
HAVING sum(bets) > 0
"""


def pattern_hits_counted(rounds: DayRounds) -> dict[str, dict[str, tuple[int, int]]]:
    """side option -> pattern -> (bets that hit it, rounds in which it was hit)."""
    where, params = replace(rounds, completed_only=False).where()
    sql = PATTERN_HITS_SQL.format(
        rounds=where, not_played=NOT_PLAYED_ROUND_SQL.format(round="r.id"), **TABLES
    )
    hits: dict[str, dict[str, tuple[int, int]]] = {}
    rows = _fetch(sql, [rounds.day.day, rounds.table_id, *params, RoundStatus.COMPLETED.value])
    for kind, pattern, bets, rounds_hit in rows:
        hits.setdefault(kind, {})[pattern] = (int(bets), int(rounds_hit))
    return hits


# --- the rows ------------------------------------------------------------------------------------------


def exposure_rows(
    rounds: DayRounds,
    *,
    kinds: dict[str, list[KindGroup]],
    figures: dict,
    players: dict[str, KindPlayers],
    known: dict[int, Version],
    fields: dict,
) -> list[DailyExposure]:
    """One DailyExposure per side option in `kinds` (its groups: one per version played)."""
    if not kinds:
        return []
    hits = pattern_hits_counted(rounds)
    peaks = {kind: peak(kind, groups, known) for kind, groups in kinds.items()}
    # From the registry, not partitioned: the ids alone, without planning every month of rounds.
    round_ids = dict(
        RoundKey.objects.filter(pk__in=[pk for pk, _ in peaks.values() if pk]).values_list("pk", "round_id")
    )
    rows = []
    for kind, groups in kinds.items():
        peak_pk, peak_liability = peaks[kind]
        row = figures[kind]
        rows.append(
            DailyExposure(
                **fields,
                kind=kind,
                bets=row.bets,
                stakes=sum((group.stakes for group in groups), Decimal("0.00")),
                returned=row.returned,
                observed_rtp=row.observed_rtp,
                theoretical_rtp=row.theoretical_rtp,
                liability_total=money(sum(top_odds(known, g) * g.stakes for g in groups)),
                peak_round_id=round_ids.get(peak_pk, ""),
                peak_liability=peak_liability,
                top_players=players.get(kind, KindPlayers()).top,
                pattern_hits=pattern_hits(kind, groups, hits.get(kind, {}), known),
                after_max_round_bets=sum(group.after_max_round_bets for group in groups),
                after_max_round_stakes=sum((g.after_max_round_stakes for g in groups), Decimal("0.00")),
            )
        )
    return rows


def top_odds(known: dict[int, Version], group: KindGroup) -> Decimal:
    version = known.get(group.configuration_id)
    return version.top_odds.get(group.kind, Decimal(0)) if version else Decimal(0)


def peak(kind: str, groups: list[KindGroup], known: dict[int, Version]) -> tuple[int | None, Decimal]:
    """The round whose stakes on `kind` had the largest liability, and that liability."""
    candidates = [
        (money(top_odds(known, group) * group.largest_round_stakes), -group.largest_round_pk)
        for group in groups
        if group.largest_round_pk is not None
    ]
    liability, negated_pk = max(candidates, default=(Decimal("0.00"), None))
    if not liability:
        return None, Decimal("0.00")
    return -negated_pk, liability


def pattern_hits(
    kind: str, groups: list[KindGroup], hits: dict[str, tuple[int, int]], known: dict[int, Version]
) -> list[dict]:
    """Each paying pattern of the paytables played (and any other pattern hit): hits against expected,
    and the p-value, in one unit (`unit`, of which `trials` were staked)."""
    played = [known.get(group.configuration_id) for group in groups]
    paying = {pattern for version in played if version for pattern in version.paytables.get(kind, ())}
    patterns = [p for p in SIDE_OPTION_PATTERNS[kind] if p in paying or p in hits]
    odds_known = all(version and kind in version.patterns for version in played)
    by_round = shares_cards(kind, played)
    # The trials of each version's rounds: its rounds staked, or its bets.
    trials = [group.moments.rounds if by_round else group.bets for group in groups]
    entries = []
    for pattern in patterns:
        bets_hit, rounds_hit = hits.get(pattern, (0, 0))
        hit = rounds_hit if by_round else bets_hit
        entry = {"pattern": pattern, "hits": hit, "expected": None, "p_value": None}
        if odds_known:
            chances = [version.patterns[kind].get(pattern, 0.0) for version in played]
            expected = sum(count * chance for count, chance in zip(trials, chances, strict=True))
            p_value = binomial_p_value(hit, sum(trials), expected / sum(trials))
            entry["expected"] = round(expected, 4)
            entry["p_value"] = float(f"{p_value:.4g}")
        entry.update(unit="round" if by_round else "bet", trials=sum(trials), bets_hit=bets_hit)
        entries.append(entry)
    return entries


def shares_cards(kind: str, played: list[Version | None]) -> bool:
    """Whether the bets of one round share their cards, so that the round is the trial: every bet at a
    shared deal, and Bust Bonus (the facilitator's cards) everywhere."""
    return kind == "bust_bonus" or any(version and version.shared_deal for version in played)
