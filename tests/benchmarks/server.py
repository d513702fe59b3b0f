"""Pitboss under gunicorn on loopback, for the benchmarks that measure it over HTTP."""

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(database_name: str, workers: int = 2):
    """Serve the app from `database_name` (on DATABASE_URL's server), DEBUG off; yields the base URL."""
    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + database_name
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "false",
        "SECRET_KEY": "benchmark-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    command = [os.path.join(os.path.dirname(sys.executable), "gunicorn"), "config.wsgi"]
    command += ["-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120"]
    server = subprocess.Popen(command, env=environment)
    try:
        _wait_for(port)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not start in 60 s")
