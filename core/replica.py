"""Reads on a PostgreSQL replica (issue 55): the router, the lag bound, the breaker, read-your-writes.

The replica is the database alias "replica", present only when REPLICA_DATABASE_URL is set; without
it everything reads and writes "default", as with one server. Reads go to the replica only inside
`replica_reads()` (the `ReplicaReadsMixin` of list pages and their exports, reports and archive
recall), for a safe method (GET, HEAD), and only when, decided once at the start of the request:

- the request's user has not written (an unsafe method, by session or API token) within
  PITBOSS_READ_YOUR_WRITES_SECONDS: `WroteRecently` stamps the cache key `pitboss:wrote:<pk>`;
- the breaker is closed: a failed connection to the replica (OperationalError, InterfaceError)
  opens it for PITBOSS_REPLICA_RETRY_SECONDS in this process, during which nothing tries the
  replica, so a stopped replica costs a request nothing but the one failed attempt: a new
  connection is preceded by a TCP probe given PROBE_SECONDS (50 ms), refused at once or given up
  then;
- the replica's lag, in bytes of WAL received but not replayed
  (pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), measured on the replica at
  most every PITBOSS_REPLICA_LAG_CHECK_SECONDS per process), is within PITBOSS_REPLICA_MAX_LAG_BYTES.

Everything else reads the primary: writes, the floor, the limit check, sign-in, sessions and users
(PRIMARY_APPS, whatever the view). A page whose reads were allowed on the replica says where they
went in its `Pitboss-Read-Database` header (replica or primary). A safe request whose replica failed
mid-way (OperationalError or InterfaceError) opens the breaker and runs once more on the primary.
"""

import socket
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connections

DEFAULT = "default"
REPLICA = "replica"
HEADER = "Pitboss-Read-Database"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# Apps always read on the primary: who is signed in, with which session, token and permissions.
PRIMARY_APPS = frozenset({"auth", "sessions", "accounts", "axes", "account", "mfa", "socialaccount"})
# A replica that does not take a TCP connection within this long is down (the breaker opens).
PROBE_SECONDS = 0.05
LAG_SQL = "SELECT pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())"

# The alias reads of the current request go to (DEFAULT outside replica_reads()).
read_database: ContextVar[str] = ContextVar("pitboss_read_database", default=DEFAULT)


def configured() -> bool:
    return REPLICA in settings.DATABASES


def wrote_key(user_pk) -> str:
    return f"pitboss:wrote:{user_pk}"


class Replica:
    """This process's view of the replica: the breaker and the last lag measured."""

    def __init__(self):
        self.lock = threading.Lock()
        self.clock = time.monotonic
        self.reset()

    def reset(self) -> None:
        self.open_until: float | None = None  # the breaker is open until then
        self.measured_at: float | None = None
        self.lag_bytes: int | None = None

    def open_breaker(self) -> None:
        with self.lock:
            self.open_until = self.clock() + settings.PITBOSS_REPLICA_RETRY_SECONDS
            self.measured_at = None
            self.lag_bytes = None
        connections[REPLICA].close()

    def breaker_open(self) -> bool:
        return self.open_until is not None and self.clock() < self.open_until

    def measure(self) -> int:
        """The replica's lag in bytes; the first connection to it is tried here, after a TCP probe
        given PROBE_SECONDS, so that a replica that does not answer is given up within that (a
        later reconnection, the connection being older than CONN_MAX_AGE, is the driver's own)."""
        if self.measured_at is None:  # the process's first measure, or the first since the breaker
            probe(settings.DATABASES[REPLICA])
        connection = connections[REPLICA]
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute(LAG_SQL)
            (lag,) = cursor.fetchone()
        return int(lag or 0)  # NULL on a server that is not a standby: no lag

    def state(self) -> tuple[str, int | None]:
        """("none" | "down" | "lagging" | "ok", lag in bytes or None)."""
        if not configured():
            return "none", None
        if self.breaker_open():
            return "down", None
        now = self.clock()
        if self.measured_at is None or now - self.measured_at >= settings.PITBOSS_REPLICA_LAG_CHECK_SECONDS:
            try:
                lag = self.measure()
            except (OperationalError, InterfaceError):
                self.open_breaker()
                return "down", None
            with self.lock:
                self.measured_at, self.lag_bytes = now, lag
        lag = self.lag_bytes
        return ("lagging" if lag > settings.PITBOSS_REPLICA_MAX_LAG_BYTES else "ok"), lag


replica = Replica()


def probe(database: dict) -> None:
    """A TCP connection to the replica's host and port, given PROBE_SECONDS: OperationalError when it
    is not made in time (a host that drops packets would otherwise hold the first request for the
    driver's connect_timeout, 2 s at least). A Unix socket (HOST a path) is not probed."""
    host, port = database.get("HOST") or "localhost", int(database.get("PORT") or 5432)
    if host.startswith("/"):
        return
    try:
        socket.create_connection((host, port), timeout=PROBE_SECONDS).close()
    except OSError as error:
        raise OperationalError(f"the replica at {host}:{port} does not answer") from error


def wrote_recently(user) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return cache.get(wrote_key(user.pk)) is not None


def choose(request) -> str:
    """Where this request's reads go: REPLICA or DEFAULT, decided once."""
    if not configured() or request.method not in SAFE_METHODS:
        return DEFAULT
    if wrote_recently(getattr(request, "user", None)):
        return DEFAULT
    state, _lag = replica.state()
    return REPLICA if state == "ok" else DEFAULT


@contextmanager
def replica_reads(database: str):
    token = read_database.set(database)
    try:
        yield
    finally:
        read_database.reset(token)


def _in_context(chunks, database: str):
    """A streamed response's chunks read where its view read (an export streams after the view)."""
    iterator = iter(chunks)
    while True:
        with replica_reads(database):
            try:
                chunk = next(iterator)
            except StopIteration:
                return
        yield chunk


class ReplicaReadsMixin:
    """A view whose safe requests may read the replica (see the module's docstring). The response is
    rendered, and a streamed one read, inside the choice."""

    def dispatch(self, request, *args, **kwargs):
        database = choose(request)
        try:
            response = self.respond_on(database, request, *args, **kwargs)
        except (OperationalError, InterfaceError):
            if database != REPLICA:
                raise
            replica.open_breaker()  # the replica failed mid-request: once more on the primary
            database = DEFAULT
            response = self.respond_on(database, request, *args, **kwargs)
        if configured():
            response[HEADER] = "replica" if database == REPLICA else "primary"
        return response

    def respond_on(self, database, request, *args, **kwargs):
        with replica_reads(database):
            response = super().dispatch(request, *args, **kwargs)
            # Rendered here, where the reads are routed (Django would render after the view).
            if database == REPLICA and not getattr(response, "is_rendered", True):
                response.render()
        if getattr(response, "streaming", False) and database == REPLICA:
            response.streaming_content = _in_context(response.streaming_content, database)
        return response


class ReplicaRouter:
    """Django's database router (DATABASE_ROUTERS): reads where the request chose, writes and
    migrations on "default"."""

    def db_for_read(self, model, **hints):
        if model._meta.app_label in PRIMARY_APPS:
            return DEFAULT
        return read_database.get()

    def db_for_write(self, model, **hints):
        return DEFAULT

    def allow_relation(self, obj1, obj2, **hints):
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT


def wrote_recently_stamp(get_response):
    """Read your writes: after a request with an unsafe method by a signed-in user (session or API
    token; DRF sets the token's user on the request), that user reads the primary for
    PITBOSS_READ_YOUR_WRITES_SECONDS."""

    def middleware(request):
        response = get_response(request)
        if configured() and request.method not in SAFE_METHODS:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                seconds = settings.PITBOSS_READ_YOUR_WRITES_SECONDS
                cache.set(wrote_key(user.pk), time.time(), timeout=seconds)
        return response

    return middleware
