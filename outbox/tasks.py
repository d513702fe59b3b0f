from celery import shared_task

from .figures import beat
from .services import outbox_drain


@shared_task
def outbox_drain_task() -> int:
    """Beat runs this every minute: tasks whose broker was down when their change committed."""
    return outbox_drain()


@shared_task(ignore_result=True)
def worker_beat_task(queue: str) -> None:
    """Beat sends this every 30 s to each queue, naming it: the worker that runs it records when."""
    beat(queue)
