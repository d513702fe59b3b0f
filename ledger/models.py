"""The ledger: one hash chain per kind of record (ledger.chains), each entry the SHA-256 of its source
row's content and of the entry before it; each chain's head signed at the end of each gaming day; and
the runs of `ledger_verify`. Entries are written only by ledger.services.ledger_append, never changed."""

from django.db import models


class LedgerEntry(models.Model):
    chain = models.CharField(max_length=32, help_text="The kind of record (ledger.chains).")
    sequence = models.PositiveBigIntegerField(help_text="1, 2, 3, ... within its chain.")
    source_pk = models.PositiveBigIntegerField(help_text="The primary key of the row it records.")
    source_month = models.DateField(
        help_text="The first day of the month the row belongs to (its gaming day's): where an archived "
        "row is read from, and what `ledger_verify --month` picks."
    )
    content_sha256 = models.CharField(max_length=64, help_text="SHA-256 of the row's canonical JSON.")
    previous_sha256 = models.CharField(max_length=64, help_text="The entry before it (zeros for the first).")
    entry_sha256 = models.CharField(
        max_length=64,
        help_text="SHA-256 over chain, sequence, source pk and month, content and previous (and, when "
        "adopted, that mark).",
    )
    adopted = models.BooleanField(
        default=False,
        help_text="Appended by ledger_adopt for a row written before the ledger existed, not by the "
        "transaction that wrote the row.",
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["chain", "sequence"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.UniqueConstraint(fields=["chain", "sequence"], name="ledger_entry_sequence_unique"),
            models.UniqueConstraint(fields=["chain", "source_pk"], name="ledger_entry_source_once"),
        ]

    def __str__(self) -> str:
        return f"{self.chain} #{self.sequence} (source {self.source_pk})"


class LedgerDayHead(models.Model):
    """A chain's head as of the end of a gaming day, signed (HMAC-SHA256, PITBOSS_LEDGER_KEY): a chain
    rewritten whole, every hash recomputed, no longer ends in it."""

    day = models.DateField(help_text="The gaming day whose end the head is as of.")
    chain = models.CharField(max_length=32)
    sequence = models.PositiveBigIntegerField(help_text="Its last entry by then (0: none yet).")
    entry_sha256 = models.CharField(max_length=64)
    signature = models.CharField(max_length=64, help_text="HMAC-SHA256 of day, chain, sequence and hash.")
    signed_at = models.DateTimeField()

    class Meta:
        ordering = ["-day", "chain"]
        constraints = [models.UniqueConstraint(fields=["day", "chain"], name="ledger_day_head_once")]

    def __str__(self) -> str:
        return f"{self.chain} at the end of {self.day}: #{self.sequence}"


class LedgerAdoption(models.Model):
    """One chain's rows written before the ledger existed, appended to it by one run of
    `manage.py ledger_adopt` (entries marked `adopted`): who, when, how many, which sequences."""

    chain = models.CharField(max_length=32)
    adopted_at = models.DateTimeField()
    adopted_by = models.CharField(max_length=150, help_text="The operating-system user who ran it.")
    entries = models.PositiveBigIntegerField(help_text="Entries appended (rows adopted).")
    first_sequence = models.PositiveBigIntegerField()
    last_sequence = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["-adopted_at", "chain"]

    def __str__(self) -> str:
        when = f"{self.adopted_at:%Y-%m-%d %H:%M}"
        return f"{self.chain}: {self.entries} row(s) adopted {when} by {self.adopted_by}"


class LedgerVerification(models.Model):
    """One run of the verify (manage.py ledger_verify, or the daily task), for compliance to see."""

    started_at = models.DateTimeField()
    by = models.CharField(max_length=150, help_text="Who ran it: an operating-system user, or beat.")
    chains = models.JSONField(default=list, help_text="The chains verified.")
    month = models.DateField(null=True, blank=True, help_text="Only this month's rows (empty: all).")
    clean = models.BooleanField()
    problems = models.JSONField(default=list, help_text="Each problem found, in words.")
    notes = models.JSONField(
        default=list,
        blank=True,
        help_text="What it found that is no problem, in words: entries whose rows were deleted under the "
        "archive's retention, per chain and month.",
    )
    seconds = models.FloatField()

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        outcome = "clean" if self.clean else f"{len(self.problems)} problem(s)"
        return f"Ledger verified {self.started_at:%Y-%m-%d %H:%M} by {self.by}: {outcome}"
