"""What the PostgreSQL benchmarks share: a scratch database, Pitboss under gunicorn on loopback, and the
garbage collector's seconds in a block."""

import gc
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager


@contextmanager
def scratch_database(suffix: str):
    """Django set up on a scratch copy of DATABASE_URL's database, `<name>_bench_<suffix>`, made
    with migrations and dropped at the end; yields its name, or None (said why) without PostgreSQL."""
    if not os.environ.get("DATABASE_URL"):
        print("   skipped: DATABASE_URL is not set (this benchmark needs PostgreSQL; see README.md)")
        yield None
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.vendor != "postgresql":
        print("   skipped: DATABASE_URL is not a PostgreSQL database")
        yield None
        return
    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = f"{database['NAME']}_bench_{suffix}"
    print(f"   scratch database {database['TEST']['NAME']} (dropped at the end)", flush=True)
    state = setup_databases(verbosity=0, interactive=False)
    try:
        yield database["TEST"]["NAME"]
    finally:
        connection.close()
        teardown_databases(state, verbosity=0)


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
