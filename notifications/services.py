"""Who is sent what, and the changes of subscriptions, webhook endpoints and deliveries. Pages and
tasks call these; the sending itself is in sending.py.

An alert event of kind raised, worsened or escalated (alerts.signals) makes its deliveries in its own
transaction, each sent by its own task (tasks.deliver_task, on the "notifications" queue) once that
transaction commits:
- by email, to each active user with an address: without a Subscription, when the event reaches
  their role (its `recipients`: on a worsening or an escalation, those it newly reaches); with one,
  when it is by email and the alert's table, monitor and severity are among its choices (on a
  worsening or an escalation: when the severity it rose to is the first that reaches them);
- by webhook, to each active endpoint whose choices the alert's table, monitor and severity meet, at
  every such event (a receiver follows the alert's severity).
"""

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import URLValidator, validate_email
from django.db import transaction
from django.utils import timezone

from accounts.backends import role_names
from alerts.choices import AlertEventKind, Monitor, Severity
from alerts.definitions import DEFINITIONS
from alerts.models import Alert, AlertEvent
from core.refusals import TransitionRefused
from outbox.services import task_send_on_commit

from .choices import Channel, DeliveryStatus
from .models import Choices, Delivery, Subscription, WebhookEndpoint

NOTIFIED_KINDS = (AlertEventKind.RAISED, AlertEventKind.WORSENED, AlertEventKind.ESCALATED)
# Minutes before the next attempt after the 1st, 2nd, ... failure; the 6th failure gives it up
# (status failed, listed for a retry by hand).
BACKOFF_MINUTES = (1, 2, 4, 8, 16)
ATTEMPTS = len(BACKOFF_MINUTES) + 1
SECRET_BYTES = 32


def _send(delivery: Delivery) -> None:
    from .tasks import deliver_task

    task_send_on_commit(deliver_task, delivery.pk)


def matches(choices: Choices, alert: Alert, table_pks: set[int]) -> bool:
    """Whether `alert` is among `choices` (`table_pks`: its tables, read once)."""
    return (
        (not table_pks or alert.table_id in table_pks)
        and (not choices.monitors or alert.monitor in choices.monitors)
        and alert.severity >= choices.severity
    )


def _reached_before(choices: Choices, event: AlertEvent) -> bool:
    """On a worsening or an escalation: whether the severity before it already reached `choices`
    (it was the one below: an escalation rises one severity, and there are two)."""
    return event.kind != AlertEventKind.RAISED and choices.severity < event.alert.severity


def _email_of(user, subscription: Subscription | None) -> str:
    return (subscription.email if subscription else "") or user.email


def deliveries_for_event(sender, event: AlertEvent, **kwargs) -> list[Delivery]:
    """The deliveries of `event` (the receiver of alerts.signals.alert_event_recorded)."""
    if not settings.PITBOSS_NOTIFICATIONS or event.kind not in NOTIFIED_KINDS:
        return []
    alert = event.alert
    deliveries = []
    subscribed = Subscription.objects.filter(user__is_active=True).select_related("user")
    for subscription in subscribed.prefetch_related("tables"):
        table_pks = {table.pk for table in subscription.tables.all()}
        address = _email_of(subscription.user, subscription)
        if (
            subscription.by_email
            and address
            and matches(subscription, alert, table_pks)
            and not _reached_before(subscription, event)
        ):
            deliveries.append(
                Delivery(event=event, channel=Channel.EMAIL, user=subscription.user, address=address)
            )
    by_role = (
        get_user_model()
        .objects.filter(is_active=True, username__in=event.recipients, notification_subscription__isnull=True)
        .exclude(email="")
        .order_by("username")
    )
    deliveries += [
        Delivery(event=event, channel=Channel.EMAIL, user=user, address=user.email) for user in by_role
    ]
    for endpoint in WebhookEndpoint.objects.filter(active=True).prefetch_related("tables"):
        if matches(endpoint, alert, {table.pk for table in endpoint.tables.all()}):
            deliveries.append(
                Delivery(event=event, channel=Channel.WEBHOOK, endpoint=endpoint, address=endpoint.url)
            )
    for delivery in deliveries:
        delivery.save()
        _send(delivery)
    return deliveries


# --- subscriptions -------------------------------------------------------------------------------


def role_monitors(user) -> list[str]:
    roles = set(role_names(user))
    return [str(monitor) for monitor, definition in DEFINITIONS.items() if definition.role in roles]


def subscription_of(user) -> Subscription:
    """The user's subscription, or (unsaved) their role's default: its monitors' warnings and worse."""
    try:
        return Subscription.objects.get(user=user)
    except Subscription.DoesNotExist:
        monitors = role_monitors(user)
        # No monitor of their own: nothing reaches them by role, and empty monitors would mean all.
        return Subscription(user=user, monitors=monitors, severity=Severity.WARNING, by_email=bool(monitors))


def _checked_choices(monitors, severity) -> list[str]:
    monitors = list(dict.fromkeys(str(monitor) for monitor in monitors))
    unknown = [monitor for monitor in monitors if monitor not in Monitor.values]
    if unknown:
        raise ValidationError({"monitors": f"Unknown monitor {', '.join(map(repr, unknown))}."})
    if severity not in Severity.values:
        raise ValidationError(
            {"severity": f"Severity must be one of {', '.join(map(str, Severity.values))}."}
        )
    return monitors


@transaction.atomic
def subscription_save(*, user, by_email: bool, email: str, monitors, tables, severity: int) -> Subscription:
    """The user's own choices, in place of their role's default from now on."""
    monitors = _checked_choices(monitors, severity)
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError as error:
            raise ValidationError(
                {"email": "Enter a valid email address, or none for your account's."}
            ) from error
    if by_email and not (email or user.email):
        raise ValidationError({"email": "Your account has no email address: give one here."})
    subscription, _ = Subscription.objects.update_or_create(
        user=user, defaults={"by_email": by_email, "email": email, "monitors": monitors, "severity": severity}
    )
    subscription.tables.set(tables)
    return subscription


@transaction.atomic
def send_test(*, user) -> list[Delivery]:
    """A test message by email to the user and to each of their active webhook endpoints."""
    if not settings.PITBOSS_NOTIFICATIONS:
        raise ValidationError("Notifications are off here (PITBOSS_NOTIFICATIONS).")
    subscription = Subscription.objects.filter(user=user).first()
    address = _email_of(user, subscription)
    if not address:
        raise ValidationError({"email": "Your account has no email address: give one in your subscription."})
    deliveries = [Delivery(channel=Channel.EMAIL, user=user, address=address)]
    deliveries += [
        Delivery(channel=Channel.WEBHOOK, endpoint=endpoint, user=user, address=endpoint.url)
        for endpoint in WebhookEndpoint.objects.filter(owner=user, active=True)
    ]
    for delivery in deliveries:
        delivery.save()
        _send(delivery)
    return deliveries


# --- webhook endpoints ---------------------------------------------------------------------------


def _new_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


@transaction.atomic
def endpoint_create(
    *, owner, name: str, url: str, monitors=(), tables=(), severity: int = Severity.WARNING
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its secret: the only time the secret is shown."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Name the endpoint."})
    try:
        URLValidator(schemes=["http", "https"])(url)
    except ValidationError as error:
        raise ValidationError({"url": "Enter the receiver's http:// or https:// URL."}) from error
    monitors = _checked_choices(monitors, severity)
    secret = _new_secret()
    endpoint = WebhookEndpoint.objects.create(
        owner=owner, name=name[:100], url=url, monitors=monitors, severity=severity, secret=secret
    )
    endpoint.tables.set(tables)
    return endpoint, secret


def _own_endpoint(endpoint: WebhookEndpoint, by) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if endpoint.owner_id != by.pk and not by.is_superuser:
        raise PermissionDenied("Only its owner changes a webhook endpoint.")
    if not endpoint.active:
        raise TransitionRefused({"endpoint": f"Endpoint {endpoint.name} is inactive."})
    return endpoint


@transaction.atomic
def endpoint_rotate(*, endpoint: WebhookEndpoint, by) -> str:
    """A new secret (returned, shown once); the one it replaces still signs, beside it, for
    PITBOSS_WEBHOOK_SECRET_GRACE_HOURS."""
    endpoint = _own_endpoint(endpoint, by)
    now = timezone.now()
    secret = _new_secret()
    endpoint.previous_secret, endpoint.secret = endpoint.secret, secret
    endpoint.previous_valid_until = now + timedelta(hours=settings.PITBOSS_WEBHOOK_SECRET_GRACE_HOURS)
    endpoint.rotated_at = now
    endpoint.save(update_fields=["secret", "previous_secret", "previous_valid_until", "rotated_at"])
    return secret


@transaction.atomic
def endpoint_deactivate(*, endpoint: WebhookEndpoint, by) -> WebhookEndpoint:
    """Sent nothing more; its deliveries stay listed."""
    endpoint = _own_endpoint(endpoint, by)
    endpoint.active = False
    endpoint.save(update_fields=["active"])
    return endpoint


def signing_secrets(endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    """The secrets that sign a body now: the endpoint's, and its previous one in its grace period."""
    previous = (
        endpoint.previous_secret and endpoint.previous_valid_until and endpoint.previous_valid_until > now
    )
    return [endpoint.secret, endpoint.previous_secret] if previous else [endpoint.secret]


# --- deliveries ----------------------------------------------------------------------------------


def backoff(attempts: int) -> timedelta | None:
    """The wait after the `attempts`-th failure; None: given up."""
    if attempts >= ATTEMPTS:
        return None
    return timedelta(minutes=BACKOFF_MINUTES[attempts - 1])


@transaction.atomic
def delivery_retry(*, delivery: Delivery, by) -> Delivery:
    """A failed delivery sent again now (one more attempt: failing again, it is failed again)."""
    delivery = Delivery.objects.select_for_update().get(pk=delivery.pk)
    if delivery.status != DeliveryStatus.FAILED:
        status = delivery.get_status_display().lower()
        raise TransitionRefused(
            {"delivery": f"Only a failed delivery is retried by hand; this one is {status}."}
        )
    delivery.status, delivery.next_attempt_at = DeliveryStatus.RETRYING, timezone.now()
    delivery.save(update_fields=["status", "next_attempt_at"])
    _send(delivery)
    return delivery


def retries_due(now: datetime | None = None) -> list[int]:
    """Deliveries whose next attempt is due, each sent to a task again (through the outbox): those
    retrying after a failure, and those whose sending process died (their claim ran out)."""
    now = now or timezone.now()
    due = list(
        Delivery.objects.filter(
            status__in=(DeliveryStatus.PENDING, DeliveryStatus.RETRYING), next_attempt_at__lte=now
        )
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)
    )
    with transaction.atomic():
        for pk in due:
            _send(Delivery(pk=pk))
    return due
