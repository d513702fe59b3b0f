"""Ingest speed on PostgreSQL (`make bench`; DATABASE_URL must name a PostgreSQL database).

(a) seconds to ingest one simulated 5,000-player Boundless round through `round_ingest`: the
    first round of a shoe (its 5,000 players are new) and the next ones (players known).
    Goal: well under a second; 0.5 s.
(b) bet rows per second through POST /api/rounds/ with batches, over HTTP to gunicorn with 2
    workers (a game server's token, JSON bodies), from one client and from two at once, against a
    raw psycopg COPY of the same bet rows into a scratch table shaped like rounds_bet (same
    indexes, no foreign keys). Goal: the API at 25% or more of the raw COPY. Two clients run
    twice: sending rounds of one shoe (ingest locks a shoe while it stores a round of it, so the
    two wait on each other) and, as game servers of two tables do, of two shoes (BND1 and BND2).
(c) reading the JSON text of one 5,000-player round as the API does (core.parsers.json_load: an
    object_pairs_hook that refuses a key named twice) against the standard library's reader alone
    (`json.loads` with the same float and constant hooks), alternated in the same run: the ratio,
    and the milliseconds the check adds against (a)'s median ingest of such a round.

(d) what keeping the live figures (live; issue 48) costs ingest: the time of working out a round's
    rows (`round_figures`) and writing them (`live_add`, one statement), against the whole ingest of
    the same rounds, for 7-player Deluxe rounds and for (a)'s 5,000-player Boundless rounds. Goal:
    5% or less of a round's ingest. (Before/after the feature, from alternating runs of two
    checkouts: BENCHMARKS.md.)

It works in its own scratch database (Django's test database creation, named
<database>_bench_ingest), dropped at the end.
"""

import json
import statistics
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from decimal import Decimal
from itertools import islice

from .support import gunicorn, scratch_database, sized

GOAL_SECONDS = 0.5
GOAL_RATIO = 0.25
PLAYERS = sized(5_000, 200)
ROUNDS_A = sized(4, 2)  # the first (new players) and more
API_PLAYERS = sized(1_000, 50)
API_ROUNDS = sized(12, 4)  # even: two clients of two tables send half each
API_BATCH = sized(3, 2)


def main():
    with scratch_database("ingest") as database:
        if database is None:
            return
        _prepare()
        ingest_median = _bench_round_ingest()
        _bench_api_against_copy(database)
        _bench_json_reading(ingest_median)
        _bench_live_figures_share()


def _prepare():
    import io

    from django.core.management import call_command

    from demo.management.commands.seed_demo import RULES_PUBLISHED
    from limits.models import TableLimit
    from limits.services import table_limit_set
    from tables.models import Table, TableStatusChange
    from tables.services import table_create, table_set_status
    from tests.factories import user

    call_command("seed_demo", stdout=io.StringIO())
    supervisor = user("supervisor")
    # A second Boundless table, as BND1, for the game server of another table in (b).
    second = table_create(
        code="BND2",
        name="Boundless Blackjack 2",
        game="boundless",
        currency="EUR",
        studio="benchmark",
        created_by=supervisor,
        first_version_from=RULES_PUBLISHED,
    )
    # Open, as BND1, since its rules were published: a round at a closed table is a finding.
    opening = table_set_status(table=second, status="open", changed_by=supervisor, reason="benchmark")
    TableStatusChange.objects.filter(pk=opening.pk).update(changed_at=RULES_PUBLISHED)
    for table in [Table.objects.get(code="BND1"), second]:
        for limit in TableLimit.objects.filter(table__code="BND1"):
            table_limit_set(
                table=table,
                kind=limit.kind,
                # The simulator's stakes start at 1.00: a limit it keeps to, so the rounds replay clean.
                min_stake=Decimal("1.00") if limit.kind == "main" else limit.min_stake,
                max_stake=limit.max_stake,
                changed_by=supervisor,
                reason="benchmark",
            )


def _rounds(players: int, count: int, seed: int, table: str = "BND1") -> list[dict]:
    from blackjack.rules import preset
    from blackjack.simulate import simulate

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
    return statistics.median(later)


JSON_READS = sized(15, 3)


def _bench_json_reading(ingest_median: float):
    from core.parsers import json_load, strict_constant

    text = json.dumps(_rounds(PLAYERS, 1, seed=2027)[0])

    def parse_float(number):  # RoundsJSONParser's: it notes whether the body held a float
        return float(number)

    def plain():
        json.loads(text, parse_constant=strict_constant, parse_float=parse_float)

    def checked():
        json_load(text, strict=True, parse_float=parse_float)

    times = {plain: [], checked: []}
    for _ in range(JSON_READS):
        for read in (plain, checked):
            started = time.perf_counter()
            read()
            times[read].append(time.perf_counter() - started)
    without, with_check = statistics.median(times[plain]), statistics.median(times[checked])
    print(
        f"(c) reading one {PLAYERS:,}-player round's JSON ({len(text) / 1e6:.2f} MB), median of {JSON_READS}:"
    )
    print(
        f"      json.loads alone {without * 1000:.1f} ms; with the key-twice check (json_load) "
        f"{with_check * 1000:.1f} ms: {with_check / without:.2f}x, +{(with_check - without) * 1000:.1f} ms "
        f"= {(with_check - without) / ingest_median:.1%} of (a)'s median ingest",
        flush=True,
    )


def _bench_api_against_copy(database_name: str):
    from django.db import connection

    from accounts.services import token_create, user_create

    _, key = token_create(user=user_create(username="bench-gs", password="x" * 20, role="Game server"))
    documents = _rounds(API_PLAYERS, 1 + 2 * API_ROUNDS + API_ROUNDS // 2, seed=7, table="BND1")
    other = _rounds(API_PLAYERS, 1 + API_ROUNDS // 2, seed=8, table="BND2")
    for document in documents + other:  # shoes of their own, away from (a)'s
        _prefix_ids(document, "API-")
    warm_ups = [documents.pop(0), other.pop(0)]
    for document in warm_ups:
        _prefix_ids(document, "WARM-UP-")
    half = API_ROUNDS // 2
    # Each run: what each client sends, and how many clients share it. One shoe: the batches of
    # one list, each taken by whichever client is free (as before BND2 came in); two tables: each
    # client sends its own table's rounds.
    runs = {
        "1 client": ([documents[:API_ROUNDS]], 1),
        "2 clients at once, one shoe": ([documents[API_ROUNDS : 2 * API_ROUNDS]], 2),
        "2 clients at once, two tables": ([documents[2 * API_ROUNDS : 2 * API_ROUNDS + half], other], 2),
    }
    print(
        f"(b) POST /api/rounds/ over HTTP to gunicorn -w 2: Boundless rounds of {API_PLAYERS:,} players "
        f"in batches of {API_BATCH}"
    )
    rates = {}
    with gunicorn(database_name, workers=2) as base:
        for document in warm_ups:  # modules imported, URLs compiled, each table's players known
            _post(base, key, json.dumps({"rounds": [document]}).encode())
        for label, (sent, clients) in runs.items():
            queues = [
                [
                    (json.dumps({"rounds": batch[i : i + API_BATCH]}).encode(), len(batch[i : i + API_BATCH]))
                    for i in range(0, len(batch), API_BATCH)
                ]
                for batch in sent
            ]
            bets = sum(len(document["bets"]) for batch in sent for document in batch)
            started = time.perf_counter()
            with ThreadPoolExecutor(clients) as pool:
                if len(queues) == 1:
                    list(pool.map(lambda body: _post(base, key, *body), queues[0]))
                else:
                    list(pool.map(lambda bodies: [_post(base, key, *body) for body in bodies], queues))
            seconds = time.perf_counter() - started
            rates[label] = bets / seconds
            print(
                f"      {label}: {bets:,} bets in {seconds:.2f} s = {rates[label]:,.0f} bet rows/s",
                flush=True,
            )

    from rounds.ingest.store import BET_COLUMNS
    from rounds.models import Bet

    columns = BET_COLUMNS
    rows = list(Bet.objects.filter(bet_id__startswith="API-").values_list(*columns))
    # Each bet id made new; the options as the JSON text COPY takes (columns named, not counted: the
    # bets gained their gaming day as the second column).
    renamed, as_json = columns.index("bet_id"), columns.index("options")
    rows = [
        tuple(
            f"COPY-{value}" if index == renamed else json.dumps(value) if index == as_json else value
            for index, value in enumerate(row)
        )
        for row in rows
    ]
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
    copy_rate = len(rows) / best
    print(f"      raw psycopg COPY of the same {len(rows):,} bet rows (best of 3): {copy_rate:,.0f} rows/s")
    parallel_rate = len(rows) / _parallel_copy_seconds(connection, columns, rows)
    print(f"      the same COPY split over 2 connections at once (best of 3): {parallel_rate:,.0f} rows/s")
    with raw.cursor() as cursor:
        cursor.execute("DROP TABLE bench_copy_bet")
    raw.commit()
    for label, rate in rates.items():
        ratio = rate / copy_rate
        verdict = "met" if ratio >= GOAL_RATIO else "NOT met"
        print(f"      API, {label} / COPY = {ratio:.0%} (goal >= {GOAL_RATIO:.0%}: {verdict})")
        if label.startswith("2 clients"):
            print(f"      API, {label} / COPY over 2 connections = {rate / parallel_rate:.0%}")


def _parallel_copy_seconds(connection, columns: list[str], rows: list[tuple]) -> float:
    """Wall seconds for two connections to COPY half the rows each, at once (best of 3): the
    database's side of what two clients of the API ask of it."""
    import psycopg

    params = connection.get_connection_params()
    halves = [rows[: len(rows) // 2], rows[len(rows) // 2 :]]

    def copy_half(half: list[tuple]) -> None:
        with psycopg.connect(**params) as other, other.cursor() as cursor:
            with cursor.copy(f"COPY bench_copy_bet ({', '.join(columns)}) FROM STDIN") as copy:
                for row in half:
                    copy.write_row(row)

    best = float("inf")
    for _ in range(3):
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE bench_copy_bet")
        connection.connection.commit()
        started = time.perf_counter()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(copy_half, halves))
        best = min(best, time.perf_counter() - started)
    return best


def _prefix_ids(document: dict, prefix: str) -> None:
    document["round_id"] = prefix + document["round_id"]
    document["shoe"] = prefix + document["shoe"]
    for bet in document["bets"]:
        bet["bet_id"] = prefix + bet["bet_id"]


def _post(base: str, token: str, body: bytes, expected: int = 1) -> None:
    """POST `body`, a batch of `expected` rounds (counted beforehand: parsing the body again here
    would take the client ~10 ms a request of the two cores the server runs on)."""
    request = urllib.request.Request(
        f"{base}/api/rounds/",
        data=body,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        answer = json.load(response)
    assert answer["stored"] == expected, answer


LIVE_GOAL = 0.05
LIVE_SMALL_ROUNDS = sized(60, 10)
LIVE_BIG_ROUNDS = sized(4, 2)


def _bench_live_figures_share():
    import random

    from blackjack.rules import preset
    from blackjack.simulate import simulate_shoe
    from rounds.ingest import round_ingest, store
    from tests.rounds.corrections_support import renamed

    small = simulate_shoe(
        preset("deluxe"),
        table="DLX1",
        shoe_id="DLX1-LIVE-SHARE",
        players=7,
        rng=random.Random(48),
        start=datetime(2026, 11, 28, 9, tzinfo=UTC),
    )[:LIVE_SMALL_ROUNDS]
    # Under new ids: (a) stored the simulator's.
    big = [renamed(document, "-LIVE") for document in _rounds(PLAYERS, LIVE_BIG_ROUNDS, seed=2048)]
    spent = []
    # Timed where ingest calls them (rounds.ingest.store), then put back.
    working, writing = store.round_figures, store.live_add

    def timed(function):
        def call(**kwargs):
            started = time.perf_counter()
            result = function(**kwargs)
            spent.append(time.perf_counter() - started)
            return result

        return call

    store.round_figures, store.live_add = timed(working), timed(writing)
    try:
        print("(d) keeping the live figures, as a share of ingest:")
        for name, documents in (("7-player Deluxe", small), (f"{PLAYERS:,}-player Boundless", big)):
            spent.clear()
            started = time.perf_counter()
            for document in documents:
                round_ingest(document=json.loads(json.dumps(document)))
            whole = time.perf_counter() - started
            share = sum(spent) / whole
            print(
                f"      {len(documents)} {name} rounds: {whole / len(documents) * 1000:.2f} ms a round, "
                f"of which the live figures {sum(spent) / len(documents) * 1000:.3f} ms = {share:.1%} "
                f"(goal <= {LIVE_GOAL:.0%}: {'met' if share <= LIVE_GOAL else 'NOT met'})",
                flush=True,
            )
    finally:
        store.round_figures, store.live_add = working, writing
