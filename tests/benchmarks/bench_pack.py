"""The day's pack for the regulator (regulator.pack, issue 52) streamed through its page, on PostgreSQL
(`make bench`; DATABASE_URL must name a PostgreSQL database).

Two closed gaming days over the four seed_demo tables, written directly in SQL as bench_reports
writes its day: DAY with ROUNDS rounds and SMALL_DAY with a tenth of them (their registry keys too),
each with a succeeded run of the daily job and its two PDFs (the job itself, Celery eager). A
compliance user signed in to Django's test client downloads `/reports/<day>/pack/`; the ZIP is read
as it is sent and counted, never kept. Measured, for each day, against a baseline in the same run:

- seconds to stream the pack (best of 3), its bytes, and rounds a second; the baseline is the round
  list's own CSV export of the same day (`/rounds/?day=…&sort=opened_at&_export=csv`, what the pack's
  rounds.csv is), streamed the same way;
- the peak memory of the request (tracemalloc, from the request to the last byte), of the pack and
  of the same export.

Goals: streaming stays flat (the pack's peak at ROUNDS within 1.5x its peak at a tenth of them),
the pack within 2x the export's peak memory, and within 2x the export's seconds (what the pack adds:
deflate, SHA-256, the PDFs and the other lists). It works in its own scratch database
(<database>_bench_pack), dropped at the end. At BENCH_SCALE=smoke: 500 rounds (and 50).
"""

import time
import tracemalloc
from datetime import date

from .support import scratch_database, sized

DAY = date(2026, 11, 20)
SMALL_DAY = date(2026, 11, 19)
ROUNDS = sized(20_000, 500)
ROUNDS_PER_SHOE = 50
CANCELLED_EVERY = 401
FINDING_EVERY = 101
REPEATS = 3
GOAL_FLAT = 1.5  # the pack's peak at ROUNDS against its peak at ROUNDS / 10
GOAL_MEMORY = 2.0  # the pack's peak against the round list's CSV export's, the same day
GOAL_SECONDS = 2.0  # the pack's seconds against the export's, the same day


def main():
    with scratch_database("pack") as database:
        if database is None:
            return
        import tempfile

        from django.conf import settings

        with tempfile.TemporaryDirectory(prefix="pitboss-bench-pack-") as reports_dir:
            settings.PITBOSS_REPORTS_DIR = reports_dir
            started = time.perf_counter()
            days = {DAY: ROUNDS, SMALL_DAY: ROUNDS // 10}
            client = seed(days)
            print(
                f"   {ROUNDS:,} rounds on {DAY}, {ROUNDS // 10:,} on {SMALL_DAY}, each day run with its "
                f"PDFs, in {time.perf_counter() - started:.1f} s",
                flush=True,
            )
            measure(client, days)


# --- the days -------------------------------------------------------------------------------------


def seed(days: dict[date, int]):
    """seed_demo, each day's rounds and registry keys in SQL, a succeeded run with PDFs for each day;
    a test client signed in as compliance."""
    import io

    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from config.celery import app
    from tables.models import Table
    from tests.factories import user

    call_command("seed_demo", stdout=io.StringIO())
    tables = list(Table.objects.order_by("code"))
    with connection.cursor() as cursor:
        for day, rounds in days.items():
            _write_rounds(cursor, tables, day, rounds)
        for name in ("rounds_round", "rounds_roundkey"):
            cursor.execute(f"VACUUM ANALYZE {name}")  # as autovacuum would after a day's writes
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        for day in days:
            _run_the_day(day)
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved
    client = Client(HTTP_HOST="localhost")  # one of ALLOWED_HOSTS, as bench_sheets
    client.force_login(user("compliance", "bench-compliance"))
    return client


def _write_rounds(cursor, tables, day: date, rounds: int) -> None:
    """`rounds` rounds evenly over the gaming day `day`, the tables taking turns, each shoe of
    ROUNDS_PER_SHOE rounds; a few cancelled, a few with a finding; their registry keys."""
    from core.gaming_day import gaming_day
    from rounds.fields import compressed_json

    bounds = gaming_day(day)
    prefix = f"-PACK{day:%m%d}-"
    tables_values = ", ".join(cursor.mogrify("(%s, %s, %s)", [t.code, n, t.pk]) for n, t in enumerate(tables))
    cursor.execute(
        "INSERT INTO rounds_shoe (code, first_seen_at, table_id) "
        "SELECT t.code || %s || s, now(), t.id FROM tables_table t, generate_series(0, %s) s",
        [prefix, rounds // len(tables) // ROUNDS_PER_SHOE + 1],
    )
    cursor.execute(
        f"""
        WITH bench_table (code, n, id) AS (VALUES {tables_values})
        INSERT INTO rounds_round (round_id, number, opened_at, gaming_day, closed_at, status, cancel_reason,
            cut_card, document, document_sha256, cards_taken, players, bet_count, wagered, returned,
            computed_wagered, computed_returned, finding_count, review_comment, ingested_at,
            configuration_id, table_id, shoe_id)
        SELECT t.code || %(prefix)s || lpad(i::text, 6, '0'), (i / %(tables)s) %% %(per_shoe)s + 1,
            %(start)s + (%(seconds)s * i / %(rounds)s) * interval '1 second', %(day)s,
            %(start)s + (%(seconds)s * i / %(rounds)s + 40) * interval '1 second',
            CASE WHEN i %% %(cancelled)s = 7 THEN 'cancelled' ELSE 'completed' END,
            CASE WHEN i %% %(cancelled)s = 7 THEN 'malfunction' ELSE '' END,
            (i / %(tables)s) %% %(per_shoe)s = %(per_shoe)s - 1, %(document)s, '', '', 1 + i %% 7,
            1 + i %% 10, 25 * (1 + i %% 10), 23 * (1 + i %% 10) + i %% 5, 25 * (1 + i %% 10),
            23 * (1 + i %% 10) + i %% 5, (i %% %(finding)s = 3)::int, '', now(), c.id, t.id, shoe.id
        FROM generate_series(0, %(rounds)s - 1) i
        JOIN bench_table t ON t.n = i %% %(tables)s
        JOIN tables_tableconfiguration c ON c.table_id = t.id AND c.version = 1
        JOIN rounds_shoe shoe ON shoe.code = t.code || %(prefix)s || (i / %(tables)s / %(per_shoe)s)
        """,
        {
            "prefix": prefix,
            "tables": len(tables),
            "per_shoe": ROUNDS_PER_SHOE,
            "start": bounds.starts_at,
            "day": day,
            "seconds": (bounds.ends_at - bounds.starts_at).total_seconds() - 60,
            "rounds": rounds,
            "cancelled": CANCELLED_EVERY,
            "finding": FINDING_EVERY,
            "document": compressed_json("{}"),  # as stored: zstd (rounds.fields)
        },
    )
    # The registry, as ingest writes it (rounds.registry): the pack counts the day's rounds in it.
    cursor.execute(
        "INSERT INTO rounds_roundkey (id, round_id, gaming_day, table_id) "
        "SELECT id, round_id, gaming_day, table_id FROM rounds_round WHERE gaming_day = %s ORDER BY id",
        [day],
    )


def _run_the_day(day: date) -> None:
    """The daily job of `day`, with its charts and PDFs, as a command starts it (Celery eager)."""
    from reports.models import ReportDocument, RunStatus
    from reports.services import report_run_start

    run = report_run_start(day=day, trigger="command")  # queues the job when it commits: runs it here
    run.refresh_from_db()
    if run.status != RunStatus.SUCCEEDED:
        raise RuntimeError(f"The daily job of {day} did not succeed: {run.status} {run.error}")
    if not ReportDocument.objects.filter(run=run).exists():
        raise RuntimeError(f"The daily job of {day} made no PDF.")


# --- the measures ---------------------------------------------------------------------------------


def streamed(client, url: str, params=None) -> int:
    """Bytes of the streamed response to GET `url`, read as they are sent and dropped."""
    response = client.get(url, params or {})
    if response.status_code != 200 or not response.streaming:
        raise RuntimeError(f"{url}: {response.status_code}, streaming {response.streaming}")
    size = 0
    for chunk in response.streaming_content:
        size += len(chunk)
    response.close()
    return size


def timed(fetch) -> tuple[float, int]:
    """(best seconds of REPEATS, bytes)."""
    best, size = float("inf"), 0
    for _ in range(REPEATS):
        started = time.perf_counter()
        size = fetch()
        best = min(best, time.perf_counter() - started)
    return best, size


def peak(fetch) -> int:
    """The peak of memory allocated by Python while `fetch` runs (tracemalloc), above what it started
    with."""
    import gc

    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        fetch()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def measure(client, days: dict[date, int]) -> None:
    from django.urls import reverse

    figures = {}
    for day, rounds in days.items():

        def pack(day=day):
            return streamed(client, reverse("regulator:day_pack", args=[day]))

        def export(day=day):
            params = {"day": day.isoformat(), "sort": "opened_at", "_export": "csv"}
            return streamed(client, reverse("rounds:round_list"), params)

        pack()  # warm: the first request imports and compiles what the others reuse
        pack_seconds, pack_bytes = timed(pack)
        export_seconds, export_bytes = timed(export)
        pack_peak, export_peak = peak(pack), peak(export)
        figures[day] = pack_peak
        print(
            f"   {day}, {rounds:,} rounds: pack {pack_bytes / 1e6:.2f} MB in {pack_seconds:.3f} s "
            f"({rounds / pack_seconds:,.0f} rounds/s, {pack_bytes / 1e6 / pack_seconds:.1f} MB/s), peak "
            f"{pack_peak / 1e6:.2f} MB; the round list's CSV export {export_bytes / 1e6:.2f} MB in "
            f"{export_seconds:.3f} s ({rounds / export_seconds:,.0f} rounds/s), peak "
            f"{export_peak / 1e6:.2f} MB",
            flush=True,
        )
        if rounds == ROUNDS:
            memory_ratio, seconds_ratio = pack_peak / export_peak, pack_seconds / export_seconds
            print(
                f"   {day}: the pack's peak {memory_ratio:.2f}x the export's (goal <= {GOAL_MEMORY}x: "
                f"{_met(memory_ratio <= GOAL_MEMORY)}); its seconds {seconds_ratio:.2f}x the export's "
                f"(goal <= {GOAL_SECONDS}x: {_met(seconds_ratio <= GOAL_SECONDS)})",
                flush=True,
            )
    flat = figures[DAY] / figures[SMALL_DAY]
    print(
        f"   flat: the pack's peak at {ROUNDS:,} rounds {flat:.2f}x its peak at {ROUNDS // 10:,} "
        f"(goal <= {GOAL_FLAT}x: {_met(flat <= GOAL_FLAT)})",
        flush=True,
    )


def _met(met: bool) -> str:
    return "met" if met else "NOT met"
