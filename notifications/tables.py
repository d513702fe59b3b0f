"""The notifications' lists as django-tables2 tables: webhook endpoints and deliveries."""

import django_tables2 as tables

from alerts.choices import Monitor, Severity
from core.listing import BadgeColumn, CellColumn, LocalTimeColumn

from .models import Delivery, WebhookEndpoint

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}
TEST = "Test"


def monitor_label(monitor: str) -> str:
    return dict(Monitor.choices).get(monitor, monitor)


def choices_summary(chosen) -> str:
    """A subscription's or an endpoint's choices in a line: "DLX1, CLS1 · RTP drift · critical only".
    Its tables must be prefetched or saved (an unsaved one has none)."""
    codes = sorted(table.code for table in chosen.tables.all()) if chosen.pk else []
    monitors = [monitor_label(monitor) for monitor in chosen.monitors]
    severity = "critical only" if chosen.severity >= Severity.CRITICAL else "warnings and critical"
    return " · ".join([", ".join(codes) or "every table", ", ".join(monitors) or "every monitor", severity])


class ActiveColumn(BadgeColumn):
    """An endpoint's state as a badge: Active, or Inactive (deactivated)."""

    def stored_value(self, record, bound_column):
        return "active" if record.active else "past"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["label"] = "Active" if kwargs["record"].active else "Inactive"
        return context

    def value(self, value):
        return "Active" if value else "Inactive"


class EndpointTable(tables.Table):
    name = tables.Column(linkify=("notifications:webhook_detail", [tables.A("pk")]))
    url = tables.Column("URL", attrs={"td": {"class": "code webhook-url"}})
    owner = tables.Column(order_by="owner__username")
    choices = tables.Column(
        "Sends", accessor="pk", orderable=False, attrs={"td": {"class": "reason webhook-sends"}}
    )
    active = ActiveColumn("State", order_by=("-active", "name"))
    created_at = LocalTimeColumn("Created")
    rotated_at = LocalTimeColumn("Secret rotated", default="—")
    # Rotate and deactivate: buttons submitting the page's one action form (no markup in exports).
    manage = CellColumn(
        "",
        accessor="pk",
        template_name="notifications/cells/webhook_actions.html",
        orderable=False,
        exclude_from_export=True,
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["name", "url", "owner", "choices", "active", "created_at", "rotated_at"]
        sequence = [*fields, "manage"]
        order_by = "name"
        empty_text = "No webhook endpoint matches."

    def render_choices(self, record):
        return choices_summary(record)

    def value_choices(self, record):
        return choices_summary(record)


class DeliveryTable(tables.Table):
    created_at = LocalTimeColumn("When")
    alert = tables.Column(
        accessor="event__alert_id",
        verbose_name="Alert",
        order_by="event__alert_id",
        default=TEST,
        linkify=("alerts:alert_detail", [tables.A("event__alert_id")]),
    )
    event = tables.Column(accessor="event__kind", verbose_name="Event", order_by="event__kind", default="—")
    channel = tables.Column()
    address = tables.Column("To", attrs={"td": {"class": "code delivery-address"}})
    status = BadgeColumn()
    attempts = tables.Column(attrs=NUMBER)
    last_error = tables.Column(default="—", attrs={"td": {"class": "reason"}})
    next_attempt_at = LocalTimeColumn("Next attempt", default="—")
    sent_at = LocalTimeColumn("Sent", default="—")
    # The "Retry" button of a failed delivery: it submits the page's one retry form.
    retry = CellColumn(
        "",
        accessor="pk",
        template_name="notifications/cells/delivery_retry.html",
        orderable=False,
        exclude_from_export=True,
    )

    class Meta:
        model = Delivery
        fields = ["created_at", "alert", "event", "channel", "address", "status", "attempts", "last_error"]
        sequence = [*fields, "next_attempt_at", "sent_at", "retry"]
        order_by = "-created_at"
        empty_text = "No delivery matches."

    def render_event(self, record):
        return record.event.get_kind_display()

    def value_event(self, record):
        return record.event.get_kind_display()
