"""The daily report's figures on PostgreSQL (`make bench`; DATABASE_URL must name a PostgreSQL database).

One gaming day of 100,000 rounds over the four seed_demo tables (about ten bets a round: main bets,
bets behind, insurance and side options paying their patterns as often as the exact odds say; a few
cancelled rounds, findings, stakes after a side option's max round, approved re-settlements and
voids, each with its round's correction), written directly in SQL. Timed, best of 3 each:

- the job's work without Celery and PDFs: `table_day_compute` for every table, then `totals_compute`;
- the bare SQL aggregate over the same rows: one GROUP BY table, bet kind with count and sums;
- for reference, the floor of any job with per-round intervals: one aggregate over the per-round
  GROUP BY of the same rows, all tables at once.

Goal: the job within 2x of the bare aggregate. It works in its own scratch database
(<database>_bench_reports), dropped at the end. At BENCH_SCALE=smoke: 2,000 rounds, and only DLX1's
theoretical odds worked out (ODDS_TABLES).
"""

import time
from datetime import date
from decimal import Decimal

from .support import scratch_database, sized

GOAL_RATIO = 2.0
DAY = date(2026, 11, 20)
ROUNDS = sized(100_000, 2_000)
PLAYERS_PER_TABLE = sized(2_500, 100)
ROUNDS_PER_SHOE = 50
CANCELLED_EVERY = 401  # one round in 401 is cancelled (at every table in turn)
FINDING_EVERY = 101  # one round in 101 has a wrong payout found
RESETTLEMENTS = sized(100, 10)
VOIDS = sized(20, 5)  # settled rounds voided: each bet's payout reversed and its stake returned

# Each table's ten bets of a round, by kind: the mix of its rule sheet's offered kinds.
BET_KINDS = {
    "DLX1": ["main"] * 5 + ["behind", "behind", "insurance", "pair", "pair"],
    "BND1": ["main"] * 5 + ["insurance", "pair", "bust_bonus", "lucky_trio", "poker_trio"],
    "CLS1": ["main"] * 5 + ["behind", "behind", "insurance", "perfect_pairs", "twenty_one_plus_three"],
    "MPB1": ["main"] * 6 + ["behind", "behind", "behind", "insurance"],
}
# The tables whose theoretical odds are worked out and kept (tables.odds), as the job compares their
# RTP with: every table (None), or at smoke scale DLX1 alone, since each other main game takes 10-30 s
# from nothing; the others' side option pattern probabilities are then worked out alone, and their
# figures have no theory, as a table's do before its odds task has run.
ODDS_TABLES = sized(None, {"DLX1"})
MAIN_STAKES = ["5.00", "10.00", "10.00", "25.00", "2.50", "20.00", "50.00", "5.01", "12.50", "100.00"]
SIDE_STAKES = ["1.00", "2.00", "5.00", "0.50", "2.51", "10.00"]


def main():
    with scratch_database("reports") as database:
        if database is None:
            return
        started = time.perf_counter()
        bets = generate_day()
        print(
            f"   {ROUNDS:,} rounds, {bets:,} bets written in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        compare()


# --- the day's rows -------------------------------------------------------------------------------


def generate_day() -> int:
    """Write the day's rounds, bets, their registry keys, findings and re-settlements in SQL; the number of
    bets."""
    import io

    from django.core.management import call_command
    from django.db import connection

    from tables.models import Table
    from tables.odds import configuration_odds_compute

    call_command("seed_demo", stdout=io.StringIO())
    tables = list(Table.objects.order_by("code"))
    patterns = []
    for table in tables:
        configuration = table.configurations.get(version=1)
        if ODDS_TABLES is None or table.code in ODDS_TABLES:
            probabilities = configuration_odds_compute(configuration=configuration).figures["patterns"]
        else:
            probabilities = _side_option_probabilities(configuration.rule_set)
        patterns += _pattern_ranges(table.code, configuration.rule_set, probabilities)
    with connection.cursor() as cursor:
        _write_rows(cursor, tables, patterns)
    from tests.factories import user

    _write_resettlements(user("supervisor", "bench-proposer").pk, user("supervisor", "bench-approver").pk)
    _write_totals()
    with connection.cursor() as cursor:
        for name in (
            "limits_player",
            "rounds_round",
            "rounds_bet",
            "rounds_finding",
            "rounds_roundkey",
            "rounds_betkey",
            "rounds_adjustment",
            "rounds_roundcorrection",
            "rounds_tabledaytotal",
            "rounds_tabledaypatternhits",
            "rounds_playerdaytotal",
        ):
            cursor.execute(f"VACUUM ANALYZE {name}")  # as autovacuum would after a day's writes
        cursor.execute("SELECT count(*) FROM rounds_bet")
        return cursor.fetchone()[0]


def _side_option_probabilities(rules) -> dict:
    """Each side option's pattern probabilities, as tables.odds keeps them, without the main game's odds."""
    from blackjack.odds import side_option_odds

    return {
        option.kind: {
            pattern: float(probability)
            for pattern, probability in side_option_odds(rules, option.kind).probabilities.items()
        }
        for option in rules.side_options
    }


def _pattern_ranges(code: str, rules, probabilities: dict) -> list[tuple]:
    """(table, kind, pattern, returned per unit staked, low, high): a side bet whose random draw lies in
    [low, high) hits the pattern, so patterns hit as often as the exact odds say."""
    ranges = []
    for option in rules.side_options:
        low = 0.0
        for pattern, odds in option.paytable:
            high = low + probabilities[option.kind][pattern]
            ranges.append((code, option.kind, pattern, 1 + odds, low, high))
            low = high
    return ranges


def _write_rows(cursor, tables, patterns) -> None:
    from core.gaming_day import gaming_day
    from rounds.fields import compressed_json

    day = gaming_day(DAY)
    tables_values = ", ".join(
        cursor.mogrify("(%s, %s, %s, %s::text[])", [t.code, n, t.pk, BET_KINDS[t.code]])
        for n, t in enumerate(tables)
    )
    pattern_values = ", ".join(
        cursor.mogrify("(%s, %s, %s, %s::numeric, %s::float8, %s::float8)", row) for row in patterns
    )
    cursor.execute(
        "INSERT INTO limits_player (external_id, display_name, account_type, currency, status, created_at) "
        "SELECT 'BENCH' || lpad(n::text, 6, '0'), '', 'real', 'EUR', 'active', now() "
        "FROM generate_series(1, %s) n",
        [PLAYERS_PER_TABLE * len(tables)],
    )
    shoes = ROUNDS // len(tables) // ROUNDS_PER_SHOE + 1
    cursor.execute(
        "INSERT INTO rounds_shoe (code, first_seen_at, table_id) "
        "SELECT t.code || '-BENCH-' || s, now(), t.id FROM tables_table t, generate_series(0, %s) s",
        [shoes],
    )
    # Rounds evenly over the day (their gaming day is DAY), the tables taking turns; each shoe has
    # ROUNDS_PER_SHOE rounds.
    cursor.execute(
        f"""
        WITH bench_table (code, n, id, kinds) AS (VALUES {tables_values})
        INSERT INTO rounds_round (round_id, number, opened_at, gaming_day, closed_at, status, cancel_reason,
            cut_card, document, document_sha256, cards_taken, players, bet_count, wagered, returned,
            computed_wagered, computed_returned, finding_count, review_comment, ingested_at,
            configuration_id, table_id, shoe_id)
        SELECT t.code || '-BENCH-' || lpad(i::text, 6, '0'), (i / %(tables)s) %% %(per_shoe)s + 1,
            %(start)s + (%(seconds)s * i / %(rounds)s) * interval '1 second', %(day)s,
            %(start)s + (%(seconds)s * i / %(rounds)s + 40) * interval '1 second',
            CASE WHEN i %% %(cancelled)s = 7 THEN 'cancelled' ELSE 'completed' END,
            CASE WHEN i %% %(cancelled)s = 7 THEN 'malfunction' ELSE '' END,
            (i / %(tables)s) %% %(per_shoe)s = %(per_shoe)s - 1, %(document)s, '', '', 10, 10, 0, 0, 0, 0,
            (i %% %(finding)s = 3)::int, '', now(), c.id, t.id, shoe.id
        FROM generate_series(0, %(rounds)s - 1) i
        JOIN bench_table t ON t.n = i %% %(tables)s
        JOIN tables_tableconfiguration c ON c.table_id = t.id AND c.version = 1
        JOIN rounds_shoe shoe ON shoe.code = t.code || '-BENCH-' || (i / %(tables)s / %(per_shoe)s)
        """,
        {
            "tables": len(tables),
            "per_shoe": ROUNDS_PER_SHOE,
            "start": day.starts_at,
            "day": DAY,
            "seconds": (day.ends_at - day.starts_at).total_seconds() - 60,
            "rounds": ROUNDS,
            "cancelled": CANCELLED_EVERY,
            "finding": FINDING_EVERY,
            "document": compressed_json("{}"),  # as stored: zstd (rounds.fields)
        },
    )
    cursor.execute("SELECT min(id) FROM limits_player WHERE external_id LIKE 'BENCH%%'")
    first_player = cursor.fetchone()[0]
    # Ten bets a round. Main bets and bets behind win, push or pay a blackjack about as often as
    # the game does (RTP near 99.7%), insurance pays 2:1 three times in ten, side options pay their
    # patterns at the exact odds; a cancelled round returns every stake.
    cursor.execute(
        f"""
        WITH bench_table (code, n, id, kinds) AS (VALUES {tables_values}),
        pattern (code, kind, pattern, pays, low, high) AS (VALUES {pattern_values}),
        drawn AS (
            SELECT r.id AS round_id, r.round_id AS code, r.status, t.code AS table_code, t.n,
                slot, t.kinds[slot] AS kind, random() AS outcome, random() AS stake_draw,
                random() AS player_draw
            FROM rounds_round r
            JOIN bench_table t ON t.id = r.table_id
            CROSS JOIN generate_series(1, 10) slot
        ),
        staked AS (
            SELECT d.*, CASE WHEN d.kind IN ('main', 'behind', 'insurance')
                THEN (%(main_stakes)s::numeric[])[1 + floor(d.stake_draw * 10)::int]
                ELSE (%(side_stakes)s::numeric[])[1 + floor(d.stake_draw * 6)::int] END AS stake
            FROM drawn d
        ),
        settled AS (
            SELECT s.*, coalesce(p.pattern, '') AS pattern,
                CASE
                    WHEN s.status = 'cancelled' THEN s.stake
                    WHEN p.pattern IS NOT NULL THEN s.stake * p.pays
                    WHEN s.kind = 'insurance' THEN CASE WHEN s.outcome < 0.3 THEN s.stake * 3 ELSE 0 END
                    WHEN s.kind IN ('main', 'behind') THEN CASE
                        WHEN s.outcome < 0.40 THEN s.stake * 2
                        WHEN s.outcome < 0.485 THEN s.stake
                        WHEN s.outcome < 0.53 THEN floor(s.stake * 250) / 100
                        ELSE 0 END
                    ELSE 0
                END AS returned
            FROM staked s
            LEFT JOIN pattern p ON p.code = s.table_code AND p.kind = s.kind
                AND s.outcome >= p.low AND s.outcome < p.high AND s.status = 'completed'
        )
        INSERT INTO rounds_bet (bet_id, gaming_day, spot, kind, stake, wagered, returned, computed_wagered,
            computed_returned, computed_pattern, options, player_id, round_id)
        SELECT code || '-' || slot, %(day)s, slot::text, kind, stake, stake, returned, stake, returned,
            pattern, '{{}}', %(first_player)s + n * %(players)s + floor(player_draw * %(players)s)::int,
            round_id
        FROM settled
        ORDER BY round_id, slot  -- a round's bets together, the tables' rounds interleaved, as ingest does
        """,
        {
            "main_stakes": MAIN_STAKES,
            "side_stakes": SIDE_STAKES,
            "first_player": first_player,
            "players": PLAYERS_PER_TABLE,
            "day": DAY,
        },
    )
    # The registry of every round and bet id, as ingest writes it (rounds.registry): the corrections'
    # foreign keys point at it.
    cursor.execute(
        "INSERT INTO rounds_roundkey (id, round_id, gaming_day, table_id) "
        "SELECT id, round_id, gaming_day, table_id FROM rounds_round ORDER BY id"
    )
    cursor.execute(
        "INSERT INTO rounds_betkey (id, bet_id, round_id) SELECT id, bet_id, round_id FROM rounds_bet "
        "ORDER BY round_id, bet_id"
    )
    # At Boundless, side options closed after their max round (pair 40, the others 45) were staked.
    cursor.execute(
        """
        INSERT INTO rounds_finding (code, spot, hand, message, bet_id, round_id, gaming_day)
        SELECT 'side_option_after_max_round', b.spot, NULL, 'Side option staked after its max round',
            b.id, r.id, r.gaming_day
        FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id
        JOIN tables_table t ON t.id = r.table_id
        WHERE t.code = 'BND1' AND ((b.kind = 'pair' AND r.number > 40)
            OR (b.kind IN ('bust_bonus', 'lucky_trio', 'poker_trio') AND r.number > 45))
        """
    )
    cursor.execute(
        """
        INSERT INTO rounds_finding (code, spot, hand, message, bet_id, round_id, gaming_day)
        SELECT 'wrong_returned', '1', NULL, 'Returned amount differs from the computed one', NULL, r.id,
            r.gaming_day
        FROM rounds_round r WHERE r.finding_count > 0
        """
    )


def _write_resettlements(proposer: int, approver: int) -> None:
    """Approved re-settlements of RESETTLEMENTS completed rounds, each paying one bet 1.00 more, and
    approved voids of VOIDS other completed rounds; each round's correction (RoundCorrection)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO rounds_resettlement (status, reason, proposed_at, decided_at, decision_comment,
                decided_by_id, proposed_by_id, round_id)
            SELECT 'approved', 'bench', now(), now(), 'bench', %s, %s, r.id
            FROM rounds_round r WHERE r.status = 'completed' AND r.finding_count > 0
            ORDER BY r.id LIMIT %s
            """,
            [approver, proposer, RESETTLEMENTS],
        )
        cursor.execute(
            """
            INSERT INTO rounds_adjustment (amount, created_at, bet_id, resettlement_id, gaming_day)
            SELECT 1.00, now(), (SELECT min(b.id) FROM rounds_bet b WHERE b.round_id = s.round_id), s.id,
                r.gaming_day
            FROM rounds_resettlement s JOIN rounds_round r ON r.id = s.round_id
            """
        )
        cursor.execute(
            """
            INSERT INTO rounds_void (status, reason, proposed_at, decided_at, decision_comment, decided_by_id,
                proposed_by_id, round_id)
            SELECT 'approved', 'bench', now(), now(), 'bench', %s, %s, r.id
            FROM rounds_round r WHERE r.status = 'completed' AND r.finding_count = 0
            ORDER BY md5(r.id::text) LIMIT %s  -- spread over the day, as malfunctions come
            """,
            [approver, proposer, VOIDS],
        )
        cursor.execute(
            """
            INSERT INTO rounds_voidline (reversed_returned, returned_stake, created_at, bet_id, void_id)
            SELECT b.returned, b.wagered, now(), b.id, v.id
            FROM rounds_void v JOIN rounds_bet b ON b.round_id = v.round_id
            """
        )
        cursor.execute(
            """
            INSERT INTO rounds_roundcorrection (round_id, kind, resettlement_id, incident_id, void_id,
                recorded_by_id, recorded_at)
            SELECT round_id, 'resettled', id, NULL::bigint, NULL::bigint, %s, now() FROM rounds_resettlement
            UNION ALL
            SELECT round_id, 'voided', NULL::bigint, NULL::bigint, id, %s, now() FROM rounds_void
            """,
            [approver, approver],
        )


def _write_totals() -> None:
    """The day totals ingest adds each completed round to (rounds/totals.py), here from the bets
    written above, as the migration that introduced them writes them for stored rounds."""
    import importlib

    from django.apps import apps
    from django.db import connection

    migration = importlib.import_module("rounds.migrations.0006_day_totals_for_reports")
    migration.totals_of_stored_rounds(apps, connection.schema_editor())


# --- timing ---------------------------------------------------------------------------------------


def bare_aggregate() -> list:
    """The bare SQL aggregate over the day's rows: one GROUP BY table, kind with count and sums."""
    from django.db import connection

    from core.gaming_day import gaming_day

    day = gaming_day(DAY)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT r.table_id, b.kind, count(*), sum(b.wagered), sum(b.returned)
            FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id
            WHERE r.opened_at >= %s AND r.opened_at < %s
            GROUP BY r.table_id, b.kind
            """,
            [day.starts_at, day.ends_at],
        )
        return cursor.fetchall()


def per_round_aggregate() -> list:
    """For reference, the floor of any job with per-round intervals: one aggregate over the per-round
    GROUP BY of the same rows (n, ΣW, ΣR, ΣW², ΣR², ΣWR per table and kind), all tables at once, in a
    session tuned as the job's."""
    from django.db import connection, transaction

    from core.gaming_day import gaming_day
    from reports.daily import tune_session

    day = gaming_day(DAY)
    with transaction.atomic(), connection.cursor() as cursor:
        tune_session()
        cursor.execute(
            """
            SELECT table_id, kind, count(*), sum(w), sum(r), sum(w * w), sum(r * r), sum(w * r)
            FROM (
                SELECT r.table_id, b.round_id, b.kind, sum(b.wagered) AS w, sum(b.returned) AS r
                FROM rounds_bet b JOIN rounds_round r ON r.id = b.round_id
                WHERE r.opened_at >= %s AND r.opened_at < %s AND r.status = 'completed'
                GROUP BY r.table_id, b.round_id, b.kind
            ) per_round
            GROUP BY table_id, kind
            """,
            [day.starts_at, day.ends_at],
        )
        return cursor.fetchall()


def daily_job() -> dict[str, float]:
    """The daily job's work without Celery and PDFs: every table's figures, then the totals. The
    seconds of each step."""
    from django.conf import settings

    from reports.daily import table_day_compute, totals_compute
    from reports.models import ReportRun, RunTrigger
    from tables.models import Table

    run = ReportRun.objects.create(
        day=DAY,
        trigger=RunTrigger.COMMAND,
        time_zone=settings.PITBOSS_GAMING_DAY_TIME_ZONE,
        cutoff=settings.PITBOSS_GAMING_DAY_CUTOFF,
    )
    seconds = {}
    for table in Table.objects.order_by("code"):
        started = time.perf_counter()
        table_day_compute(table=table, day=DAY, run=run)
        seconds[table.code] = time.perf_counter() - started
    started = time.perf_counter()
    totals_compute(day=DAY, run=run)
    seconds["totals"] = time.perf_counter() - started
    return seconds


def best_of_3(work) -> tuple[float, object]:
    """The best time of three runs, and what that run returned."""
    best, result = float("inf"), None
    for _ in range(3):
        started = time.perf_counter()
        returned = work()
        seconds = time.perf_counter() - started
        if seconds < best:
            best, result = seconds, returned
    return best, result


def compare() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from reports.models import DailyExposure, DailyFigures

    bare_aggregate()  # the rows into the cache for both
    bare, _ = best_of_3(bare_aggregate)
    per_round, _ = best_of_3(per_round_aggregate)
    job, steps = best_of_3(daily_job)
    with CaptureQueriesContext(connection) as queries:
        daily_job()
    handle = sum((row.wagered for row in DailyFigures.objects.filter(table=None)), Decimal(0))
    print(
        f"   stored: {DailyFigures.objects.count()} figure rows, {DailyExposure.objects.count()} exposure "
        f"rows; handle {handle:,} EUR; {len(queries)} queries for the whole day"
    )
    print(f"   bare SQL GROUP BY table, kind (best of 3): {bare:.3f} s")
    print(f"   for reference, the per-round GROUP BY alone, all tables at once: {per_round:.3f} s")
    print(f"   table_day_compute x 4 + totals_compute (best of 3): {job:.3f} s")
    print("      " + ", ".join(f"{step} {seconds:.2f} s" for step, seconds in steps.items()))
    ratio = job / bare
    verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
    print(f"   job / bare SQL = {ratio:.2f}x (goal <= {GOAL_RATIO:.0f}x: {verdict})", flush=True)
    catch_up = players_catch_up()
    print(
        f"   players' day totals added from the bets in batches, the whole day at once (beat does it "
        f"every minute during the day): {catch_up:.3f} s",
        flush=True,
    )


def players_catch_up() -> float:
    """The seconds `player_totals_catch_up` takes for every round of the day, as if none had been added."""
    from django.db import connection

    from rounds.models import PlayerDayTotal
    from rounds.totals import player_totals_catch_up

    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {PlayerDayTotal._meta.db_table}")
        cursor.execute(
            "INSERT INTO rounds_playertotalspending (round_id, day, table_id) "
            "SELECT id, %s, table_id FROM rounds_round WHERE status = 'completed'",
            [DAY],
        )
        cursor.execute("VACUUM ANALYZE rounds_playertotalspending")
    started = time.perf_counter()
    player_totals_catch_up()
    return time.perf_counter() - started
