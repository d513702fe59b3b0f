"""Daily reports: each run of the daily job, the figures it stores per gaming day, and its PDFs.

A gaming day's figures are replaced as a whole when the day is run again (never duplicated): the
unique constraints below hold one row per day and scope. Every figure shown in a page or a PDF is
read from these rows; they are computed in the database by aggregate queries over the day's bets.
"""

from django.conf import settings
from django.db import models

from rounds.models import money
from tables.models import Table


class RunTrigger(models.TextChoices):
    BEAT = "beat", "Celery beat (after the gaming day closed)"
    PORTAL = "portal", "Portal"
    API = "api", "API"
    COMMAND = "command", "manage.py report"
    DEMO = "demo", "make demo"


class RunStatus(models.TextChoices):
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


class ReportRun(models.Model):
    """One run of the daily job for one gaming day: who or what started it, when, how long, outcome."""

    day = models.DateField(db_index=True, help_text="The gaming day reported on.")
    trigger = models.CharField(max_length=16, choices=RunTrigger.choices)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.RUNNING)
    error = models.TextField(blank=True)
    time_zone = models.CharField(max_length=64, help_text="The gaming day's time zone when run.")
    cutoff = models.TimeField(help_text="The gaming day's cut-off when run.")
    tables = models.PositiveIntegerField(default=0, help_text="Tables the job fanned out to.")

    class Meta:
        ordering = ["-started_at", "-id"]
        permissions = [("run_report", "Can start the daily report job for a day")]

    def __str__(self) -> str:
        return f"Daily run {self.pk} for {self.day}"

    @property
    def seconds(self) -> float | None:
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()


class DailyFigures(models.Model):
    """Observed against theoretical RTP of one bet kind on one gaming day: for a table, or the
    total of a game in one currency (`table` null, `table_code` "")."""

    day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    table_code = models.CharField(max_length=16, blank=True, help_text='"" for a total of the game.')
    game = models.CharField(max_length=16)
    currency = models.CharField(max_length=3)
    kind = models.CharField(max_length=24)
    rounds = models.PositiveIntegerField()
    bets = models.PositiveIntegerField()
    players = models.PositiveIntegerField()
    wagered = money("wagered (handle)")
    returned = money(help_text="Returned as settled, with approved adjustments.")
    gross_gaming_revenue = money()
    observed_rtp = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    theoretical_rtp = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    ci95_low = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    ci95_high = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    ci99_low = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    ci99_high = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    outside_99 = models.BooleanField(
        default=False, help_text="The theoretical RTP lies outside the 99% interval of the observed."
    )
    moments = models.JSONField(
        default=dict,
        help_text="The per-round sums the intervals come from, and Σ handle × theoretical RTP: a "
        "game's totals add its tables' up.",
    )
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["day", "game", "currency", "table_code", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["day", "game", "currency", "table_code", "kind"], name="daily_figures_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.table_code or self.game + ' total'} {self.kind}"

    @property
    def difference(self):
        if self.observed_rtp is None or self.theoretical_rtp is None:
            return None
        return self.observed_rtp - self.theoretical_rtp


class DailyTableSummary(models.Model):
    """What else a table's gaming day holds that compliance must see: cancelled rounds,
    re-settlements and findings (counts by code)."""

    day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=16)
    currency = models.CharField(max_length=3)
    rounds = models.PositiveIntegerField()
    cancelled_rounds = models.PositiveIntegerField()
    resettlements = models.PositiveIntegerField()
    findings = models.PositiveIntegerField()
    finding_codes = models.JSONField(default=dict, help_text="{code: count}")
    configuration_versions = models.CharField(
        max_length=64, help_text='The versions in force, "1" or "1, 2".'
    )
    flagged = models.BooleanField(default=False)
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["day", "table__code"]
        constraints = [models.UniqueConstraint(fields=["day", "table"], name="daily_table_summary_once")]

    def __str__(self) -> str:
        return f"{self.day} {self.table.code}"


class DailyExposure(models.Model):
    """One side option at one table on one gaming day: what was staked and returned, and what it
    could have cost had every stake hit the top pattern."""

    day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=16)
    currency = models.CharField(max_length=3)
    kind = models.CharField(max_length=24)
    bets = models.PositiveIntegerField()
    stakes = money()
    returned = money()
    observed_rtp = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    theoretical_rtp = models.DecimalField(max_digits=9, decimal_places=4, null=True)
    liability_total = money(help_text="Every stake paid at the top pattern's odds (winnings only).")
    peak_round_id = models.CharField(max_length=64, blank=True)
    peak_liability = money(default=0)
    top_players = models.JSONField(
        default=list, help_text='[{"player": id, "bets": n, "stakes": "x", "liability": "y"}], largest first'
    )
    pattern_hits = models.JSONField(
        default=list,
        help_text='[{"pattern": p, "hits": n, "expected": x, "p_value": y}] against the exact odds',
    )
    after_max_round_bets = models.PositiveIntegerField(default=0)
    after_max_round_stakes = money(default=0)
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["day", "table__code", "kind"]
        constraints = [models.UniqueConstraint(fields=["day", "table", "kind"], name="daily_exposure_once")]

    def __str__(self) -> str:
        return f"{self.day} {self.table.code} {self.kind}"


class ReportKind(models.TextChoices):
    DAILY_RTP = "daily_rtp", "Daily RTP report"
    EXPOSURE = "exposure", "Side-option exposure report"


class ReportDocument(models.Model):
    """A report's PDF for one gaming day; a re-run replaces the file and this row."""

    day = models.DateField()
    kind = models.CharField(max_length=16, choices=ReportKind.choices)
    path = models.CharField(max_length=255, help_text="Under settings.PITBOSS_REPORTS_DIR.")
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    pages = models.PositiveIntegerField(default=0)
    generated_at = models.DateTimeField()
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="documents")

    class Meta:
        ordering = ["-day", "kind"]
        constraints = [models.UniqueConstraint(fields=["day", "kind"], name="report_document_once")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.day}"
