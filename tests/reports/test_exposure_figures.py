"""The stored side-option exposure (DailyExposure) against a direct SQL computation over the same bets,
on SQLite and on PostgreSQL.

The day: seed_demo's Deluxe table DLX1 plays a simulated shoe whose Pair paytable changes mid-shoe
(version 2: richer odds, a new top pattern's odds, closed after round 8, so later Pair stakes are
flagged), and the Boundless table BND1 a shoe of 40 players sharing each deal.
"""

import json
import math
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from freezegun import freeze_time

from blackjack.rules import SIDE_OPTION_PATTERNS, preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day
from reports.daily import table_day_compute
from reports.models import DailyExposure, DailyFigures, ReportRun, RunTrigger
from rounds.ingest import round_ingest
from tables.models import ConfigurationOdds, Table, TableConfiguration
from tables.odds import configuration_odds_compute
from tests import factories

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 10)
RICHER_PAIR = {"mixed_pair": "6", "coloured_pair": "12", "perfect_pair": "30", "suited_trips": "60"}
CENT = Decimal("0.01")


@pytest.fixture
def day():
    call_command("seed_demo", stdout=StringIO())
    bounds = gaming_day(DAY)
    start = bounds.starts_at + timedelta(hours=3)
    with freeze_time(DAY - timedelta(days=30)):
        factories.configuration_approved(
            Table.objects.get(code="DLX1"),
            {"side_options": {"pair": {"paytable": RICHER_PAIR, "max_round": 8}}},
            proposed_by=factories.user("supervisor", "supervisor"),
            reason="A richer Pair from mid-morning",
            valid_from=start + timedelta(minutes=12),
        )
    for configuration in TableConfiguration.objects.filter(table__code__in=["DLX1", "BND1"], version=1):
        configuration_odds_compute(configuration=configuration)
    configuration_odds_compute(configuration=TableConfiguration.objects.get(table__code="DLX1", version=2))
    for game, code, players, seed in (("deluxe", "DLX1", 7, 5), ("boundless", "BND1", 40, 8)):
        for document in simulate(preset(game), table=code, shoes=1, players=players, seed=seed, start=start):
            round_ingest(document=json.loads(json.dumps(document)))
    run = ReportRun.objects.create(
        day=DAY, trigger=RunTrigger.COMMAND, time_zone=bounds.time_zone, cutoff=bounds.cutoff
    )
    for code in ("DLX1", "BND1"):
        table_day_compute(table=Table.objects.get(code=code), day=DAY, run=run)
    return bounds


# --- the direct computation ------------------------------------------------------------------------------


def query(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def dec(value) -> Decimal:
    return Decimal(str(value or 0))


def side_bets(code: str, kind: str, bounds) -> tuple[str, list]:
    """The kind's bets in the table's completed rounds of the day, as SQL on the aliases b, r and p."""
    adapt = connection.ops.adapt_datetimefield_value
    return (
        "FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id "
        "JOIN limits_player p ON p.id = b.player_id "
        "WHERE r.table_id = %s AND r.opened_at >= %s AND r.opened_at < %s AND r.status = 'completed' "
        "AND b.kind = %s",
        [Table.objects.get(code=code).pk, adapt(bounds.starts_at), adapt(bounds.ends_at), kind],
    )


def top_odds(configuration_id: int, kind: str) -> Decimal:
    """The largest odds of the kind's paytable in the version's stored rules."""
    rules = TableConfiguration.objects.get(pk=configuration_id).rules
    return max(Decimal(odds) for odds in rules["side_options"][kind]["paytable"].values())


def exact_p_value(hits: int, trials: int, probability: float) -> float:
    p = Fraction(probability)
    chances = [math.comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(trials + 1)]
    limit = chances[hits] * Fraction(1 + 10**-7)
    return float(sum(chance for chance in chances if chance <= limit))


def expected_exposure(code: str, kind: str, bounds) -> dict:
    bets_sql, params = side_bets(code, kind, bounds)
    [(bets, stakes)] = query(f"SELECT count(*), sum(b.stake) {bets_sql}", params)
    per_round = query(
        f"SELECT b.round_id, r.round_id, r.configuration_id, sum(b.stake) {bets_sql} "
        "GROUP BY b.round_id, r.round_id, r.configuration_id",
        params,
    )
    liabilities = [
        ((dec(stake) * top_odds(version, kind)).quantize(CENT), -pk, round_id)
        for pk, round_id, version, stake in per_round
    ]
    peak_liability, _, peak_round = max(liabilities)
    per_player = query(
        f"SELECT p.external_id, r.configuration_id, count(*), sum(b.stake) {bets_sql} "
        "GROUP BY p.external_id, r.configuration_id",
        params,
    )
    players = defaultdict(lambda: [0, Decimal(0), Decimal(0)])
    for player, version, count, stake in per_player:
        players[player][0] += count
        players[player][1] += dec(stake)
        players[player][2] += dec(stake) * top_odds(version, kind)
    ranked = sorted(players.items(), key=lambda item: (-item[1][2], -item[1][1], item[0]))[:10]
    after = query(
        f"SELECT count(*), sum(b.stake) {bets_sql} AND b.id IN "
        "(SELECT f.bet_id FROM rounds_finding f WHERE f.code = 'side_option_after_max_round')",
        params,
    )
    return {
        "bets": bets,
        "stakes": dec(stakes).quantize(CENT),
        "liability_total": sum(liability for liability, _, _ in liabilities),
        "peak_round_id": peak_round,
        "peak_liability": peak_liability,
        "top_players": [
            {
                "player": player,
                "bets": count,
                "stakes": str(stake.quantize(CENT)),
                "liability": str(liability.quantize(CENT)),
            }
            for player, (count, stake, liability) in ranked
        ],
        "after_max_round_bets": after[0][0],
        "after_max_round_stakes": dec(after[0][1]).quantize(CENT),
    }


def expected_pattern_hits(code: str, kind: str, bounds, *, by_round: bool) -> dict[str, dict]:
    bets_sql, params = side_bets(code, kind, bounds)
    hits = {
        pattern: (count, rounds)
        for pattern, count, rounds in query(
            f"SELECT b.computed_pattern, count(*), count(DISTINCT b.round_id) {bets_sql} "
            "AND b.computed_pattern <> '' GROUP BY b.computed_pattern",
            params,
        )
    }
    played = query(
        f"SELECT r.configuration_id, count(*), count(DISTINCT b.round_id) {bets_sql} "
        "GROUP BY r.configuration_id",
        params,
    )
    chances = {
        version: ConfigurationOdds.objects.get(configuration_id=version).figures["patterns"][kind]
        for version, _, _ in played
    }
    bets = sum(count for _, count, _ in played)
    rounds = sum(count for _, _, count in played)
    patterns = {pattern for figures in chances.values() for pattern in figures} | set(hits)
    entries = {}
    for pattern in patterns:
        expected_bets = sum(count * chances[version].get(pattern, 0) for version, count, _ in played)
        expected_rounds = sum(count * chances[version].get(pattern, 0) for version, _, count in played)
        hit_bets, hit_rounds = hits.get(pattern, (0, 0))
        # One unit for the hits, the expected number and the p-value: rounds where bets share cards.
        if by_round:
            hit, expected, trials = hit_rounds, expected_rounds, rounds
        else:
            hit, expected, trials = hit_bets, expected_bets, bets
        entries[pattern] = {
            "pattern": pattern,
            "hits": hit,
            "expected": round(expected, 4),
            "p_value": exact_p_value(hit, trials, expected / trials),
            "unit": "round" if by_round else "bet",
            "trials": trials,
            "bets_hit": hit_bets,
        }
    return entries


# --- tests ---------------------------------------------------------------------------------------------

KINDS = [
    ("DLX1", "pair"),
    ("BND1", "pair"),
    ("BND1", "bust_bonus"),
    ("BND1", "lucky_trio"),
    ("BND1", "poker_trio"),
]


def test_every_exposure_figure_matches_the_bets(day):
    assert DailyExposure.objects.count() == len(KINDS)
    for code, kind in KINDS:
        row = DailyExposure.objects.get(day=DAY, table__code=code, kind=kind)
        figures = DailyFigures.objects.get(day=DAY, table__code=code, kind=kind)
        expected = expected_exposure(code, kind, day)
        for name, value in expected.items():
            assert getattr(row, name) == value, (code, kind, name)
        assert (row.returned, row.observed_rtp, row.theoretical_rtp) == (
            figures.returned,
            figures.observed_rtp,
            figures.theoretical_rtp,
        )
        assert (row.game, row.currency) == (figures.game, figures.currency)


def test_version_2_changes_the_liability_and_flags_stakes_after_its_max_round(day):
    row = DailyExposure.objects.get(day=DAY, table__code="DLX1", kind="pair")
    assert row.after_max_round_bets > 0 and row.after_max_round_stakes > 0
    per_version = query(
        "SELECT c.version, sum(b.stake) FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id "
        "JOIN tables_tableconfiguration c ON c.id = r.configuration_id WHERE b.kind = 'pair' "
        "AND r.table_id = %s AND r.status = 'completed' GROUP BY c.version ORDER BY c.version",
        [Table.objects.get(code="DLX1").pk],
    )
    (_, stakes1), (_, stakes2) = per_version
    assert row.liability_total == (dec(stakes1) * 50 + dec(stakes2) * 60).quantize(CENT)  # 50:1, then 60:1


def test_pattern_hits_against_the_exact_odds(day):
    for code, kind in KINDS:
        row = DailyExposure.objects.get(day=DAY, table__code=code, kind=kind)
        expected = expected_pattern_hits(code, kind, day, by_round=code == "BND1")
        listed = [entry["pattern"] for entry in row.pattern_hits]
        assert set(listed) == set(expected)
        assert listed == [pattern for pattern in SIDE_OPTION_PATTERNS[kind] if pattern in expected]
        for entry in row.pattern_hits:
            wanted = expected[entry["pattern"]]
            same = ("pattern", "hits", "expected", "unit", "trials", "bets_hit")
            assert {k: entry[k] for k in same} == {k: wanted[k] for k in same}
            assert entry["p_value"] == pytest.approx(wanted["p_value"], rel=1e-3)


def test_a_shared_deal_is_one_trial_per_round(day):
    pair = DailyExposure.objects.get(day=DAY, table__code="BND1", kind="pair")
    hit = [entry for entry in pair.pattern_hits if entry["hits"]]
    bets_sql, params = side_bets("BND1", "pair", day)
    [(rounds_hit,)] = query(
        f"SELECT count(DISTINCT b.round_id) {bets_sql} AND b.computed_pattern <> ''", params
    )
    # Forty players share each deal: a pair pays many bets in one round, and is one trial.
    assert sum(entry["bets_hit"] for entry in hit) > 3 * rounds_hit
    assert sum(entry["hits"] for entry in hit) == rounds_hit
    assert {entry["unit"] for entry in pair.pattern_hits} == {"round"}
    assert {entry["unit"] for entry in DailyExposure.objects.get(table__code="DLX1").pattern_hits} == {"bet"}
