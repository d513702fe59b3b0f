"""A Redis server of a test's own, for the tests of a cache that goes away (tests/test_cache_*.py,
tests/test_healthz.py) and bench_cache: started on a free loopback port, stopped, restarted on the
same port, frozen with SIGSTOP (the kernel still accepts connections, nothing answers) and thawed.
CI's Redis on 6379, the broker of the rest of the suite, is never touched."""

import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis
from django.core.cache import caches

from core.cache import production_cache
from tests.benchmarks.support import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
CACHED_DATABASE = "django.contrib.sessions.backends.cached_db"


class RedisServer:
    def __init__(self, directory: Path, password: str | None = None):
        self.port = free_port()
        self.directory = directory
        self.password = password
        self.process: subprocess.Popen | None = None
        self.frozen = False

    @property
    def url(self) -> str:
        secret = f":{self.password}@" if self.password else ""
        return f"redis://{secret}127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, password=self.password, socket_connect_timeout=5, socket_timeout=5)

    def start(self) -> None:
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.directory), "--dbfilename", "dump.rdb"]
        if self.password:
            command += ["--requirepass", self.password]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(1_500):  # 30 s, counted in attempts: a test may have frozen the clock
            try:
                self.client().ping()
                return
            except redis.RedisError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.02)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def stop(self, *, keep_data: bool = False) -> None:
        """Ends the server; with keep_data, as a Redis that persists does: what it held is written
        to its file first and read back by the next start."""
        if keep_data:
            self.client().save()
        self.process.terminate()
        self.process.wait(timeout=30)

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)
        self.frozen = True

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)
        self.frozen = False

    def close(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        if self.frozen:
            self.thaw()
        self.process.kill()
        self.process.wait(timeout=30)

    def connections(self) -> int:
        """Sockets of this machine connected to the server's port, whatever their state: the kernel's
        count (/proc/net/tcp), which a frozen server cannot keep from changing."""
        port = f":{self.port:04X}"
        with open("/proc/net/tcp") as table:
            return sum(1 for line in table.readlines()[1:] if line.split()[2].endswith(port))


class Clock:
    """A clock for the breaker (its `clock`): moved by the test, never by waiting."""

    def __init__(self):
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.close()


@pytest.fixture
def production_cache_settings(settings, redis_server):
    """The production settings' cache at the test's own Redis, and their sessions (cached_db)."""
    settings.CACHES = {"default": production_cache(redis_server.url)}
    settings.SESSION_ENGINE = CACHED_DATABASE
    breaker().reset()  # closed, as a new process's: another test may have used the same port
    return settings


@pytest.fixture
def clock(production_cache_settings):
    """The breaker's clock (core.cache.Breaker.clock), moved by the test."""
    moved = Clock()
    breaker().clock = moved
    return moved


def answer(response) -> tuple[int, str]:
    """Status and body, less what differs between any two requests: the CSP nonce, the CSRF token,
    and when a round was stored."""
    body = response.content.decode()
    body = re.sub(r'"ingested_at":"[^"]*"', '"ingested_at":""', body)
    body = re.sub(r'nonce="[^"]*"', 'nonce=""', body)
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken" value=""', body)
    return response.status_code, body


def breaker():
    """The breaker of the default cache (core.cache.Breaker)."""
    return caches["default"].breaker
