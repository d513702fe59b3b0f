"""gunicorn's settings for production: `gunicorn -c deploy/gunicorn.conf.py config.wsgi`.

From the environment: PITBOSS_BIND (where to listen; default 127.0.0.1:8000, behind the proxy),
PITBOSS_WORKERS (default 2 × cores + 1, at most 12), PITBOSS_WORKER_TIMEOUT (seconds a request may
take before its worker is killed and replaced; default 60: a day's export streams within it) and
PITBOSS_ACCESS_LOG ("1": one line a request on stdout; default off, the proxy keeps one).

Metrics (core/metrics.py): PROMETHEUS_MULTIPROC_DIR must be set, to an empty directory made before
gunicorn starts (and emptied at every start: files of an earlier run would be summed in), for
/metrics to sum every worker's counts. A worker that exits is marked dead there (`child_exit`).
"""

import multiprocessing
import os

from core.metrics import process_exited

MAX_DEFAULT_WORKERS = 12

bind = os.environ.get("PITBOSS_BIND", "127.0.0.1:8000")
default_workers = min(2 * multiprocessing.cpu_count() + 1, MAX_DEFAULT_WORKERS)
workers = int(os.environ.get("PITBOSS_WORKERS") or default_workers)
timeout = int(os.environ.get("PITBOSS_WORKER_TIMEOUT") or 60)
graceful_timeout = 30
keepalive = 5
# The app is loaded in each worker, after fork: no database connection or metric file is shared.
preload_app = False
accesslog = "-" if os.environ.get("PITBOSS_ACCESS_LOG") == "1" else None
errorlog = "-"


def child_exit(server, worker):
    """gunicorn's server hook, as prometheus_client's multiprocess documentation asks."""
    process_exited(worker.pid)
