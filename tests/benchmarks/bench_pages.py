"""The round list and the round page under load (`make bench`; DATABASE_URL must be PostgreSQL).

1,000,000 rounds are stored (written by SQL in a scratch database, <database>_bench_pages, dropped
at the end), plus one real 300-player Boundless round through ingest for the round page. Pitboss
runs under gunicorn (2 workers, DEBUG off) on loopback; `wrk` (2 threads, 8 connections, 10 s)
asks for each page as a logged-in compliance officer, after a 2-second run that is not counted
(each worker's first requests load templates and open its database connection). Goal: p99 under
100 ms. The pages' SQL query counts are pinned in tests/rounds/test_pages.py.
"""

import re
import shutil
import subprocess
import time
from datetime import UTC, datetime, timedelta

from .support import gunicorn, scratch_database

ROUNDS = 1_000_000
FIRST_OPENED = datetime(2026, 1, 2, tzinfo=UTC)  # round n opens n × 2 seconds later
GOAL_P99_MS = 100
WRK = ["wrk", "-t2", "-c8", "-d10s", "--latency"]
WARM_UP = ["wrk", "-t2", "-c8", "-d2s"]


def main():
    if shutil.which("wrk") is None:
        print("   skipped: wrk is not installed (apt-get install wrk)")
        return
    with scratch_database("pages") as database:
        if database is None:
            return
        round_id, session = _prepare()
        _bench(database, round_id, session)


def _prepare() -> tuple[str, str]:
    import io
    import json

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection

    from config.gaming_day import gaming_day, gaming_day_of
    from rounds.engine.rules import preset
    from rounds.engine.simulate import simulate
    from rounds.ingest import round_ingest

    call_command("seed_demo", stdout=io.StringIO())
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, code FROM tables_table ORDER BY code")
        tables = cursor.fetchall()
        for table_id, code in tables:
            cursor.execute(
                "INSERT INTO rounds_shoe (table_id, code, first_seen_at) "
                "SELECT %s, %s || '-B' || s, now() FROM generate_series(1, 5000) s",
                [table_id, code],
            )
        # Each round's gaming day from the bounds of the days the rounds span (config.gaming_day).
        days = []
        day = gaming_day_of(FIRST_OPENED)
        while day <= gaming_day_of(FIRST_OPENED + ROUNDS * timedelta(seconds=2)):
            bounds = gaming_day(day)
            days.append(
                cursor.mogrify(
                    "(%s::date, %s::timestamptz, %s::timestamptz)", [day, bounds.starts_at, bounds.ends_at]
                )
            )
            day += timedelta(days=1)
        cursor.execute(
            f"""
            WITH gaming_day (day, starts_at, ends_at) AS (VALUES {", ".join(days)})
            INSERT INTO rounds_round (round_id, table_id, shoe_id, number, opened_at, gaming_day, closed_at,
                status, cancel_reason, cut_card, document, document_sha256, cards_taken, players, bet_count,
                wagered, returned, computed_wagered, computed_returned, finding_count, review_comment,
                ingested_at)
            SELECT 'BENCH-' || n, shoe.table_id, shoe.id, mod(n, 50) + 1, opened,
                   (SELECT day FROM gaming_day WHERE opened >= starts_at AND opened < ends_at),
                   opened + interval '40 seconds',
                   'completed', '', false, '{{}}', md5(n::text), '', 7, 12, 120, 115, 120, 115,
                   (mod(n, 23) = 0)::int, '', now()
            FROM generate_series(1, %s) n
            CROSS JOIN LATERAL (SELECT %s::timestamptz + n * interval '2 seconds' AS opened) moment
            JOIN rounds_shoe shoe ON shoe.id = (SELECT min(id) FROM rounds_shoe) + mod(n, 20000)
            """,
            [ROUNDS, FIRST_OPENED],
        )
        cursor.execute("ANALYZE")
    print(f"   {ROUNDS:,} rounds written by SQL in {time.perf_counter() - started:.0f} s", flush=True)
    document = next(
        simulate(
            preset("boundless"),
            table="BND1",
            shoes=1,
            players=300,
            seed=5,
            start=datetime(2026, 11, 28, 9, tzinfo=UTC),
        )
    )
    round_id = round_ingest(document=json.loads(json.dumps(document))).round.round_id
    session = SessionStore()
    user = get_user_model().objects.get(username="compliance")
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.RoleBackend"  # the one that loads users
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return round_id, session.session_key


def _bench(database_name: str, round_id: str, session: str) -> None:
    pages = [
        ("round list, newest page", "/rounds/"),
        ("round list, filtered (table, has findings)", "/rounds/?table=DLX1&has_findings=true"),
        ("round list, a deep page (keyset: ?before=<id>)", "/rounds/?before=20000"),
        ("round list, one gaming day mid-way (?day=)", "/rounds/?day=2026-01-12"),
        ("round page, 300-player Boundless round", f"/rounds/{round_id}/"),
    ]
    with gunicorn(database_name, workers=2) as base:
        print(f"   gunicorn -w 2, {' '.join(WRK)}, logged in as compliance:")
        for label, path in pages:
            rate, p99 = _wrk(base + path, session)
            verdict = "met" if p99 < GOAL_P99_MS else "NOT met"
            print(
                f"      {label}: {rate:,.0f} req/s, p99 {p99:.1f} ms (goal < {GOAL_P99_MS} ms: {verdict})",
                flush=True,
            )


def _wrk(url: str, session: str) -> tuple[float, float]:
    check = subprocess.run(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", f"Cookie: sessionid={session}", url],
        capture_output=True,
        text=True,
    )
    if check.stdout != "200":
        raise RuntimeError(f"{url} answered {check.stdout}, not 200")
    cookie = ["-H", f"Cookie: sessionid={session}"]
    subprocess.run([*WARM_UP, *cookie, url], capture_output=True, check=True)
    result = subprocess.run([*WRK, *cookie, url], capture_output=True, text=True)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", result.stdout)[1])
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", result.stdout).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return rate, p99
