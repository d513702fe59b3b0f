"""Alerts as records: what a monitor found, who saw and owned it, how it ended.

- Alert: one unresolved alert per table, monitor and subject (the bet kind for RTP drift, the dealer
  for dealer findings, else ""): a repeat adds to it (occurrences, last seen, the latest figures, a
  severity that only rises). Not acknowledged by `escalate_at`, it escalates (services.escalate_due).
- AlertEvent: its timeline (raised, worsened, escalated with its recipients, acknowledged, claimed,
  resolved, marked reportable).
- Silence: a table's alerts (all monitors, or one) silenced for known maintenance: while it lasts the
  monitors raise none for it, and an unresolved one does not escalate.
- Threshold: each change of a monitor's threshold, for a game or a table, with who and why; one
  that makes the monitor less sensitive waits for compliance.
- ReportableFault: a confirmed game fault as a regulator's key-event report needs it.
- DriftState, MonitorCursor: where the monitors left off (the CUSUM values, the last round read).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from core.money import TOTAL_DIGITS
from tables.choices import Currency, Game
from tables.models import Table

from .choices import AlertEventKind, AlertStatus, Monitor, ResolutionLink, Severity, ThresholdStatus

SUBJECT_LENGTH = 64


def user_link(**kwargs) -> models.ForeignKey:
    return models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", **kwargs)


class Alert(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="alerts")
    monitor = models.CharField(max_length=24, choices=Monitor.choices)
    subject = models.CharField(max_length=SUBJECT_LENGTH, blank=True, default="")
    status = models.CharField(max_length=16, choices=AlertStatus.choices, default=AlertStatus.OPEN)
    severity = models.PositiveSmallIntegerField(choices=Severity.choices)
    summary = models.CharField(max_length=300, help_text="The latest occurrence, in words.")
    measure = models.DecimalField(max_digits=20, decimal_places=4, help_text="The latest measure.")
    threshold = models.DecimalField(max_digits=20, decimal_places=4, help_text="The threshold it crossed.")
    figures = models.JSONField(default=dict, blank=True, help_text="The latest occurrence's figures.")
    occurrences = models.PositiveIntegerField(default=1)
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()
    escalate_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = user_link(null=True, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    claimed_by = user_link(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    resolved_by = user_link(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_note = models.TextField(blank=True)
    resolution_link = models.CharField(max_length=16, choices=ResolutionLink.choices, blank=True)
    resolution_ref = models.CharField(max_length=64, blank=True, help_text="The linked record's id.")

    class Meta:
        ordering = ["-last_seen", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "monitor", "subject"],
                condition=~Q(status=AlertStatus.RESOLVED),
                name="one_unresolved_alert_per_table_monitor_subject",
            ),
            models.CheckConstraint(
                condition=Q(status=AlertStatus.OPEN) | Q(acknowledged_at__isnull=False),
                name="alert_acknowledged_when_not_open",
            ),
            models.CheckConstraint(
                condition=~Q(status=AlertStatus.RESOLVED)
                | (Q(resolved_at__isnull=False) & ~Q(resolution_note="")),
                name="alert_resolved_with_a_note",
            ),
        ]
        indexes = [models.Index(fields=["status", "escalate_at"])]

    def __str__(self) -> str:
        return f"Alert {self.pk}: {self.get_monitor_display()} at {self.table.code}"


class AlertEvent(models.Model):
    alert = models.ForeignKey(Alert, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=16, choices=AlertEventKind.choices)
    at = models.DateTimeField()
    by = user_link(null=True, blank=True)  # None: the monitors
    note = models.TextField(blank=True)
    recipients = models.JSONField(default=list, blank=True, help_text="Whom it went to (usernames).")

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.at:%Y-%m-%d %H:%M}"


class Silence(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="silences")
    monitor = models.CharField(max_length=24, choices=Monitor.choices, blank=True, help_text="Blank: all.")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    reason = models.TextField()
    created_by = user_link()
    created_at = models.DateTimeField(auto_now_add=True)
    ended_by = user_link(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True, help_text="Ended before its time.")

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="silence_ends_after_start"),
        ]

    def __str__(self) -> str:
        return f"Silence of {self.table.code} until {self.ends_at:%Y-%m-%d %H:%M}"


class Threshold(models.Model):
    """A monitor's threshold for every table of a game (`table` None) or for one table."""

    monitor = models.CharField(max_length=24, choices=Monitor.choices)
    game = models.CharField(max_length=16, choices=Game.choices, blank=True)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    value = models.DecimalField(max_digits=14, decimal_places=2)
    previous = models.DecimalField(
        max_digits=14, decimal_places=2, help_text="What was in force for the scope when proposed."
    )
    reason = models.TextField()
    status = models.CharField(max_length=16, choices=ThresholdStatus.choices)
    proposed_by = user_link()
    proposed_at = models.DateTimeField()
    decided_by = user_link(null=True, blank=True)
    decided_at = models.DateTimeField(
        null=True, blank=True, help_text="When it came into force or was refused."
    )
    decision_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-proposed_at", "-id"]
        permissions = [("approve_threshold", "Can approve a less sensitive monitor threshold")]
        constraints = [
            models.CheckConstraint(
                condition=(Q(table__isnull=True) & ~Q(game="")) | (Q(table__isnull=False) & Q(game="")),
                name="threshold_for_a_game_or_a_table",
            ),
            models.CheckConstraint(condition=Q(value__gt=0), name="threshold_positive"),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=F("proposed_by")),
                name="threshold_decided_by_another",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_monitor_display()} {self.value} for {self.table or self.get_game_display()}"


class ReportableFault(models.Model):
    """What a regulator's key-event report needs of a confirmed game fault."""

    alert = models.OneToOneField(Alert, on_delete=models.PROTECT, related_name="fault")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=16, choices=Game.choices)
    what_happened = models.TextField()
    found_at = models.DateTimeField()
    affected_from = models.DateTimeField()
    affected_to = models.DateTimeField()
    rounds = models.PositiveIntegerField()
    players = models.PositiveIntegerField()
    wagered = models.DecimalField(max_digits=TOTAL_DIGITS, decimal_places=2)
    returned = models.DecimalField(max_digits=TOTAL_DIGITS, decimal_places=2)
    currency = models.CharField(max_length=3, choices=Currency.choices)
    marked_by = user_link()
    marked_at = models.DateTimeField()

    class Meta:
        ordering = ["-marked_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(affected_to__gte=F("affected_from")), name="fault_period_forwards"
            ),
        ]

    def __str__(self) -> str:
        return f"Reportable fault {self.pk} at {self.table.code}"

    @property
    def net(self):
        """The house's result over the affected rounds (wagered − returned)."""
        return self.wagered - self.returned


class DriftState(models.Model):
    """The RTP drift monitor's CUSUM of one table and bet kind, and the spread it standardises by."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=24)
    rounds = models.PositiveIntegerField(default=0)
    # ΣS and Σe of the rounds' original stakes S and residuals e = R − W − (μ0 − 1)·S
    # (drift.round_residual): how far the kind's RTP is from theory, Σe/ΣS; and Σ(e/S)², the spread
    # of the per-stake residual the CUSUM standardises by.
    stakes = models.FloatField(default=0)
    deviation_sum = models.FloatField(default=0)
    deviation_squares = models.FloatField(default=0)
    high = models.FloatField(default=0)
    low = models.FloatField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "kind"], name="one_drift_state_per_kind")]

    def __str__(self) -> str:
        return f"{self.table_id} {self.kind}: {self.rounds} rounds"


class MonitorCursor(models.Model):
    """The last round the round-reading monitors (RTP drift, wins, ingest lag) have read, by `name`."""

    name = models.CharField(max_length=32, primary_key=True)
    round_pk = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name}: round {self.round_pk}"
