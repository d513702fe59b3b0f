"""Who hears of an alert, and how each message went.

- Subscription: a user's own choice of tables, monitors and the least severity, by email. A user
  without one is sent what reaches their role (each alert event's recipients, alerts.services).
- WebhookEndpoint: a receiver's URL with the same choices and a secret of its own that signs each
  body (HMAC-SHA256 over the timestamp and the body); rotated, the previous secret still signs for a
  grace period.
- Delivery: one message of one alert event (or a test) to one user or endpoint: sent once, retried
  with backoff on failure, and listed until it succeeds or is given up.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from alerts.choices import Severity
from alerts.models import AlertEvent
from tables.models import Table

from .choices import Channel, DeliveryStatus


class Choices(models.Model):
    """What a subscriber hears of: alerts at these tables (none: every table), of these monitors
    (empty: every monitor), of at least this severity."""

    tables = models.ManyToManyField(Table, blank=True, related_name="+")
    monitors = models.JSONField(default=list, blank=True)
    severity = models.PositiveSmallIntegerField(choices=Severity.choices, default=Severity.WARNING)

    class Meta:
        abstract = True


class Subscription(Choices):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_subscription"
    )
    by_email = models.BooleanField(default=True)
    email = models.EmailField(blank=True, help_text="Where to; blank: the address of the user's account.")
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Subscription of {self.user}"


class WebhookEndpoint(Choices):
    name = models.CharField(max_length=100)
    url = models.URLField(max_length=500)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    active = models.BooleanField(default=True)
    secret = models.CharField(max_length=64)
    previous_secret = models.CharField(max_length=64, blank=True)
    previous_valid_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    rotated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Delivery(models.Model):
    event = models.ForeignKey(
        AlertEvent,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deliveries",
        help_text="None: a test sent from the subscription page.",
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, null=True, blank=True, related_name="deliveries"
    )
    address = models.CharField(max_length=500, help_text="The email address or URL it went to.")
    status = models.CharField(max_length=8, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(channel=Channel.EMAIL) & Q(user__isnull=False) & Q(endpoint__isnull=True))
                | (Q(channel=Channel.WEBHOOK) & Q(endpoint__isnull=False)),
                name="delivery_to_a_user_by_email_or_an_endpoint",
            ),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.get_channel_display()} to {self.address}"
