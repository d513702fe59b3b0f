"""What /healthz and /metrics tell of the outbox and the workers, one query each.

`pending()`: the messages the broker has not taken and the age of the oldest (a growing figure means
the broker is away and the drain cannot send). `beat_ages()`: for each queue of CELERY_TASK_QUEUES,
the seconds since a worker last ran its heartbeat (None: never).
"""

from django.conf import settings
from django.db.models import Count, Min
from django.utils import timezone

from .models import OutboxMessage, WorkerBeat


def pending() -> tuple[int, float | None]:
    """(messages not sent, seconds since the oldest was written, or None when there is none)."""
    figures = OutboxMessage.objects.filter(sent_at__isnull=True).aggregate(
        count=Count("id"), oldest=Min("created_at")
    )
    oldest = figures["oldest"]
    return figures["count"], None if oldest is None else max(0.0, (timezone.now() - oldest).total_seconds())


def queues() -> list[str]:
    return [queue.name for queue in settings.CELERY_TASK_QUEUES]


def beat_ages() -> dict[str, float | None]:
    now = timezone.now()
    beats = dict(WorkerBeat.objects.filter(queue__in=queues()).values_list("queue", "beat_at"))
    return {
        queue: None if queue not in beats else max(0.0, (now - beats[queue]).total_seconds())
        for queue in queues()
    }


def beat(queue: str) -> None:
    """A worker ran the heartbeat of `queue`, one of CELERY_TASK_QUEUES (another would never be told:
    ValueError)."""
    if queue not in queues():
        raise ValueError(f"{queue!r} is not one of CELERY_TASK_QUEUES")
    WorkerBeat.objects.update_or_create(queue=queue, defaults={"beat_at": timezone.now()})
