from django.db import models


class Monitor(models.TextChoices):
    RTP_DRIFT = "rtp_drift", "RTP drift"
    CANCELLATIONS = "cancellations", "Cancellation spike"
    DEALER_FINDINGS = "dealer_findings", "Dealer findings"
    BIG_WIN = "big_win", "Win above amount"
    SILENT_TABLE = "silent_table", "Open but silent"
    INGEST_BEHIND = "ingest_behind", "Ingest behind"


class Severity(models.IntegerChoices):
    """WARNING goes to the monitor's own role; CRITICAL to supervisors and compliance both."""

    WARNING = 1, "Warning"
    CRITICAL = 2, "Critical"


class AlertStatus(models.TextChoices):
    OPEN = "open", "Open"
    ACKNOWLEDGED = "acknowledged", "Acknowledged"
    RESOLVED = "resolved", "Resolved"


UNRESOLVED = (AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED)


class AlertEventKind(models.TextChoices):
    RAISED = "raised", "Raised"
    WORSENED = "worsened", "Severity raised"
    ESCALATED = "escalated", "Escalated"
    ACKNOWLEDGED = "acknowledged", "Acknowledged"
    CLAIMED = "claimed", "Claimed"
    RESOLVED = "resolved", "Resolved"
    REPORTABLE = "reportable", "Marked reportable"


class ResolutionLink(models.TextChoices):
    """What a resolved alert points to: the record of what was done about it."""

    INCIDENT = "incident", "Incident"
    RESETTLEMENT = "resettlement", "Re-settlement"
    VOID = "void", "Void"
    CONFIGURATION = "configuration", "Configuration change"
    NONE = "none", "None (a note only)"


class ThresholdStatus(models.TextChoices):
    PENDING = "pending", "Awaiting compliance"
    IN_FORCE = "in_force", "In force"
    REJECTED = "rejected", "Rejected"
