"""Celery tasks timed and their failures counted for /metrics (core.metrics), by Celery's signals.

`connect()` is called once, by config/celery.py, in every process that loads the Celery app: a
worker's pool processes time the tasks they run (task_prerun to task_postrun, by task id, so that
threads of one process keep theirs apart), and a pool process that ends is marked dead for the
multiprocess files (worker_process_shutdown, as prometheus_client's documentation asks).
"""

import os
import threading
import time

from celery import signals

from core.metrics import TASK_DURATION, TASK_FAILURES, process_exited

_started: dict[str, float] = {}
_lock = threading.Lock()


def task_started(task_id=None, **kwargs) -> None:
    with _lock:
        _started[task_id] = time.perf_counter()


def task_ended(task_id=None, task=None, **kwargs) -> None:
    with _lock:
        started = _started.pop(task_id, None)
    if started is not None and task is not None:
        TASK_DURATION.labels(task.name).observe(time.perf_counter() - started)


def task_failed(sender=None, **kwargs) -> None:
    TASK_FAILURES.labels(getattr(sender, "name", "unknown")).inc()


def pool_process_ended(**kwargs) -> None:
    process_exited(os.getpid())


def connect() -> None:
    # weak=False: the receivers are module functions, but the app keeps them whatever imports them.
    signals.task_prerun.connect(task_started, weak=False, dispatch_uid="pitboss-task-started")
    signals.task_postrun.connect(task_ended, weak=False, dispatch_uid="pitboss-task-ended")
    signals.task_failure.connect(task_failed, weak=False, dispatch_uid="pitboss-task-failed")
    signals.worker_process_shutdown.connect(
        pool_process_ended, weak=False, dispatch_uid="pitboss-pool-process-ended"
    )
