"""Pitboss's processes as production runs them: gunicorn with deploy/gunicorn.conf.py (its default
workers: 2 × cores + 1), a Celery worker of both queues, Celery beat with a schedule file of its own,
the web and worker processes writing their metrics to one PROMETHEUS_MULTIPROC_DIR; and a webhook
receiver on loopback that notes each delivery it is sent.

The development settings with DEBUG off (the production ones want HTTPS and a Redis cache), on the
soak's own Redis database (flushed first) and with a short broker visibility timeout
(PITBOSS_BROKER_VISIBILITY_SECONDS), so that the tasks a killed worker held come back within the run.
"""

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import redis

from tests.replica_support import free_port, wait_for

from .world import World

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
REDIS_URL = os.environ.get("SOAK_REDIS_URL", "redis://127.0.0.1:6379/14")
# Longer than any task of the soak runs (a monitors' run takes well under a second a batch).
VISIBILITY_SECONDS = 30
GUNICORN_CONFIG = ROOT / "deploy" / "gunicorn.conf.py"


def app_environment(world: World) -> dict:
    """The environment of every Pitboss process of the soak, the soak's own included."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "REPLICA_", "PITBOSS_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY=os.environ.get("SOAK_SECRET_KEY") or secrets.token_urlsafe(50),
        PITBOSS_LEDGER_KEY=secrets.token_urlsafe(32),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=world.database_url,
        CELERY_BROKER_URL=REDIS_URL,
        PITBOSS_BROKER_VISIBILITY_SECONDS=str(VISIBILITY_SECONDS),
        EMAIL_HOST="",  # alerts' emails to the worker's console
    )
    return env


def redis_flushed() -> None:
    redis.Redis.from_url(REDIS_URL).flushdb()


class Processes:
    """The running processes; `stop()` ends every one of them."""

    def __init__(self, world: World, env: dict, folder: Path):
        self.world, self.env, self.folder = world, env, folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.web = self.beat = self.worker = None
        self.workers_started = 0
        metrics = folder / "metrics"
        metrics.mkdir()
        # The web and worker processes' metrics, summed by /metrics; not the soak's own process.
        self.env = {**env, "PROMETHEUS_MULTIPROC_DIR": str(metrics)}

    def _start(self, name: str, command: list[str], env: dict) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "ab")
        # A session of its own: the worker and its pool's children are killed together.
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def start(self) -> None:
        web_env = {**self.env}
        if self.world.replica_url:
            web_env.update(REPLICA_DATABASE_URL=self.world.replica_url, PITBOSS_REPLICA_RETRY_SECONDS="5")
        web_env.update(PITBOSS_BIND=f"127.0.0.1:{self.port}", PITBOSS_WORKER_TIMEOUT="120")
        command = [str(BIN / "gunicorn"), "-c", str(GUNICORN_CONFIG), "config.wsgi", "--log-level", "warning"]
        self.web = self._start("gunicorn", command, web_env)
        self.worker_start()
        schedule = self.folder / "beat-schedule"
        beat = [str(BIN / "celery"), "-A", "config", "beat", "-s", str(schedule), "--loglevel", "warning"]
        self.beat = self._start("beat", beat, self.env)
        wait_for(self.base + "/healthz", 120)

    def worker_start(self) -> None:
        self.workers_started += 1
        command = [str(BIN / "celery"), "-A", "config", "worker", "-Q", "celery,notifications"]
        command += ["-c", "2", "--loglevel", "warning", "-n", f"soak{self.workers_started}@%h"]
        self.worker = self._start(f"worker{self.workers_started}", command, self.env)

    def worker_killed(self) -> None:
        """SIGKILL the worker (its children too: they are its process group's) and start another."""
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait(timeout=30)
        self.worker_start()

    def stop(self) -> None:
        for process in (self.beat, self.worker, self.web):
            if process is not None and process.poll() is None:
                process.terminate()
        for process in (self.beat, self.worker, self.web):
            if process is not None:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


class WebhookReceiver:
    """An HTTP server on loopback counting the deliveries it receives by their id (the body's `id`)."""

    def __init__(self):
        received = self.received = Counter()
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with lock:
                    received[json.loads(body)["id"]] += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
