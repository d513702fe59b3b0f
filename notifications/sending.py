"""One delivery sent: claimed, sent with no lock held, its outcome recorded.

The claim is one conditional UPDATE (its attempt counted, its next attempt put off by LEASE): a
second task for the same delivery (the outbox sends again what a dying process had sent) finds it
claimed and does nothing, and no row or SQLite write lock is held while a slow receiver keeps the
send waiting. A process that dies mid-send leaves its claim to run out: the retry task then sends
it again.
"""

import urllib.request
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from .choices import Channel, DeliveryStatus
from .messages import email_body, subject, webhook_body
from .models import Delivery
from .services import backoff, signing_secrets
from .signing import HEADER, sign

ERROR_LENGTH = 1000


class DeliveryFailed(Exception):
    pass


def _lease() -> timedelta:
    return timedelta(
        minutes=2, seconds=settings.PITBOSS_WEBHOOK_TIMEOUT_SECONDS + settings.PITBOSS_EMAIL_TIMEOUT_SECONDS
    )


def _claimed(pk: int) -> bool:
    now = timezone.now()
    return bool(
        Delivery.objects.filter(pk=pk, status__in=(DeliveryStatus.PENDING, DeliveryStatus.RETRYING))
        .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        .update(next_attempt_at=now + _lease(), attempts=F("attempts") + 1)
    )


def send_email(delivery: Delivery) -> None:
    message = EmailMessage(
        subject(delivery), email_body(delivery), settings.DEFAULT_FROM_EMAIL, [delivery.address]
    )
    message.send(using="default")


def send_webhook(delivery: Delivery) -> None:
    endpoint = delivery.endpoint
    if not endpoint.active:
        raise DeliveryFailed(f"Endpoint {endpoint.name} was deactivated.")
    body = webhook_body(delivery)
    request = urllib.request.Request(
        delivery.address,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "Pitboss-Webhooks/1",
            HEADER: sign(body, signing_secrets(endpoint, timezone.now())),
        },
    )
    # urlopen raises HTTPError for 4xx and 5xx, and a timeout when the receiver keeps it waiting.
    with urllib.request.urlopen(request, timeout=settings.PITBOSS_WEBHOOK_TIMEOUT_SECONDS) as response:
        if not 200 <= response.status < 300:
            raise DeliveryFailed(f"HTTP {response.status} {response.reason}")


SENDERS = {Channel.EMAIL: send_email, Channel.WEBHOOK: send_webhook}


def delivery_send(pk: int) -> str | None:
    """Send delivery `pk` if it is due and nobody else is sending it; its status after, or None when
    there was nothing to do."""
    if not _claimed(pk):
        return None
    delivery = Delivery.objects.select_related("event__alert__table", "endpoint").get(pk=pk)
    try:
        SENDERS[delivery.channel](delivery)
    except Exception as error:  # whatever went wrong is recorded, and the delivery retried
        failure = f"{type(error).__name__}: {error}"[:ERROR_LENGTH]
    else:
        failure = None
    return _record(pk, failure)


@transaction.atomic
def _record(pk: int, failure: str | None) -> str:
    delivery = Delivery.objects.select_for_update().get(pk=pk)
    now = timezone.now()
    if failure is None:
        delivery.status, delivery.sent_at, delivery.next_attempt_at = DeliveryStatus.SENT, now, None
        delivery.last_error = ""
    else:
        wait = backoff(delivery.attempts)
        delivery.last_error = failure
        delivery.status = DeliveryStatus.FAILED if wait is None else DeliveryStatus.RETRYING
        delivery.next_attempt_at = None if wait is None else now + wait
    delivery.save(update_fields=["status", "sent_at", "next_attempt_at", "last_error"])
    return delivery.status
