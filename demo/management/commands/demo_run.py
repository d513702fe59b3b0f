"""python manage.py demo_run: the demo's three processes, started together and stopped together.

- the web server (Django's runserver, without its reloader: one process),
- a Celery worker (report runs, a configuration's figures, the alerts' emails, ...): started without
  -Q, it takes every queue of settings.CELERY_TASK_QUEUES, the notifications queue too,
- Celery beat (the periodic tasks of settings.CELERY_BEAT_SCHEDULE; its schedule file under var/).

They need a broker that every one of them reaches: make demo names kombu's filesystem transport
(CELERY_BROKER_URL=filesystem://, its folders under var/broker/), which needs no server. Each process
runs in a process group of its own, so a Ctrl-C at the terminal reaches this command alone. On Ctrl-C
(SIGINT), SIGTERM or a hang-up it asks each of the three to stop with SIGTERM: a worker's warm shutdown,
which finishes the task under way (a worker given SIGINT while it is still starting up can hang). When
any of the three ends on its own, the other two are stopped as well, and the command fails naming it.
Whatever is left STOP_SECONDS after that (a worker still finishing a task, say) is killed, with any
process it started; a second signal kills at once.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

STOP_SECONDS = 20
POLL_SECONDS = 0.2
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def group_alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _signal_group(pid: int, signum: int) -> None:
    try:
        os.killpg(pid, signum)
    except ProcessLookupError:
        pass


class Command(BaseCommand):
    help = "Run the demo's web server, Celery worker and Celery beat together; Ctrl-C stops all three."

    def add_arguments(self, parser):
        parser.add_argument("--address", default="127.0.0.1:8000", help="the web server's address and port")
        parser.add_argument(
            "--beat-schedule",
            type=Path,
            default=None,
            help="Celery beat's schedule file (default: var/celerybeat-schedule)",
        )
        parser.add_argument("--concurrency", type=int, default=2, help="the worker's processes")

    def handle(self, *args, **options):
        if settings.CELERY_TASK_ALWAYS_EAGER:
            raise CommandError(
                "CELERY_BROKER_URL is not set, so tasks would run in each process and no worker would see "
                "them. Name a broker: CELERY_BROKER_URL=filesystem:// needs no server (make demo sets it)."
            )
        schedule = options["beat_schedule"] or settings.VAR_DIR / "celerybeat-schedule"
        schedule.parent.mkdir(parents=True, exist_ok=True)
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        commands = {
            "web server": [
                sys.executable,
                str(settings.BASE_DIR / "manage.py"),
                "runserver",
                options["address"],
                "--noreload",
            ],
            # One worker on one machine: no need to meet (mingle) or watch (gossip) other workers.
            "worker": [
                *celery,
                "worker",
                "--loglevel=INFO",
                f"--concurrency={options['concurrency']}",
                "--hostname=demo@%h",
                "--without-mingle",
                "--without-gossip",
            ],
            "beat": [*celery, "beat", "--loglevel=INFO", f"--schedule={schedule}"],
        }
        self.received: list[int] = []
        for signum in STOP_SIGNALS:
            # Installed before the three start, which then begin with each signal's default action.
            signal.signal(signum, lambda signum, frame: self.received.append(signum))
        processes: dict[str, subprocess.Popen] = {}
        ended = None
        try:
            for name, command in commands.items():
                # They inherit DJANGO_SETTINGS_MODULE (manage.py sets it): without it, config/celery.py
                # would load the production settings.
                processes[name] = subprocess.Popen(
                    command, cwd=settings.BASE_DIR, stdin=subprocess.DEVNULL, start_new_session=True
                )
            self.stdout.write(
                "Running: "
                + ", ".join(f"{name} (pid {process.pid})" for name, process in processes.items())
                + ". Ctrl-C stops all three."
            )
            while not self.received and ended is None:
                ended = next(
                    (name for name, process in processes.items() if process.poll() is not None), None
                )
                time.sleep(POLL_SECONDS)
        finally:
            self.stop(processes)
        if ended is not None and not self.received:
            raise CommandError(
                f"The {ended} stopped (exit status {processes[ended].returncode}), and so did the others."
            )

    def stop(self, processes: dict[str, subprocess.Popen]) -> None:
        already = len(self.received)
        for process in processes.values():
            # The leader alone: a worker stops its own pool (pool processes signalled while starting
            # up die, and their worker then waits for them forever).
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline and len(self.received) == already:
            if all(process.poll() is not None for process in processes.values()):
                break
            time.sleep(POLL_SECONDS)
        for name, process in processes.items():
            if process.poll() is None:
                self.stderr.write(f"The {name} did not stop in time; killing it.")
            # A leader gone may leave members behind (a worker's pool processes): the group goes too.
            if group_alive(process.pid):
                _signal_group(process.pid, signal.SIGKILL)
            process.wait()
