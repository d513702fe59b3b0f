"""What the benchmarks share: the scale they run at, a scratch database, Pitboss under gunicorn on
loopback, and the garbage collector's seconds in a block."""

import atexit
import gc
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

# The scale every benchmark runs at (`make bench BENCH_SCALE=smoke`): "full", the default, the sizes
# BENCHMARKS.md's figures were measured at; "smoke", each benchmark's same code paths at sizes that
# take seconds (CI runs them so that a benchmark that stops working fails), its figures printed but
# not to be compared with anything.
SCALE_VARIABLE = "BENCH_SCALE"
FULL = "full"
SMOKE = "smoke"


def bench_scale() -> str:
    """This run's scale, from BENCH_SCALE (unset or empty: full)."""
    scale = os.environ.get(SCALE_VARIABLE) or FULL
    if scale not in (FULL, SMOKE):
        raise SystemExit(f"{SCALE_VARIABLE} must be {FULL} or {SMOKE}, not {scale!r}.")
    return scale


def sized(full, smoke):
    """A benchmark's size at this run's scale: `full`, or `smoke` at BENCH_SCALE=smoke."""
    return smoke if bench_scale() == SMOKE else full


@contextmanager
def scratch_database(suffix: str):
    """Django set up on a scratch database, `<name>_bench_<suffix>` beside DATABASE_URL's, a copy of
    the process's migrated database (migrated_template) dropped at the end; yields its name, or None
    (said why) without PostgreSQL."""
    if not os.environ.get("DATABASE_URL"):
        print("   skipped: DATABASE_URL is not set (this benchmark needs PostgreSQL; see README.md)")
        yield None
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection

    if connection.vendor != "postgresql":
        print("   skipped: DATABASE_URL is not a PostgreSQL database")
        yield None
        return
    source, template = migrated_template()
    name = f"{source}_bench_{suffix}"
    print(f"   scratch database {name} (dropped at the end)", flush=True)
    _server_command(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _server_command(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    _use_database(name)
    try:
        yield name
    finally:
        _use_database(template)
        _server_command(f'DROP DATABASE "{name}" WITH (FORCE)')


# The process's migrated database: (DATABASE_URL's name, the migrated copy's), made once.
_MIGRATED: list[tuple[str, str]] = []


def migrated_template() -> tuple[str, str]:
    """(DATABASE_URL's database name, `<name>_bench_migrated`): the latter made with migrations by
    Django's test database creation the first time a process asks, dropped when it ends. Each scratch
    database is a copy of it (CREATE DATABASE ... TEMPLATE: about a second, where migrating takes
    some 25 s), so the benchmarks of one run migrate once."""
    if not _MIGRATED:
        from django.conf import settings
        from django.db import connection
        from django.test.utils import setup_databases, teardown_databases

        database = settings.DATABASES["default"]
        source = database["NAME"]
        database.setdefault("TEST", {})["NAME"] = f"{source}_bench_migrated"
        started = time.perf_counter()
        state = setup_databases(verbosity=0, interactive=False)
        connection.close()  # a template takes no connections while it is copied
        print(
            f"   {database['NAME']} migrated in {time.perf_counter() - started:.1f} s (once a run: each "
            "scratch database is a copy of it; dropped at the end)",
            flush=True,
        )
        _MIGRATED.append((source, database["NAME"]))
        atexit.register(teardown_databases, state, verbosity=0)
    return _MIGRATED[0]


def _use_database(name: str) -> None:
    """Django's connection moved to database `name` on the same server."""
    from django.conf import settings
    from django.db import connection

    connection.close()
    settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = name


def _server_command(sql: str) -> None:
    """`sql` run outside any database's transaction (CREATE and DROP DATABASE), on the server's
    maintenance database."""
    import psycopg
    from django.db import connection

    params = {**connection.get_connection_params(), "dbname": "postgres"}
    with psycopg.connect(**params, autocommit=True) as server:
        server.execute(sql)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(database_name: str, workers: int = 2, settings_module: str = "config.settings"):
    """Serve the app from `database_name` (on DATABASE_URL's server), DEBUG off, with the settings
    `settings_module`; yields the base URL."""
    from django.conf import settings

    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + database_name
    port = free_port()
    environment = {
        **os.environ,
        # Named: config.wsgi alone would load the production settings (HTTPS only, a Redis cache).
        "DJANGO_SETTINGS_MODULE": settings_module,
        "DATABASE_URL": url,
        "DEBUG": "false",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here must hold there
        "PITBOSS_LEDGER_KEY": settings.PITBOSS_LEDGER_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    command = [os.path.join(os.path.dirname(sys.executable), "gunicorn"), "config.wsgi"]
    command += ["-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120"]
    server = subprocess.Popen(command, env=environment)
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_for_port(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not start in 60 s")


class CollectorTime:
    """The seconds the garbage collector runs while the block does (gc.callbacks)."""

    def __enter__(self):
        self.seconds, self._started = 0.0, 0.0
        self.objects = len(gc.get_objects())
        gc.callbacks.append(self._tick)
        return self

    def __exit__(self, *exc_info):
        gc.callbacks.remove(self._tick)

    def _tick(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started
