"""What the archive knows of each month of each casino table's rounds: where its export is, what it
holds (the manifest), and how far it got: exported, verified against the database, dropped."""

from django.db import models

from tables.models import Table


class ArchiveStatus(models.TextChoices):
    EXPORTING = "exporting", "Exporting"  # still so after the process ended: interrupted
    EXPORTED = "exported", "Exported"
    VERIFIED = "verified", "Verified"
    DROPPED = "dropped", "Dropped"  # the month's partitions are gone: the archive is the only copy
    FAILED = "failed", "Failed"


class ArchivedMonth(models.Model):
    """One month (of the gaming day) of one casino table's rounds in the archive."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    month = models.DateField(help_text="The first day of the month.")
    status = models.CharField(max_length=16, choices=ArchiveStatus.choices, default=ArchiveStatus.EXPORTING)
    archive_url = models.CharField(
        max_length=1000,
        blank=True,
        help_text="The archive the month was exported to (PITBOSS_ARCHIVE_URL then): a directory or "
        "s3://bucket/prefix. The month's files are under <table code>/<YYYY-MM>/ there.",
    )
    manifest = models.JSONField(
        null=True, blank=True, help_text="The export's manifest.json: files, row counts, checksums, sums."
    )
    error = models.TextField(blank=True, help_text="Why the last export, verification or drop failed.")
    export_started_at = models.DateTimeField(null=True, blank=True)
    exported_at = models.DateTimeField(null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    dropped_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["month", "table"]
        constraints = [models.UniqueConstraint(fields=["table", "month"], name="archived_month_once")]

    def __str__(self) -> str:
        return f"{self.table.code} {self.month:%Y-%m}: {self.get_status_display().lower()}"
