"""The production cache (config/settings_production.py): Django's Redis cache behind a breaker, so a
Redis that is stopped, unreachable or frozen stops nothing.

When a call cannot reach Redis (redis-py's ConnectionError or TimeoutError), the process's breaker for
that Redis opens. While it is open the cache keeps nothing, as Django's dummy cache: reads miss,
writes are dropped, `incr` raises ValueError as for a missing key (the API throttles then let the
request through), and no call touches the socket. The first call after `retry_seconds` sends one PING
on a new connection, its connect and its reply each given half of `probe_timeout`; unanswered, the
call keeps nothing, as the others. When Redis answers, its database is emptied (FLUSHDB ASYNC) before
the breaker closes and the call goes on: a write dropped while it was away, such as a session deleted
at sign-out, must not have its older value read back.

A WARNING line names the cache (its address without credentials) when it goes away, once a minute
while it stays away, and when it is back. Each process has its own breakers, one per Redis address.
"""

import logging
import os
import re
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import redis
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

RETRY_SECONDS = 15
PROBE_TIMEOUT = 0.05
LOG_EVERY = 60
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)
# Options of Django's cache client that are no connection options of redis-py.
DJANGO_OPTIONS = ("serializer", "pool_class", "parser_class")
DROPPED = object()


def production_cache(location: str) -> dict:
    """The CACHES entry of the production settings for the Redis database at `location`."""
    return {
        "BACKEND": "core.cache.ResilientRedisCache",
        "LOCATION": location,
        "KEY_PREFIX": "pitboss",
        "OPTIONS": {
            # A Redis on the same network answers in a millisecond. Until the breaker opens, a call
            # to one that does not answer waits this long (once a process), then none does.
            "socket_connect_timeout": 0.5,
            "socket_timeout": 0.5,
            "retry_seconds": RETRY_SECONDS,
            "probe_timeout": PROBE_TIMEOUT,
        },
    }


def address(location: str) -> str:
    """A Redis URL as a log may show it: no user name, password or query."""
    parts = urlsplit(location)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return urlunsplit((parts.scheme, host + port, parts.path, "", ""))


class Breaker:
    """Whether the calls of one process may go to one Redis (`admits`), and what opens (`trip`) and
    closes it. `clock` is time.monotonic unless a test moves one of its own; `calls` counts the calls
    let through, `probes` the PINGs sent."""

    def __init__(self, where: str, retry_seconds: float, probe):
        self.where = where
        self.retry_seconds = retry_seconds
        self.probe = probe
        self.clock = time.monotonic
        self.reset()

    def reset(self) -> None:
        self.lock = threading.Lock()
        self.opened_at: float | None = None
        self.next_probe = 0.0
        self.logged_at = 0.0
        self.probing = False
        self.calls = 0
        self.probes = 0

    @property
    def is_open(self) -> bool:
        return self.opened_at is not None

    def admits(self) -> bool:
        if self.opened_at is None:
            self.calls += 1
            return True
        with self.lock:
            if self.opened_at is None:
                self.calls += 1
                return True
            now = self.clock()
            if self.probing or now < self.next_probe:
                self.log_still_away(now)
                return False
            self.probing, self.probes = True, self.probes + 1
        try:
            self.probe()
        except Exception as error:  # whatever keeps the PING from its answer, the cache stays away
            with self.lock:
                self.probing = False
                self.next_probe = self.clock() + self.retry_seconds
                self.log_still_away(self.clock(), error)
            return False
        with self.lock:
            away = self.clock() - self.opened_at
            self.probing, self.opened_at = False, None
            self.calls += 1
        # A WARNING, not INFO: with DEBUG off only warnings reach the log, and this line ends the outage.
        logger.warning(
            "The cache at %s is back after %d s; it was emptied first, so that nothing written or "
            "deleted while it was away is read back as it was before.",
            self.where,
            away,
        )
        return True

    def trip(self, error: Exception) -> None:
        with self.lock:
            if self.opened_at is not None:
                return
            now = self.clock()
            self.opened_at, self.next_probe, self.logged_at = now, now + self.retry_seconds, now
        logger.warning(
            "The cache at %s is away (%s: %s): API throttles let requests through, sessions are read "
            "from the database, pages are made without it; trying it again every %d s.",
            self.where,
            type(error).__name__,
            error,
            self.retry_seconds,
        )

    def log_still_away(self, now: float, error: Exception | None = None) -> None:
        """One line a minute while the cache is away (called holding the lock)."""
        if now - self.logged_at < LOG_EVERY:
            return
        self.logged_at = now
        why = f" ({type(error).__name__}: {error})" if error is not None else ""
        logger.warning("The cache at %s is still away after %d s%s.", self.where, now - self.opened_at, why)


_breakers: dict[tuple, Breaker] = {}
_breakers_lock = threading.Lock()


def _reset_in_child() -> None:
    """A forked process (a gunicorn or Celery worker) starts with its breakers closed and unlocked."""
    for breaker in _breakers.values():
        breaker.reset()


os.register_at_fork(after_in_child=_reset_in_child)


def breaker_for(servers: list[str], options: dict, retry_seconds: float, probe_timeout: float) -> Breaker:
    key = (tuple(servers), retry_seconds, probe_timeout)
    with _breakers_lock:
        if key not in _breakers:
            connection = {name: value for name, value in options.items() if name not in DJANGO_OPTIONS}
            connection |= {"socket_connect_timeout": probe_timeout / 2, "socket_timeout": probe_timeout / 2}

            def probe() -> None:
                # Writes, and so FLUSHDB, go to the first server (Django's RedisCacheClient).
                pool = redis.ConnectionPool.from_url(servers[0], **connection)
                try:
                    client = redis.Redis(connection_pool=pool)
                    client.ping()
                    client.flushdb(asynchronous=True)
                finally:
                    pool.disconnect()

            where = ", ".join(address(server) for server in servers)
            _breakers[key] = Breaker(where, retry_seconds, probe)
        return _breakers[key]


class ResilientRedisCache(RedisCache):
    """Django's RedisCache, each of its calls through the breaker of its Redis. Two options of its
    own: `retry_seconds` and `probe_timeout` (seconds)."""

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        retry_seconds = options.pop("retry_seconds", RETRY_SECONDS)
        probe_timeout = options.pop("probe_timeout", PROBE_TIMEOUT)
        super().__init__(server, {**params, "OPTIONS": options})
        servers = re.split("[;,]", server) if isinstance(server, str) else list(server)
        self.breaker = breaker_for(servers, options, retry_seconds, probe_timeout)

    def through_breaker(self, call, fallback, *args, **kwargs):
        if not self.breaker.admits():
            return fallback
        try:
            return call(*args, **kwargs)
        except UNREACHABLE as error:
            self.breaker.trip(error)
            return fallback

    def add(self, key, value, *args, **kwargs):
        return self.through_breaker(super().add, True, key, value, *args, **kwargs)

    def get(self, key, default=None, version=None):
        return self.through_breaker(super().get, default, key, default, version)

    def set(self, key, value, *args, **kwargs):
        return self.through_breaker(super().set, None, key, value, *args, **kwargs)

    def touch(self, key, *args, **kwargs):
        return self.through_breaker(super().touch, False, key, *args, **kwargs)

    def delete(self, key, *args, **kwargs):
        return self.through_breaker(super().delete, False, key, *args, **kwargs)

    def get_many(self, keys, *args, **kwargs):
        return self.through_breaker(super().get_many, {}, keys, *args, **kwargs)

    def has_key(self, key, *args, **kwargs):
        return self.through_breaker(super().has_key, False, key, *args, **kwargs)

    def incr(self, key, delta=1, version=None):
        value = self.through_breaker(super().incr, DROPPED, key, delta, version)
        if value is DROPPED:
            raise ValueError(f"Key {key!r} not found: the cache is away.")
        return value

    def set_many(self, data, *args, **kwargs):
        return self.through_breaker(super().set_many, [], data, *args, **kwargs)

    def delete_many(self, keys, *args, **kwargs):
        return self.through_breaker(super().delete_many, None, keys, *args, **kwargs)

    def clear(self):
        return self.through_breaker(super().clear, None)
