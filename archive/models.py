"""What the archive knows of each month of each casino table's rounds: where its export is, what it
holds (the manifest), and how far it got: exported, verified against the database, dropped; and
restored, when a month comes back into the database."""

from django.db import models
from django.utils import timezone

from core.money import TOTAL_DIGITS
from tables.models import Table


class ArchiveStatus(models.TextChoices):
    EXPORTING = "exporting", "Exporting"  # still so after the process ended: interrupted
    EXPORTED = "exported", "Exported"
    VERIFIED = "verified", "Verified"
    DROPPED = "dropped", "Dropped"  # the month's partitions are gone: the archive is the only copy
    FAILED = "failed", "Failed"
    # Read back into re-created partitions (archive_restore): in the database again, and archived
    # again by the next archive_months like any month past the hot window.
    RESTORED = "restored", "Restored"
    # Its files deleted under retention (archive_retention, an ArchiveDeletion records it): the month's
    # rounds are gone, but for their ids in the registry (rounds.registry) and the month's manifest here.
    DELETED = "deleted", "Deleted"


def month_location(archive_url: str, table_code: str, month) -> str:
    """Where a month's files are in the archive: <archive>/<table code>/<YYYY-MM> (as
    archive.storage.ArchiveLocation.month_dir lays them out)."""
    return f"{archive_url}/{table_code}/{month:%Y-%m}"


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
    restored_at = models.DateTimeField(
        null=True, blank=True, help_text="When the month was last read back into the database."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["month", "table"]
        constraints = [models.UniqueConstraint(fields=["table", "month"], name="archived_month_once")]

    def __str__(self) -> str:
        return f"{self.table.code} {self.month:%Y-%m}: {self.get_status_display().lower()}"

    @property
    def location(self) -> str:
        return month_location(self.archive_url, self.table.code, self.month)


class ArchiveDeletion(models.Model):
    """One month of one casino table's archive deleted under retention (manage.py archive_retention):
    what its manifest said it held, where it was, when, by whom and why. Never changed nor deleted."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    month = models.DateField(help_text="The first day of the month.")
    archive_url = models.CharField(
        max_length=1000, help_text="The archive the month's files were deleted from (their directory's root)."
    )
    rounds = models.PositiveBigIntegerField()
    bets = models.PositiveBigIntegerField()
    wagered = models.DecimalField(max_digits=TOTAL_DIGITS, decimal_places=2)
    returned = models.DecimalField(max_digits=TOTAL_DIGITS, decimal_places=2)
    adjustments = models.DecimalField(max_digits=TOTAL_DIGITS, decimal_places=2)
    refunds = models.DecimalField(max_digits=TOTAL_DIGITS, decimal_places=2)
    files = models.PositiveIntegerField(help_text="The Parquet files the manifest named (not counting it).")
    bytes = models.PositiveBigIntegerField(help_text="The Parquet files' size, as the manifest gave it.")
    retention_years = models.PositiveSmallIntegerField(help_text="PITBOSS_ARCHIVE_RETENTION_YEARS then.")
    deleted_at = models.DateTimeField(default=timezone.now)
    deleted_by = models.CharField(max_length=150, help_text="The operating-system user who ran the command.")
    reason = models.TextField(blank=True, help_text="As given to archive_retention --reason.")

    class Meta:
        ordering = ["-deleted_at", "month", "table"]

    def __str__(self) -> str:
        return (
            f"{self.table.code} {self.month:%Y-%m}: deleted {self.deleted_at:%Y-%m-%d} by {self.deleted_by}"
        )

    @property
    def location(self) -> str:
        return month_location(self.archive_url, self.table.code, self.month)
