"""Daily reports: each run of the daily job, the figures it stores for its gaming day, and its PDFs.

An issued report is a record: every run keeps its own figures and PDFs (the unique constraints below
hold one row per run and scope), with the SHA-256 of each PDF and of the run's figures. A day run
again gets a new run whose success marks the older one superseded (`superseded_by`); both stay
readable and downloadable. A day's *current* run is its latest succeeded run not superseded
(`reports.selectors`). Every figure shown in a page or a PDF is read from these rows.
"""

from decimal import Context, Decimal

from django.conf import settings
from django.db import models

from rounds.models import money_total
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


class IntervalMethod(models.TextChoices):
    """How an RTP interval was worked out (`stats.rtp_interval`)."""

    NORMAL = "normal", "Normal approximation (delta method on per-round results), never below 0"
    LOG = "log", "Log-transformed (delta method on the log of the RTP): skewed, never below 0"


class ReportRun(models.Model):
    """One run of the daily job for one gaming day: who or what started it, when, how long, outcome.
    Its figures and PDFs are its own; a newer succeeded run of the day supersedes it."""

    day = models.DateField(db_index=True, help_text="The gaming day reported on.")
    number = models.PositiveIntegerField(
        default=1, help_text="The day's first, second, ... run (numbered by `report_run_start`)."
    )
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
    figures_sha256 = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the run's stored figures (`records.figures_digest`)."
    )
    superseded_by = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="supersedes",
        help_text="The newer succeeded run of the same day that replaced this one as the day's report.",
    )
    superseded_at = models.DateTimeField(null=True, blank=True)
    figures_only = models.BooleanField(
        default=False,
        help_text="The run stores its figures and nothing else: no charts, no PDFs (the earlier days "
        "`make demo` plays, for the trend of the day it reports).",
    )
    reason = models.TextField(
        blank=True, help_text="Why the day was run again; required once a run of the day is signed."
    )

    class Meta:
        ordering = ["-started_at", "-id"]
        permissions = [
            ("run_report", "Can start the daily report job for a day"),
            ("sign_reportrun", "Can sign a day's report run off"),
        ]

    def __str__(self) -> str:
        return f"Daily run {self.pk} for {self.day}"

    @property
    def is_current(self) -> bool:
        return self.status == RunStatus.SUCCEEDED and self.superseded_by_id is None

    @property
    def seconds(self) -> float | None:
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()


PERCENT_PLACES = Decimal("0.0001")
PERCENT_READING = Context(prec=100)  # quantizes any RTP the columns can hold


class PercentField(models.DecimalField):
    """An RTP or an end of its interval, in percent to 4 places (reports.stats.rtp), as large as the
    day makes it (an unconstrained NUMERIC, core.money): a Pair bet of 0.01 reported returning
    10,000.00 is an observed RTP of 100,000,000 %, which the report must still hold and flag.

    Read back at its 4 places: SQLite, which keeps a decimal as a float, gives an unconstrained one
    as 15 significant digits (99.5169000000000) that would otherwise reach the pages as such."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else PERCENT_READING.quantize(Decimal(value), PERCENT_PLACES)


def percent(**options) -> PercentField:
    return PercentField(null=True, **options)


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
    wagered = money_total("wagered (handle)")
    returned = money_total(help_text="Returned as settled, with approved adjustments.")
    gross_gaming_revenue = money_total()
    observed_rtp = percent()
    theoretical_rtp = percent()
    ci95_low = percent()
    ci95_high = percent()
    ci99_low = percent()
    ci99_high = percent()
    outside_99 = models.BooleanField(
        default=False, help_text="The theoretical RTP lies outside the 99% interval of the observed."
    )
    interval_method = models.CharField(
        max_length=8, choices=IntervalMethod.choices, default=IntervalMethod.NORMAL
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
                fields=["run", "day", "game", "currency", "table_code", "kind"],
                name="daily_figures_once_per_run",
            )
        ]
        indexes = [models.Index(fields=["day", "kind"])]

    def __str__(self) -> str:
        return f"{self.day} {self.table_code or self.game + ' total'} {self.kind}"

    @property
    def difference(self):
        if self.observed_rtp is None or self.theoretical_rtp is None:
            return None
        return self.observed_rtp - self.theoretical_rtp


class DailyTableSummary(models.Model):
    """What else a table's gaming day holds that compliance must see: its rounds by outcome
    (`rounds.outcome`), the money of refunds and voids, findings counted apart by what they are about
    (limits, money, the rest; and by code), and the RTP flag."""

    day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=16)
    currency = models.CharField(max_length=3)
    rounds = models.PositiveIntegerField()
    cancelled_rounds = models.PositiveIntegerField(
        help_text="Cancelled by the game server or in an incident (rounds.outcome)."
    )
    voided_rounds = models.PositiveIntegerField(default=0)
    resettled_rounds = models.PositiveIntegerField(default=0, help_text="With an approved re-settlement.")
    resettlements = models.PositiveIntegerField(help_text="Re-settlements proposed, whatever their status.")
    refunds = models.PositiveIntegerField(default=0, help_text="Bets refunded.")
    refunded = money_total(default=0, help_text="What the refunds returned.")
    voided_reversed = money_total(default=0, help_text="Payouts taken back by approved voids.")
    voided_stakes_returned = money_total(default=0, help_text="Stakes given back by approved voids.")
    findings = models.PositiveIntegerField(help_text="Every finding.")
    limit_findings = models.PositiveIntegerField(default=0, help_text="limit_breached, seat_not_allowed.")
    money_findings = models.PositiveIntegerField(
        default=0, help_text="Amounts differing from the engine's: wrong_wagered, wrong_returned, ..."
    )
    finding_codes = models.JSONField(default=dict, help_text="{code: count}")
    configuration_versions = models.CharField(
        max_length=64, help_text='The versions in force, "1" or "1, 2".'
    )
    kinds_outside_99 = models.PositiveIntegerField(default=0)
    flagged = models.BooleanField(
        default=False, help_text="RTP: a bet kind's theoretical RTP lies outside its 99% interval."
    )
    beyond_paytable = models.PositiveIntegerField(
        default=0,
        help_text="Bets reported returning more than the best outcome of their kind pays on what they "
        "wagered (reports.beyond_paytable): counted in the figures as reported, and flagged.",
    )
    beyond_paytable_bets = models.JSONField(
        default=list,
        help_text='The first of them: [{"bet", "round", "kind", "wagered", "returned", "most"}]',
    )
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["day", "table__code"]
        constraints = [
            models.UniqueConstraint(fields=["run", "day", "table"], name="daily_table_summary_once_per_run")
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.table.code}"

    @property
    def beyond_paytable_unnamed(self) -> int:
        """Payouts beyond the paytable counted but not named (beyond_paytable_bets keeps the first)."""
        return self.beyond_paytable - len(self.beyond_paytable_bets)


class DailyExposure(models.Model):
    """One side option at one table on one gaming day: what was staked and returned, and what it
    could have cost had every stake hit the top pattern."""

    day = models.DateField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=16)
    currency = models.CharField(max_length=3)
    kind = models.CharField(max_length=24)
    bets = models.PositiveIntegerField()
    stakes = money_total()
    returned = money_total()
    observed_rtp = percent()
    theoretical_rtp = percent()
    liability_total = money_total(help_text="Every stake paid at the top pattern's odds (winnings only).")
    peak_round_id = models.CharField(max_length=64, blank=True)
    peak_liability = money_total(default=0)
    top_players = models.JSONField(
        default=list, help_text='[{"player": id, "bets": n, "stakes": "x", "liability": "y"}], largest first'
    )
    pattern_hits = models.JSONField(
        default=list,
        help_text='[{"pattern": p, "hits": n, "expected": x, "p_value": y}] against the exact odds',
    )
    after_max_round_bets = models.PositiveIntegerField(default=0)
    after_max_round_stakes = money_total(default=0)
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["day", "table__code", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "day", "table", "kind"], name="daily_exposure_once_per_run"
            )
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.table.code} {self.kind}"


class ReportSignOff(models.Model):
    """Compliance's sign-off of a day's run: who, when, what they concluded. Never withdrawn nor
    edited: no service, page or API does either, and the run cannot be deleted under it."""

    run = models.OneToOneField(ReportRun, on_delete=models.PROTECT, related_name="sign_off")
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()
    comment = models.TextField()

    def __str__(self) -> str:
        return f"Sign-off of run {self.run_id}"


class ReportKind(models.TextChoices):
    DAILY_RTP = "daily_rtp", "Daily RTP report"
    EXPOSURE = "exposure", "Side-option exposure report"


class ReportDocument(models.Model):
    """A report's PDF made by one run: a file of its own (the run is in its name), never rewritten once
    the run has ended, with its SHA-256. A signed run has a second edition of each, `signed`: a new
    file, made after the sign-off, whose cover carries it."""

    day = models.DateField()
    kind = models.CharField(max_length=16, choices=ReportKind.choices)
    path = models.CharField(max_length=255, help_text="Under settings.PITBOSS_REPORTS_DIR.")
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    pages = models.PositiveIntegerField(default=0)
    generated_at = models.DateTimeField()
    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="documents")
    signed = models.BooleanField(default=False, help_text="The edition made after the run's sign-off.")

    class Meta:
        ordering = ["-day", "kind", "signed"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "kind", "signed"], name="report_document_once_per_run_and_edition"
            )
        ]

    def __str__(self) -> str:
        edition = ", signed" if self.signed else ""
        return f"{self.get_kind_display()} {self.day} (run {self.run_id}{edition})"


class ChartSubject(models.TextChoices):
    TREND = "trend", "RTP trend of a bet kind at a table"
    HITS = "hits", "Hits per pattern of a side option against expected"


# The gaming days up to a run's that its trend charts cover: the pages offer each, the PDF the first.
TREND_WINDOWS = (30, 90)


class ReportChart(models.Model):
    """A chart one run of the daily job drew (reports.run_charts) and keeps: the pages serve its SVG
    as it is and the PDFs embed the same, so no request draws one. A run's charts never change. A
    chart with nothing to draw (a trend of one day, an option without patterns) keeps a message
    instead of an SVG."""

    run = models.ForeignKey(ReportRun, on_delete=models.PROTECT, related_name="charts")
    subject = models.CharField(max_length=8, choices=ChartSubject.choices)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=24)
    window_days = models.PositiveSmallIntegerField(
        help_text="A trend: the gaming days up to the run's it covers (TREND_WINDOWS). Hits: 1, the day."
    )
    days = models.PositiveSmallIntegerField(help_text="The days of the window with figures: its history.")
    position = models.PositiveSmallIntegerField(
        help_text="Its place among the run's charts of its subject and window: by table, then bet kind."
    )
    title = models.CharField(max_length=200)
    description = models.TextField(help_text="What the chart shows, in words: the image's alternative text.")
    message = models.CharField(
        max_length=200, blank=True, help_text="Why nothing is drawn; empty when there is an SVG."
    )
    svg = models.TextField(blank=True)
    width = models.PositiveSmallIntegerField(default=0, help_text="In CSS pixels, as the page shows it.")
    height = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["run", "subject", "window_days", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "subject", "window_days", "table", "kind"], name="report_chart_once_per_run"
            )
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def drawn(self) -> bool:
        return not self.message
