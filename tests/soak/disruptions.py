"""What the soak does to Pitboss midway, and the replica's lag it watches throughout.

Midway: the Celery worker is killed (SIGKILL, no warm shutdown: the tasks it held come back after the
broker's visibility timeout) and another started; every connection to the soak's own database but
the one asking is terminated (pg_terminate_backend: the web workers' and the worker's, and the soak's
own Django connection, idle then; the standby's replication connection names no database, so it
stays); the standby, when there is one, is stopped and started again a few seconds later.
"""

import threading
import time

from .processes import Processes
from .world import World

TERMINATE = """
SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE datname = %s AND pid <> pg_backend_pid()
"""
# Bytes of WAL the standby has yet to replay: none while it is down (no row).
LAG = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) FROM pg_stat_replication"


def disrupt(world: World, processes: Processes, at: float, standby_down_seconds: float) -> threading.Thread:
    """Start a thread that disrupts at `at` (time.monotonic()); its `events` list says what it did."""
    events = []

    def note(what: str) -> None:
        events.append({"at": round(time.monotonic() - at, 1), "what": what})

    def run() -> None:
        time.sleep(max(0.0, at - time.monotonic()))
        processes.worker_killed()
        note(f"worker killed (SIGKILL) and worker {processes.workers_started} started")
        terminated = world.scalar(TERMINATE, (world.database,))
        note(f"{terminated} connections to {world.database} terminated")
        if world.pair is not None:
            world.pair.stop_standby()
            note("standby stopped")
            time.sleep(standby_down_seconds)
            world.pair.start_standby()
            note("standby started")

    thread = threading.Thread(target=run)
    thread.events = events
    thread.start()
    return thread


class LagWatch:
    """The standby's replay lag in bytes, sampled every second in a thread while the soak runs."""

    def __init__(self, world: World):
        self.world = world
        self.samples: list[int | None] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run)
        if world.pair is not None:
            self.thread.start()

    def _run(self) -> None:
        while not self.stopped.wait(1.0):
            self.samples.append(self.lag())

    def lag(self) -> int | None:
        try:
            with self.world.connect() as connection:
                row = connection.execute(LAG).fetchone()
        except Exception:  # the primary's connections were just terminated: no sample this second
            return None
        return None if row is None or row[0] is None else int(row[0])

    def stop(self) -> dict | None:
        """The lag's figures, or None without a standby."""
        if self.world.pair is None:
            return None
        self.stopped.set()
        self.thread.join()
        measured = [sample for sample in self.samples if sample is not None]
        return {
            "max_bytes": max(measured, default=None),
            "end_bytes": self.lag(),
            "seconds_without_a_figure": len(self.samples) - len(measured),
        }
