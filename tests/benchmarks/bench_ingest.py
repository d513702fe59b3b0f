"""Ingest speed on PostgreSQL (`make bench`; DATABASE_URL must name a PostgreSQL database).

(a) seconds to ingest one simulated 5,000-player Boundless round through `round_ingest`: the
    first round of a shoe (its 5,000 players are new) and the next ones (players known).
    Goal: well under a second; 0.5 s.
(b) bet rows per second through POST /api/rounds/ with batches (a game server's token, JSON
    bodies, Django's test client: everything but the socket), against a raw psycopg COPY of
    the same bet rows into a scratch table shaped like rounds_bet (same indexes, no foreign
    keys). Goal: the API at 25% or more of the raw COPY.

It works in its own scratch database (Django's test database creation, named
<database>_bench_ingest), dropped at the end.
"""

import json
import os
import statistics
import time
from datetime import UTC, datetime
from decimal import Decimal
from itertools import islice

GOAL_SECONDS = 0.5
GOAL_RATIO = 0.25
PLAYERS = 5_000
ROUNDS_A = 4  # the first (new players) and three more
API_PLAYERS = 1_000
API_ROUNDS = 12
API_BATCH = 3


def main():
    if not os.environ.get("DATABASE_URL"):
        print("   skipped: DATABASE_URL is not set (this benchmark needs PostgreSQL; see README.md)")
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.vendor != "postgresql":
        print("   skipped: DATABASE_URL is not a PostgreSQL database")
        return
    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = f"{database['NAME']}_bench_ingest"
    print(f"   scratch database {database['TEST']['NAME']} (dropped at the end)", flush=True)
    state = setup_databases(verbosity=0, interactive=False)
    try:
        _prepare()
        _bench_round_ingest()
        _bench_api_against_copy()
    finally:
        teardown_databases(state, verbosity=0)


def _prepare():
    import io

    from django.core.management import call_command

    from limits.services import table_limit_set
    from tables.models import Table
    from tests.factories import user

    call_command("seed_demo", stdout=io.StringIO())
    # The simulator's stakes start at 1.00: a limit it keeps to, so the rounds replay clean.
    table_limit_set(
        table=Table.objects.get(code="BND1"),
        kind="main",
        min_stake=Decimal("1.00"),
        max_stake=Decimal("2500.00"),
        changed_by=user("supervisor"),
        reason="benchmark",
    )


def _rounds(players: int, count: int, seed: int, table: str = "BND1") -> list[dict]:
    from rounds.engine.rules import preset
    from rounds.engine.simulate import simulate

    documents = simulate(
        preset("boundless"),
        table=table,
        shoes=1,
        players=players,
        seed=seed,
        start=datetime(2026, 11, 28, 8, tzinfo=UTC),
    )
    # Through JSON, as a game server's document arrives.
    return [json.loads(json.dumps(document)) for document in islice(documents, count)]


def _bench_round_ingest():
    from rounds.ingest import round_ingest

    documents = _rounds(PLAYERS, ROUNDS_A, seed=2026)
    bets = [len(document["bets"]) for document in documents]
    seconds, findings = [], []
    for document in documents:
        started = time.perf_counter()
        result = round_ingest(document=document)
        seconds.append(time.perf_counter() - started)
        findings.append(result.round.finding_count)
    print(f"(a) round_ingest of one {PLAYERS:,}-player Boundless round (~{statistics.mean(bets):,.0f} bets):")
    print(f"      first round of the shoe, {PLAYERS:,} new players: {seconds[0]:.3f} s")
    later = seconds[1:]
    print(
        f"      next {len(later)} rounds, players known: "
        + ", ".join(f"{s:.3f}" for s in later)
        + f" s (median {statistics.median(later):.3f} s, best {min(later):.3f} s)"
    )
    verdict = "met" if statistics.median(later) <= GOAL_SECONDS else "NOT met"
    print(f"      goal <= {GOAL_SECONDS} s a round: {verdict}; findings per round: {findings}", flush=True)


def _bench_api_against_copy():
    from django.conf import settings
    from django.db import connection
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from accounts.services import user_create

    documents = _rounds(API_PLAYERS, API_ROUNDS + 1, seed=7, table="BND1")
    for document in documents:  # a shoe of its own, away from (a)'s
        document["round_id"] = "API-" + document["round_id"]
        document["shoe"] = "API-" + document["shoe"]
        for bet in document["bets"]:
            bet["bet_id"] = "API-" + bet["bet_id"]
    warm_up, documents = documents[0], documents[1:]
    warm_up["round_id"] = "WARM-UP-" + warm_up["round_id"]
    for bet in warm_up["bets"]:
        bet["bet_id"] = "WARM-UP-" + bet["bet_id"]
    bodies = [
        json.dumps({"rounds": documents[i : i + API_BATCH]}).encode()
        for i in range(0, len(documents), API_BATCH)
    ]
    bets = sum(len(document["bets"]) for document in documents)
    token = Token.objects.create(user=user_create(username="bench-gs", password="x" * 20, role="Game server"))
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    # A running server has imported its modules and compiled its URL patterns: one request first.
    assert client.post("/api/rounds/", warm_up, format="json").status_code == 201
    started = time.perf_counter()
    for body in bodies:
        response = client.post("/api/rounds/", body, content_type="application/json")
        assert response.status_code == 200, response.content[:500]
        assert response.json()["stored"] == len(json.loads(body)["rounds"])
    api_seconds = time.perf_counter() - started
    api_rate = bets / api_seconds

    from rounds.models import Bet

    columns = [
        "bet_id",
        "spot",
        "kind",
        "stake",
        "wagered",
        "returned",
        "computed_wagered",
        "computed_returned",
        "options",
        "player_id",
        "round_id",
    ]
    rows = list(Bet.objects.filter(bet_id__startswith="API-").values_list(*columns))
    rows = [(f"COPY-{row[0]}", *row[1:8], json.dumps(row[8]), *row[9:]) for row in rows]
    connection.ensure_connection()
    raw = connection.connection  # the psycopg connection itself
    best = float("inf")
    for _ in range(3):
        with raw.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_copy_bet")
            cursor.execute("CREATE TABLE bench_copy_bet (LIKE rounds_bet INCLUDING ALL)")
        raw.commit()
        started = time.perf_counter()
        with raw.cursor() as cursor:
            with cursor.copy(f"COPY bench_copy_bet ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        raw.commit()
        best = min(best, time.perf_counter() - started)
    with raw.cursor() as cursor:
        cursor.execute("DROP TABLE bench_copy_bet")
    raw.commit()
    copy_rate = len(rows) / best
    ratio = api_rate / copy_rate
    print(
        f"(b) POST /api/rounds/: {len(documents)} Boundless rounds of {API_PLAYERS:,} players in "
        f"{len(bodies)} batches of {API_BATCH}, {bets:,} bets in {api_seconds:.2f} s"
    )
    print(f"      = {api_rate:,.0f} bet rows/s")
    print(f"      raw psycopg COPY of the same {len(rows):,} bet rows (best of 3): {copy_rate:,.0f} rows/s")
    verdict = "met" if ratio >= GOAL_RATIO else "NOT met"
    print(f"      API / COPY = {ratio:.0%} (goal >= {GOAL_RATIO:.0%}: {verdict})", flush=True)
