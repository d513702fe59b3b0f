"""The metrics for Prometheus (issue 56): every metric's one definition, and the registry a scrape reads.

Counted where things happen, in whichever process: requests (core.middleware.request_metrics), rounds
and bets stored (rounds.ingest), tasks (core.task_metrics). Under gunicorn's workers and Celery's pool
each process keeps its own counts; with PROMETHEUS_MULTIPROC_DIR set (in the environment before any
process imports prometheus_client, as its documentation requires) each writes them to files in that
directory, which /metrics reads and sums (`multiprocess.MultiProcessCollector`). The directory must
be empty when the processes start (deploy/gunicorn.conf.py). Without it (make demo, the tests) the
counts are the process's own, in prometheus_client's default registry.

The figures read from the database at scrape time (the outbox, open alerts, the replica, the workers'
beats) are no process's counts: portal.metrics yields them; their names are here beside the others.
"""

import os

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, multiprocess

MULTIPROCESS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
UNRESOLVED_VIEW = "unresolved"  # the view label of a request no URL pattern matched

HTTP_REQUESTS = Counter(
    "pitboss_http_requests",
    "Requests answered, by URL pattern name, method and status.",
    ["view", "method", "status"],
)
HTTP_REQUEST_DURATION = Histogram(
    "pitboss_http_request_duration_seconds",
    "Seconds from a request to its answer, by URL pattern name.",
    ["view"],
)
ROUNDS_INGESTED = Counter(
    "pitboss_rounds_ingested", "Rounds newly stored (resends not counted), by game.", ["game"]
)
BETS_INGESTED = Counter("pitboss_bets_ingested", "Bets of the rounds newly stored, by game.", ["game"])
ROUNDS_REFUSED = Counter(
    "pitboss_rounds_refused", "Round documents refused, by reason (format, conflict).", ["reason"]
)
TASK_DURATION = Histogram(
    "pitboss_task_duration_seconds",
    "Seconds a Celery task ran, by task name.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, float("inf")),
)
TASK_FAILURES = Counter("pitboss_task_failures", "Celery tasks that raised, by task name.", ["task"])

# Scrape-time gauges (portal.metrics).
OUTBOX_PENDING = "pitboss_outbox_pending"
OUTBOX_OLDEST_AGE = "pitboss_outbox_oldest_age_seconds"
ALERTS_OPEN = "pitboss_alerts_open"
REPLICA_LAG = "pitboss_replica_lag_bytes"
REPLICA_UP = "pitboss_replica_up"
WORKER_LAST_BEAT_AGE = "pitboss_worker_last_beat_age_seconds"


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROCESS_DIR_VARIABLE) or None


def process_registry() -> CollectorRegistry:
    """What the processes counted: every process's files summed, or this process's own."""
    if multiprocess_dir() is None:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def process_exited(pid: int) -> None:
    """A process that ended (a gunicorn worker, a Celery pool process): its live gauges' files go;
    its counts stay in the sums. Nothing to do without the multiprocess directory."""
    if multiprocess_dir() is not None:
        multiprocess.mark_process_dead(pid)
