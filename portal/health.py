"""GET /healthz: whether this process reaches what it serves from, for a monitor.

Three checks: `database` (SELECT 1), `cache` (a value set and read back through the cache as pages use
it, so a cache that is away, core/cache.py, fails) and `broker` (a connection to
CELERY_BROKER_URL, given BROKER_TIMEOUT seconds; "eager" where tasks run in-process). 200 with
{"status": "ok", "checks": {...}}, each check "ok" (or "eager"); 503 with "status": "failed" and
the failed checks "failed". Beside them, never failing the verdict, "replica": {"configured",
"state" (ok, lagging, down or none), "lag_bytes"}, measured at most every
PITBOSS_REPLICA_LAG_CHECK_SECONDS (core/replica.py); "worker": {queue: {"last_beat_seconds"}}, the
whole seconds since a worker last ran each queue's heartbeat (null: never, or the database away); and
"outbox": {"pending", "oldest_seconds"}, the messages the broker has not taken and the age of the
oldest (null when none), one query each (outbox/figures.py), kept with the verdict. Nothing else is
said: no address, no error text.

No sign-in and no session; not an API view, so never throttled. Nothing is written to the database.
The verdict is kept VERDICT_SECONDS in the process: probes in between cost nothing, and while one
request checks, the others wait for its verdict. Browsers and proxies are told not to keep it.
"""

import secrets
import threading
import time

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.http import JsonResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe
from kombu import Connection

from core.replica import replica
from outbox import figures

VERDICT_SECONDS = 5
BROKER_TIMEOUT = 1


def database() -> str:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def cache() -> str:
    store = caches["default"]
    key, value = f"healthz-{secrets.token_hex(8)}", secrets.token_hex(8)
    store.set(key, value, timeout=VERDICT_SECONDS)
    answered = store.get(key) == value
    store.delete(key)
    return "ok" if answered else "failed"


def broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER or settings.CELERY_BROKER_URL.startswith("memory://"):
        return "eager"
    timeout = BROKER_TIMEOUT
    # The filesystem broker's folders (make demo) come from the transport options, not the URL.
    options = {**getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}), "socket_timeout": timeout}
    with Connection(
        settings.CELERY_BROKER_URL, connect_timeout=timeout, transport_options=options
    ) as connection:
        connection.ensure_connection(
            max_retries=1, interval_start=0, interval_step=0, interval_max=0, timeout=timeout
        )
    return "ok"


CHECKS = {"database": database, "cache": cache, "broker": broker}


def replica_report() -> dict:
    """The read replica (core/replica.py), told but never failing the check: reads go to the
    primary while it is down or lagging. state: "ok", "lagging", "down" or "none" (not configured)."""
    state, lag = replica.state()
    return {"configured": state != "none", "state": state, "lag_bytes": lag}


def whole(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds)


def worker_report() -> dict:
    try:
        ages = figures.beat_ages()
    except Exception:  # the database is away: the database check says so
        ages = dict.fromkeys(figures.queues())
    return {queue: {"last_beat_seconds": whole(age)} for queue, age in ages.items()}


def outbox_report() -> dict:
    try:
        pending, oldest = figures.pending()
    except Exception:
        pending, oldest = None, None
    return {"pending": pending, "oldest_seconds": whole(oldest)}


def run(check) -> str:
    try:
        return check()
    except Exception:  # whatever a service raises, the answer is "failed", never a server error
        return "failed"


class Verdict:
    """The checks' results and the workers' and outbox's figures, kept VERDICT_SECONDS by `clock`
    (time.monotonic unless a test moves one)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.clock = time.monotonic
        self.forget()

    def forget(self) -> None:
        self.checked_at: float | None = None
        self.checks: dict[str, str] = {}
        self.figures: dict[str, dict] = {}

    def current(self) -> tuple[dict[str, str], dict[str, dict]]:
        with self.lock:
            now = self.clock()
            if self.checked_at is None or now - self.checked_at >= VERDICT_SECONDS:
                self.checks = {name: run(check) for name, check in CHECKS.items()}
                self.figures = {"worker": worker_report(), "outbox": outbox_report()}
                self.checked_at = now
            return self.checks, self.figures


verdict = Verdict()


@require_safe
def healthz(request):
    checks, informational = verdict.current()
    failed = "failed" in checks.values()
    response = JsonResponse(
        {
            "status": "failed" if failed else "ok",
            "checks": checks,
            "replica": replica_report(),
            **informational,
        },
        status=503 if failed else 200,
    )
    patch_cache_control(response, no_store=True)
    return response
