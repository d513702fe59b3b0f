from celery import shared_task

from .sending import delivery_send
from .services import retries_due


@shared_task
def deliver_task(delivery_pk: int) -> str | None:
    """One delivery sent (routed to the "notifications" queue: settings.CELERY_TASK_ROUTES)."""
    return delivery_send(delivery_pk)


@shared_task
def deliveries_retry_task() -> int:
    """Deliveries due again after a failure sent (each minute, by beat): how many."""
    return len(retries_due())
