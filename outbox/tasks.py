from celery import shared_task

from .services import outbox_drain


@shared_task
def outbox_drain_task() -> int:
    """Beat runs this every minute: tasks whose broker was down when their change committed."""
    return outbox_drain()
