"""What a cache that is away costs (`make bench BENCH=cache`; DATABASE_URL must be PostgreSQL).

The production settings' cache (core.cache.production_cache: Redis behind a breaker) at a
redis-server of the benchmark's own on a free loopback port, sessions cached_db, in-process through
Django's test client (no HTTP: the server's own work). Measured in the same run, in turn: POST
/api/rounds/ (a game server's token, one 7-player Deluxe round a request, each new) and the round
list's newest page (signed in as compliance, 50 rows), with the cache
  up (the baseline, measured first and again last: the ratios are to the mean of the two),
  stopped (connections refused), after the request that opened the breaker,
  frozen (SIGSTOP: connections accepted, no reply), after the request that opened the breaker,
each as a ratio of its median to the baseline's. Also printed: what the request that found the frozen
cache waited (its socket timeout, once a process). The breaker's clock is moved past its retry
interval to close it between the states, rather than waited for.
"""

import io
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from .support import scratch_database, sized

REQUESTS = sized(25, 3)  # of each kind, in each state
PLAYERS = 7


def main():
    with scratch_database("cache") as database:
        if database is None:
            return
        from django.db import transaction
        from django.test.utils import override_settings

        from core.cache import production_cache
        from tests.cache_support import Clock, RedisServer

        with tempfile.TemporaryDirectory() as directory:
            server = RedisServer(Path(directory))
            server.start()
            try:
                cache = production_cache(server.url)
                engine = "django.contrib.sessions.backends.cached_db"
                # DEBUG off, as served; the test client's host allowed.
                production = {"DEBUG": False, "ALLOWED_HOSTS": ["testserver"], "SESSION_ENGINE": engine}
                # All in one transaction, rolled back: the tasks that follow a commit never run, as a
                # worker, not the request, runs them when served (eagerly, seed_demo's odds take a minute).
                with override_settings(CACHES={"default": cache}, **production), transaction.atomic():
                    _bench(server, Clock())
                    transaction.set_rollback(True)
            finally:
                server.close()


def _documents(count: int) -> list[dict]:
    from blackjack.rules import preset
    from blackjack.simulate import simulate

    documents = []
    start = datetime(2026, 11, 28, 8, tzinfo=UTC)
    for document in simulate(preset("deluxe"), table="DLX1", shoes=20, players=PLAYERS, seed=43, start=start):
        documents.append(json.loads(json.dumps(document)))
        if len(documents) == count:
            return documents
    raise RuntimeError(f"the simulated shoes held fewer than {count} rounds")


def _bench(server, clock) -> None:
    from django.core.cache import caches
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.test import APIClient

    from accounts.services import token_create
    from rounds.ingest import round_ingest
    from tests.factories import user

    call_command("seed_demo", stdout=io.StringIO())
    breaker = caches["default"].breaker
    breaker.clock = clock
    documents = _documents(50 + 5 * (REQUESTS + 1))
    for document in documents[:50]:  # the newest page: 50 rows in every state
        round_ingest(document=document)
    documents = iter(documents[50:])
    game_server = APIClient()
    game_server.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user(username='game-server'))[1]}")
    staff = Client()
    staff.force_login(user(username="compliance"))

    def ingest() -> float:
        document = next(documents)
        started = time.perf_counter()
        response = game_server.post("/api/rounds/", document, format="json")
        seconds = time.perf_counter() - started
        assert response.status_code == 201, response.status_code
        return seconds

    def round_list() -> float:
        started = time.perf_counter()
        response = staff.get("/rounds/")
        seconds = time.perf_counter() - started
        assert response.status_code == 200, response.status_code
        return seconds

    def measure(label: str) -> dict[str, float]:
        ingest()  # a request first, untimed: the state settled (the breaker opened, or the rows cached)
        round_list()
        figures = {
            "ingest": statistics.median(ingest() for _ in range(REQUESTS)),
            "round list": statistics.median(round_list() for _ in range(REQUESTS)),
        }
        state = "open" if breaker.is_open else "closed"
        print(
            f"   {label} (breaker {state}): "
            + "; ".join(f"{kind} median {seconds * 1000:.1f} ms" for kind, seconds in figures.items()),
            flush=True,
        )
        return figures

    def back() -> None:
        clock.advance(breaker.retry_seconds)
        round_list()  # the PING answered: the cache emptied, the breaker closed
        assert not breaker.is_open

    started = time.perf_counter()
    print(f"   {REQUESTS} requests of each kind in each state, medians; redis-server on port {server.port}")
    results = {"up": measure("cache up")}
    server.stop()
    results["stopped"] = measure("cache stopped")
    server.start()
    back()
    server.freeze()
    started = time.perf_counter()
    round_list()
    print(
        f"   the request that found the cache frozen: {(time.perf_counter() - started) * 1000:.0f} ms",
        flush=True,
    )
    results["frozen"] = measure("cache frozen")
    server.thaw()
    back()
    again = measure("cache up again")
    baseline = {kind: (results["up"][kind] + again[kind]) / 2 for kind in again}
    for state in ("stopped", "frozen"):
        print(
            f"   cache {state} / cache up: "
            + "; ".join(f"{kind} {results[state][kind] / baseline[kind]:.2f}x" for kind in baseline),
            flush=True,
        )
    print(f"   the states measured in {time.perf_counter() - started:.1f} s", flush=True)
