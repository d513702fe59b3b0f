from celery import shared_task

from .monitors import monitors_run
from .services import escalate_due


@shared_task
def monitors_run_task() -> int:
    """Every monitor once (every 15 s, by beat): how many alerts it raised or repeated."""
    return len(monitors_run())


@shared_task
def alerts_escalate_task() -> int:
    """Unacknowledged alerts past their time escalated (each minute, by beat): how many."""
    return len(escalate_due())
