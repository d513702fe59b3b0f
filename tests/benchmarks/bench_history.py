"""One hot month against the whole history, and bytes per bet on disk (`make bench BENCH=history`;
DATABASE_URL must be PostgreSQL; issue 21).

A synthetic history of 24 months of gaming days (2024-12 to 2026-11) is written by SQL in a scratch
database (<database>_bench_history, dropped at the end) after seed_demo, by
tests/benchmarks/history_build.py: at scale 1.0 about 25 million bets in some 800,000 rounds, mostly
at BND1 (Boundless, 100 to 1,000 players a round), each round a copy of a real simulated and
ingested one, with its document as received. At BENCH_SCALE=smoke, SCALE multiplies the rounds by
0.0005 (a few rounds a table a month).

The hot month (2026-11) is written first and measured; then the 23 months before it, and the same is
measured again, in the same run; each figure is given as whole history / one month:

- the round list (newest page, filtered, one gaming day, a mid-month keyset page) and the page of a
  300-player Boundless round ingested for real: p99 under gunicorn with wrk, as bench_pages measures
  them (its helpers), each page 3 times in turn and the median kept (history_pages); goal <= 1.2x.
  Also given against each run's baseline page, which takes out a change in the machine's load
  between the two;
- ingest of a 5,000-player Boundless round (round_ingest, as bench_ingest: the median of the rounds
  after the first); goal <= 1.1x;
- the daily job for one day (bench_reports's: table_day_compute for every table, then totals_compute,
  best of 3) for bench_reports's day, 2026-11-20; goal <= 1.1x. These two are also given against a
  load reference: the seconds each run takes to simulate the same 5,000-player rounds in Python,
  the garbage collector paused.

Then bytes per bet: after VACUUM ANALYZE, the size on disk (table, TOAST and indexes) of every table
written per round, divided by the bets stored, per table and the documents' share, with what ten
years of one Boundless table at a round a minute with 5,000 players (7.2 million bets a day) would
take (the day totals grow by day, not by bet: there, as a day of such rounds writes them); goal <=
300 bytes a bet hot. The same for the 5,000-player rounds ingested here alone, copied
into tables of their own (real rows as ingest writes them, which synthetic ones may not match).

Last, the archive round trip on the oldest month (past the hot window): every table's export and
verification (every file read back), rows per second both ways, the archive's bytes per bet (goal
<= 40), the month's partitions dropped, and the page of its biggest BND1 round, p99 from the archive
against the same page's while it was in the database (goal <= 3x). Then ten years of one Boundless
table as Pitboss keeps them: the hot window in PostgreSQL, older months in the archive, and every
archived round's and bet's key still in PostgreSQL's registry.
"""

import gc
import shutil
import statistics
import time
from datetime import UTC, date, datetime

from .bench_ingest import PLAYERS as INGEST_PLAYERS
from .history_archive import archive_round_trip, verdict
from .support import CollectorTime, bench_scale, scratch_database, sized

GOAL_PAGES = 1.2
GOAL_INGEST = 1.1
GOAL_JOB = 1.1
GOAL_BYTES_PER_BET = 300
INGEST_ROUNDS = sized(9, 2)  # bench_ingest's rounds ingested each run; the median is of those after the first
PAGE_ROUND_PLAYERS = sized(300, 30)
# What the history's rounds are multiplied by: about 25 million bets at 1.0, some hundreds at smoke scale.
SCALE = sized(1.0, 0.0005)
MID_MONTH = datetime(2026, 11, 15, 12, tzinfo=UTC)  # the keyset page starts at the last round before it
LIST_DAY = date(2026, 11, 12)
BETS_A_DAY = 7_200_000  # one Boundless table, a round a minute with 5,000 players (issue 21)
DAYS_IN_TEN_YEARS = 3_652.5


def main():
    if shutil.which("wrk") is None:
        print("   skipped: wrk is not installed (apt-get install wrk)")
        return
    with scratch_database("history") as database:
        if database is None:
            return
        bench(database, SCALE)


def bench(database: str, scale: float) -> None:
    from .bench_reports import DAY
    from .history_build import expected_at, helpers_drop, history_months, templates_ingest

    months = history_months()
    hot = months[-1]
    assert (DAY.year, DAY.month) == (hot.year, hot.month), "the daily job's day must lie in the hot month"
    print(f"   scale {scale} (BENCH_SCALE={bench_scale()})", flush=True)
    started = time.perf_counter()
    _prepare()
    templates = templates_ingest()
    page_round = _page_round()
    session = _session()
    print(
        f"   seed_demo, {templates} template rounds and a {PAGE_ROUND_PLAYERS}-player round ingested in "
        f"{time.perf_counter() - started:.0f} s",
        flush=True,
    )
    full_rounds, full_bets = expected_at(1.0)
    timings = [_build("one month", [hot], scale)]
    cursor = _cursor_before(MID_MONTH)  # in the hot month: the same round in both runs
    measured = {"one month": _measure("one month", database, page_round, cursor, session)}
    timings.append(_build("whole history", months[:-1], scale))
    measured["whole history"] = _measure("whole history", database, page_round, cursor, session)
    helpers_drop()
    _build_summary(timings, full_rounds, full_bets)
    _compare(measured["one month"], measured["whole history"])
    real = real_rounds_bytes(["ONE-", "ALL-"], bytes_per_bet())
    archive_per_bet = archive_round_trip(database, session)  # last: it drops the oldest month
    if archive_per_bet is not None:
        ten_years_as_kept(real, archive_per_bet)


# --- building ---------------------------------------------------------------------------------------


def _prepare() -> None:
    """seed_demo, BND2 and BND1's limits as bench_ingest sets them (its simulated stakes replay clean)."""
    from .bench_ingest import _prepare as ingest_prepare

    ingest_prepare()


def _page_round() -> str:
    """A 300-player Boundless round ingested for real, for the round page (as bench_pages's)."""
    import json

    from blackjack.rules import preset
    from blackjack.simulate import simulate
    from rounds.ingest import round_ingest

    from .bench_ingest import _prefix_ids

    start = datetime(2026, 11, 28, 9, tzinfo=UTC)
    document = next(
        simulate(preset("boundless"), table="BND1", shoes=1, players=PAGE_ROUND_PLAYERS, seed=5, start=start)
    )
    document = json.loads(json.dumps(document))
    _prefix_ids(document, "PAGE-")
    return round_ingest(document=document).round.round_id


def _session() -> str:
    """A signed-in compliance officer's session cookie, as a browser would have it (bench_pages)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="compliance"))
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _build(label: str, months: list[date], scale: float) -> dict:
    """Write `months` of history, VACUUM ANALYZE (as autovacuum would after the writes) and CHECKPOINT,
    print what was written and the row counts; {"bets": written, "rows": seconds writing rows,
    "totals": seconds rebuilding the day totals}."""
    from django.db import connection

    from .history_build import history_build

    rows_seconds = []

    def report(month, rows, seconds):
        rows_seconds.append(seconds)
        print(
            f"      {month:%Y-%m}: {rows['rounds_round']:,} rounds, {rows['rounds_bet']:,} bets "
            f"in {seconds:.1f} s",
            flush=True,
        )

    print(f"   {label}: writing {len(months)} month(s) by SQL", flush=True)
    started = time.perf_counter()
    written = history_build(months, scale, report)
    seconds = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        # The writes' dirty pages flushed now, not by a checkpoint during the measurements (at scale
        # 1.0 one slowed the baseline page 4.6x, 2026-12-03).
        cursor.execute("CHECKPOINT")
    timing = {"bets": written["rounds_bet"], "rows": sum(rows_seconds), "totals": seconds - sum(rows_seconds)}
    print(
        f"   {label}: {written['rounds_round']:,} rounds, {written['rounds_bet']:,} bets written in "
        f"{timing['rows']:.1f} s ({timing['bets'] / timing['rows']:,.0f} bets/s), day totals rebuilt in "
        f"{timing['totals']:.1f} s, VACUUM ANALYZE {time.perf_counter() - started - seconds:.1f} s",
        flush=True,
    )
    print(
        "      stored now: " + ", ".join(f"{table} {count:,}" for table, count in row_counts().items()),
        flush=True,
    )
    return timing


def row_counts() -> dict[str, int]:
    from django.db import connection

    counts = {}
    with connection.cursor() as cursor:
        for model in _per_round_models():
            cursor.execute(f"SELECT count(*) FROM {model._meta.db_table}")
            counts[model._meta.db_table] = cursor.fetchone()[0]
    return counts


def _build_summary(timings: list[dict], full_rounds: int, full_bets: int) -> None:
    """The history's size against issue 21's, and how long scale 1.0 would take to write at this
    run's rate (the rows; the day totals, rebuilt day by day, are given as they took here)."""
    from rounds.models import Bet

    from .history_build import MONTHS

    bets = Bet.objects.count()
    goal = "met" if bets >= 20_000_000 else "not at this scale"
    print(f"   the history: {bets:,} bets over {MONTHS} months (issue 21 asks >= 20,000,000: {goal})")
    rate = sum(t["bets"] for t in timings) / sum(t["rows"] for t in timings)
    print(
        f"   at scale 1.0: about {full_rounds:,} rounds and {full_bets:,} bets; writing their rows at this "
        f"run's rate ({rate:,.0f} bets/s) would take about {full_bets / rate / 60:.0f} min, plus the day "
        f"totals of every day (here {timings[-1]['totals']:.0f} s, with fewer bets a day)",
        flush=True,
    )


def _cursor_before(moment: datetime) -> str:
    """The round list's keyset cursor (rounds.selectors.cursor_of) of the last round before `moment`."""
    from rounds.models import Round
    from rounds.selectors import cursor_of
    from rounds.views import NEWEST_PLAYED_FIRST, ROUND_ORDERS

    newest_first = ROUND_ORDERS[NEWEST_PLAYED_FIRST]
    return cursor_of(Round.objects.filter(opened_at__lt=moment).order_by(*newest_first)[0], newest_first)


# --- measuring ---------------------------------------------------------------------------------------


def _measure(label: str, database: str, page_round: str, cursor: str, session: str) -> dict:
    print(f"   measured with {label}:", flush=True)
    figures = {"pages": _pages(database, page_round, cursor, session)}
    figures["ingest"] = _ingest("ONE-" if label == "one month" else "ALL-")
    figures["job"] = _daily_job()
    return figures


def _pages(database: str, page_round: str, cursor: str, session: str) -> dict:
    from urllib.parse import quote

    from .bench_pages import WRK
    from .history_pages import SAMPLES, pages_served_in_turn

    pages = {
        "round list, newest page": "/rounds/",
        "round list, filtered (table, has findings)": "/rounds/?table=DLX1&has_findings=true",
        f"round list, one gaming day (?day={LIST_DAY})": f"/rounds/?day={LIST_DAY}",
        "round list, mid-month page (keyset ?before=)": f"/rounds/?before={quote(cursor)}",
        f"round page, {PAGE_ROUND_PLAYERS}-player Boundless round": f"/rounds/{page_round}/",
    }
    print(
        f"      gunicorn -w 2, {' '.join(WRK)}, each page {SAMPLES} times in turn, signed in as compliance:",
        flush=True,
    )
    results, baseline = pages_served_in_turn(database, pages, session)
    for title, figures in results.items():
        print(f"      {title}: {figures}", flush=True)
    print(
        f"      baseline page (signed in, one query), before the first turn and after each: {baseline}",
        flush=True,
    )
    return {"baseline": baseline.p99, **{title: figures.p99 for title, figures in results.items()}}


def _ingest(prefix: str) -> dict:
    """The median seconds of round_ingest of bench_ingest's 5,000-player rounds (ids prefixed), and
    the seconds simulating them took: the same Python work in every run, a reference for the
    machine's load (a shared machine's swings as much as what is measured). The reference runs with
    the garbage collector paused: run 8c found it was more than half the simulating, and that half
    grew with the objects this process had made by then (1.76x between the two measurements), not
    with the machine's load. The ingests run with this process's earlier objects frozen (gc.freeze),
    and the collector's seconds in them are given."""
    from rounds.ingest import round_ingest

    from .bench_ingest import PLAYERS, _prefix_ids, _rounds

    gc.disable()
    try:
        started = time.perf_counter()
        documents = _rounds(PLAYERS, INGEST_ROUNDS, seed=2026)
        reference = time.perf_counter() - started
    finally:
        gc.enable()
    seconds = []
    # What this process holds (the documents to ingest among it) is set aside from the collector's
    # scans, as a server's worker holds only its request: run 8d found it scanning them during the
    # ingests, 0.09 s with one month and 0.36 s with the whole history (one ingest 0.42 s for 0.19).
    gc.collect()
    gc.freeze()
    try:
        with CollectorTime() as collector:
            for document in documents:
                _prefix_ids(document, prefix)
                started = time.perf_counter()
                round_ingest(document=document)
                seconds.append(time.perf_counter() - started)
    finally:
        gc.unfreeze()
    median = statistics.median(seconds[1:])
    print(
        f"      round_ingest of a {PLAYERS:,}-player Boundless round: "
        + ", ".join(f"{s:.3f}" for s in seconds)
        + f" s (median after the first: {median:.3f} s; the garbage collector {collector.seconds:.2f} s of "
        f"them all, {collector.objects:,} objects tracked, the rest frozen); simulating them, the "
        f"collector paused: {reference:.2f} s",
        flush=True,
    )
    return {"median": median, "reference": reference}


def _daily_job() -> dict:
    from .bench_reports import DAY, best_of_3, daily_job

    seconds, steps = best_of_3(daily_job)
    print(
        f"      daily job for {DAY} (best of 3): {seconds:.3f} s ("
        + ", ".join(f"{step} {value:.2f} s" for step, value in steps.items())
        + ")",
        flush=True,
    )
    return {"seconds": seconds}


def _compare(one: dict, whole: dict) -> None:
    print("   whole history / one month:")
    pages_one, pages_whole = one["pages"], whole["pages"]
    for title in pages_one:
        if title == "baseline":
            continue
        ratio = pages_whole[title] / pages_one[title]
        relative = (pages_whole[title] / pages_whole["baseline"]) / (pages_one[title] / pages_one["baseline"])
        print(
            f"      {title}: p99 {pages_one[title]:.1f} -> {pages_whole[title]:.1f} ms = {ratio:.2f}x "
            f"(goal <= {GOAL_PAGES}x: {verdict(ratio, GOAL_PAGES)}; "
            f"against the baseline page: {relative:.2f}x)"
        )
    base = pages_whole["baseline"] / pages_one["baseline"]
    print(
        f"      (the baseline page's p99: {pages_one['baseline']:.1f} -> {pages_whole['baseline']:.1f} ms "
        f"= {base:.2f}x)"
    )
    load = whole["ingest"]["reference"] / one["ingest"]["reference"]
    ratio = whole["ingest"]["median"] / one["ingest"]["median"]
    print(
        f"      ingest of a {INGEST_PLAYERS:,}-player round, median: {one['ingest']['median']:.3f} -> "
        f"{whole['ingest']['median']:.3f} s = {ratio:.2f}x "
        f"(goal <= {GOAL_INGEST}x: {verdict(ratio, GOAL_INGEST)}; "
        f"against the load reference: {ratio / load:.2f}x)"
    )
    ratio = whole["job"]["seconds"] / one["job"]["seconds"]
    print(
        f"      daily job for one day: {one['job']['seconds']:.3f} -> {whole['job']['seconds']:.3f} s "
        f"= {ratio:.2f}x (goal <= {GOAL_JOB}x: {verdict(ratio, GOAL_JOB)}; "
        f"against the load reference: {ratio / load:.2f}x)"
    )
    print(
        f"      (the load reference, simulating the same {INGEST_ROUNDS} rounds in Python: "
        f"{one['ingest']['reference']:.2f} -> {whole['ingest']['reference']:.2f} s = {load:.2f}x)",
        flush=True,
    )


# --- bytes per bet --------------------------------------------------------------------------------------
#
# The rows of a round grow with its bets; the day totals with the days, tables, players and kinds,
# not with the bets: their share per bet is given as stored here and, for the projection, at a
# round a minute with 5,000 players (rows a day as the real 5,000-player rounds would write, at the
# bytes a row they take here).


def _round_models() -> list:
    """The tables ingest writes for each round (the shoe: once a shoe)."""
    from rounds.models import Bet, BetKey, Finding, Round, RoundKey, Shoe

    return [Round, Bet, Finding, RoundKey, BetKey, Shoe]


def _day_models() -> list:
    """The day totals ingest and its catch-up add each round to."""
    from rounds.models import PlayerDayTotal, PlayerTotalsPending, TableDayPatternHits, TableDayTotal

    return [TableDayTotal, TableDayPatternHits, PlayerDayTotal, PlayerTotalsPending]


def _per_round_models() -> list:
    return _round_models() + _day_models()


# Heap, TOAST (with the free-space and visibility maps) and indexes of a table and, when it is
# partitioned, of every partition (pg_partition_tree lists none for a plain table).
SIZES_SQL = """
WITH tree AS (SELECT relid FROM pg_partition_tree(%(table)s::regclass) UNION SELECT %(table)s::regclass)
SELECT coalesce(sum(pg_relation_size(relid)), 0),
    coalesce(sum(pg_table_size(relid) - pg_relation_size(relid)), 0), coalesce(sum(pg_indexes_size(relid)), 0)
FROM tree
"""


def _print_sizes(cursor, tables: list[str], bets: int, document_table: str) -> dict[str, int]:
    """Print each table's rows and bytes per bet (heap, TOAST, indexes; the documents' share of
    `document_table`); {table: bytes}."""
    cursor.execute(f"SELECT coalesce(sum(pg_column_size(document)), 0) FROM {document_table}")
    document = cursor.fetchone()[0]
    sizes = {}
    for table in tables:
        cursor.execute(SIZES_SQL, {"table": table})
        heap, toast, indexes = (int(value) for value in cursor.fetchone())
        sizes[table] = size = heap + toast + indexes
        cursor.execute(f"SELECT count(*) FROM {table}")
        rows = cursor.fetchone()[0]
        line = (
            f"      {table}: {rows:,} rows, {size / 2**20:,.1f} MB = {size / bets:.1f} B/bet "
            f"(heap {heap / bets:.1f}, TOAST {toast / bets:.1f}, indexes {indexes / bets:.1f})"
        )
        if table == document_table:
            line += f"; the document column (pg_column_size): {document / bets:.1f} B/bet"
        print(line)
    return sizes


def bytes_per_bet() -> dict:
    """The history's bytes per bet on disk, per table (printed); {"rows": the per-round tables' bytes
    per bet, "per_row": each day total's bytes per row}."""
    from django.db import connection

    from rounds.models import Bet

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        bets = Bet.objects.count()
        cursor.execute("SELECT count(DISTINCT gaming_day) FROM rounds_round")
        days = cursor.fetchone()[0]
        print(
            f"   bytes on disk after VACUUM ANALYZE (table, TOAST and indexes), the whole history: "
            f"{bets:,} bets over {days} gaming days:"
        )
        rounds = [model._meta.db_table for model in _round_models()]
        sizes = _print_sizes(cursor, rounds + [m._meta.db_table for m in _day_models()], bets, "rounds_round")
        per_row = {}
        for model in _day_models():
            per_row[model] = sizes[model._meta.db_table] / max(1, model.objects.count())
    rows = sum(sizes[table] for table in rounds) / bets
    day_share = (sum(sizes.values()) - rows * bets) / bets
    print(
        f"      rows of the rounds: {rows:.1f} B/bet; day totals: {day_share:.1f} B/bet at this history's "
        f"{bets / days:,.0f} bets a day"
    )
    _goal_line("the whole history, as stored", rows + day_share)
    return {"rows": rows, "per_row": per_row}


def _goal_line(label: str, per_bet: float) -> None:
    print(
        f"      {label}: {per_bet:.1f} B/bet (goal <= {GOAL_BYTES_PER_BET}: "
        f"{verdict(per_bet, GOAL_BYTES_PER_BET)})",
        flush=True,
    )


def real_rounds_bytes(prefixes: list[str], history: dict) -> dict:
    """Bytes per bet of the rounds ingested for real whose ids start with `prefixes` (rows as ingest
    writes them): their rows copied into tables of their own (same columns and indexes), measured
    after VACUUM ANALYZE, with the day totals of a day of such rounds at a round a minute. Then ten
    years of one such table all hot, by these rows and by the history's. {"hot": B/bet with the day
    totals, "registry": the registry's B/bet (round and bet keys)}."""
    from django.db import connection

    from rounds.models import (
        Bet,
        BetKey,
        Finding,
        PlayerDayTotal,
        Round,
        RoundKey,
        TableDayPatternHits,
        TableDayTotal,
    )

    wanted = " OR ".join(["round_id LIKE %s"] * len(prefixes))
    patterns = [prefix + "%" for prefix in prefixes]
    clones = {}
    with connection.cursor() as cursor:
        for model in (Round, Bet, Finding, RoundKey, BetKey):
            table, clone = model._meta.db_table, f"bench_history_real_{model._meta.model_name}"
            clones[table] = clone
            cursor.execute(f"DROP TABLE IF EXISTS {clone}")
            cursor.execute(f"CREATE TABLE {clone} (LIKE {table} INCLUDING ALL)")
            by_code = model in (Round, RoundKey)
            where = wanted if by_code else f"round_id IN (SELECT id FROM rounds_round WHERE {wanted})"
            # In the order ingest wrote them, which decides how full the index pages are: by id, and
            # the registry's bet ids sorted within each round (rounds.ingest.store).
            order = "round_id, bet_id" if model is BetKey else "id"
            cursor.execute(
                f"INSERT INTO {clone} SELECT * FROM {table} WHERE {where} ORDER BY {order}", patterns
            )
            cursor.execute(f"VACUUM ANALYZE {clone}")
        bet = clones["rounds_bet"]
        cursor.execute(
            f"SELECT count(*), count(DISTINCT (player_id, kind)), count(DISTINCT kind), "
            f"count(DISTINCT (kind, computed_pattern)) FILTER (WHERE computed_pattern <> '') FROM {bet}"
        )
        bets, players_kinds, kinds, patterns_hit = cursor.fetchone()
        cursor.execute(f"SELECT count(*) FROM {clones['rounds_round']}")
        rounds = cursor.fetchone()[0]
        print(
            f"   the same for the {rounds} {', '.join(prefixes)} {INGEST_PLAYERS:,}-player rounds ingested "
            f"here alone ({bets:,} bets, their rows copied into tables of their own):"
        )
        sizes = _print_sizes(cursor, list(clones.values()), bets, clones["rounds_round"])
        for clone in clones.values():
            cursor.execute(f"DROP TABLE {clone}")
    rows = sum(sizes.values()) / bets
    # A day of such rounds at one table: a player total per player and kind, a table total per kind,
    # pattern hits per kind and pattern (as many as these rounds have), at the bytes a row takes here.
    per_row = history["per_row"]
    day_bytes = (
        players_kinds * per_row[PlayerDayTotal]
        + kinds * per_row[TableDayTotal]
        + patterns_hit * per_row[TableDayPatternHits]
    )
    day_share = day_bytes / BETS_A_DAY
    print(
        f"      rows of the rounds: {rows:.1f} B/bet; day totals at a round a minute "
        f"({players_kinds:,} player totals, {kinds + patterns_hit} table totals a day): {day_share:.2f} B/bet"
    )
    _goal_line(f"real {INGEST_PLAYERS:,}-player rounds with their day totals", rows + day_share)
    print(
        f"   10 years of one Boundless table, a round a minute with 5,000 players "
        f"({BETS_A_DAY / 1e6:.1f} million bets a day):"
    )
    for label, per_bet in (("the real rounds' rows", rows), ("the history's rows", history["rows"])):
        total = (per_bet + day_share) * BETS_A_DAY * DAYS_IN_TEN_YEARS
        print(
            f"      by {label} ({per_bet + day_share:.1f} B/bet): {total / 1e12:.1f} TB, "
            f"{total / 1e13:.2f} TB a year"
        )
    registry = sum(sizes[clones[model._meta.db_table]] for model in (RoundKey, BetKey)) / bets
    return {"hot": rows + day_share, "registry": registry}


def ten_years_as_kept(real: dict, archive_per_bet: float) -> None:
    """Ten years of one Boundless table as Pitboss keeps them: the hot window (the current month and
    PITBOSS_HOT_MONTHS before it) whole in PostgreSQL, every older month in the archive, and its
    round and bet keys still in PostgreSQL's registry (kept for good: no later round may take an
    id). `real` is real_rounds_bytes's answer; `archive_per_bet` the archive's B/bet."""
    from django.conf import settings

    bets_a_month = BETS_A_DAY * DAYS_IN_TEN_YEARS / 120
    hot_months = settings.PITBOSS_HOT_MONTHS + 1
    hot = real["hot"] * bets_a_month * hot_months
    registry = real["registry"] * bets_a_month * (120 - hot_months)
    archive = archive_per_bet * bets_a_month * (120 - hot_months)
    registry_a_year = real["registry"] * bets_a_month * 12
    print(
        f"   10 years of one Boundless table as kept: {hot_months} months hot, {120 - hot_months} "
        f"archived ({archive_per_bet:.1f} B/bet), their keys in the registry ({real['registry']:.1f} B/bet):"
    )
    print(
        f"      PostgreSQL: {(hot + registry) / 1e12:.2f} TB (the hot window {hot / 1e12:.2f} TB, the "
        f"archived months' keys {registry / 1e12:.2f} TB), growing {registry_a_year / 1e12:.2f} "
        f"TB a year once the window is full; the archive: {archive / 1e12:.2f} TB",
        flush=True,
    )
