"""Send Celery tasks through the outbox (see outbox.models)."""

import logging
from collections.abc import Iterable
from datetime import timedelta

from celery import current_app
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from .models import OutboxMessage

logger = logging.getLogger(__name__)

# The drain leaves younger messages to the send that their own commit starts.
DRAIN_AFTER = timedelta(seconds=30)
DRAIN_BATCH = 500


def task_send_on_commit(task, *args) -> OutboxMessage:
    """Queue `task(*args)` once the current transaction commits; kept until the broker takes it.

    The task must be safe to run twice: a message sent and not yet marked sent when a process dies
    is sent again by the drain."""
    message = OutboxMessage.objects.create(task=task.name, args=list(args))
    transaction.on_commit(lambda: outbox_send(messages=[message]))
    return message


def outbox_send(*, messages: Iterable[OutboxMessage]) -> int:
    """Hand each message to the broker (eager Celery runs it here). A broker that cannot be reached
    leaves the message to the drain; nothing is raised, so a committed change never fails after
    its commit. Returns how many were sent."""
    sent = 0
    for message in messages:
        try:
            # No publish retries and no result to wait for: a broker that is down is known in seconds.
            current_app.tasks[message.task].apply_async(args=message.args, retry=False, ignore_result=True)
        except BrokerUnreachable as error:
            OutboxMessage.objects.filter(pk=message.pk).update(
                attempts=message.attempts + 1, last_error=f"{type(error).__name__}: {error}"
            )
            logger.warning("Broker unreachable; %s left in the outbox for the drain: %s", message, error)
            break
        except Exception:
            if not current_app.conf.task_always_eager:
                raise
            # An eagerly run task (no broker: make demo, tests) ran and failed; its task records that.
            logger.exception("Task %s failed when run eagerly", message)
        OutboxMessage.objects.filter(pk=message.pk).update(
            sent_at=timezone.now(), attempts=message.attempts + 1
        )
        sent += 1
    return sent


def outbox_drain() -> int:
    """Send the messages still waiting (oldest first). Several drains at once each take their own."""
    sent = 0
    while True:
        with transaction.atomic():
            batch = list(
                OutboxMessage.objects.select_for_update(skip_locked=True)
                .filter(sent_at__isnull=True, created_at__lte=timezone.now() - DRAIN_AFTER)
                .order_by("id")[:DRAIN_BATCH]
            )
            if not batch:
                return sent
            done = outbox_send(messages=batch)
        sent += done
        if done < len(batch):  # the broker went away again
            return sent
