"""Tables, their versioned rule configurations, and the game availability log."""

from datetime import datetime
from decimal import Decimal
from functools import cached_property

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Now
from django.utils import timezone
from simple_history.models import HistoricalRecords

from blackjack.odds import METHOD_VERSION
from blackjack.rules import BET_KINDS, DEALER_WORDS, RuleSet, kind_label

from .choices import ConfigurationStatus, Currency, Game, TableStatus

table_code_validator = RegexValidator(
    r"^[A-Z0-9]{2,16}$", "A table code is 2 to 16 capital letters and digits, such as DLX1."
)


class Table(models.Model):
    code = models.CharField(max_length=16, unique=True, validators=[table_code_validator])
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=16, choices=Game.choices)
    currency = models.CharField(max_length=3, choices=Currency.choices)
    studio = models.CharField(max_length=100)
    dealer = models.CharField("dealer on duty", max_length=100, blank=True)
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.CLOSED)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["status"])

    class Meta:
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(condition=models.Q(game__in=Game.values), name="table_game_known"),
            models.CheckConstraint(
                condition=models.Q(status__in=TableStatus.values), name="table_status_known"
            ),
        ]

    def __str__(self) -> str:
        return self.code

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("tables:table_detail", args=[self.code])

    @property
    def dealer_word(self) -> str:
        """The word of the game's rule sheet for who deals ("facilitator" or "dealer"), for pages."""
        return DEALER_WORDS[self.game]


class TableConfigurationQuerySet(models.QuerySet):
    def approved(self):
        """Versions a second supervisor approved (and those stored before change control)."""
        return self.filter(status=ConfigurationStatus.APPROVED)

    def in_force(self, at: datetime | None = None):
        """Approved versions started by `at` (default: now): each table's latest of them is the one
        in force. A proposed or rejected version never is, whatever its `valid_from`."""
        return self.approved().filter(valid_from__lte=Now() if at is None else at)


class TableConfiguration(models.Model):
    """One version of a table's rules, in force from `valid_from` until the next approved version.

    Versions are never edited: a change is a new version, proposed by one supervisor (`created_by`)
    and approved or rejected by another (`decided_by`). Only an approved version is ever in force:
    `valid_from` is then fixed at the time asked for (`requested_from`), or at approval if that is
    later. Rounds are checked against the version in force when they were played.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="configurations")
    version = models.PositiveIntegerField()
    valid_from = models.DateTimeField(
        help_text="When it is (or, while proposed, would be) in force from; fixed at approval."
    )
    rules = models.JSONField(help_text="The engine's RuleSet in its stored form.")
    reason = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="proposed by"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(
        max_length=8, choices=ConfigurationStatus.choices, default=ConfigurationStatus.PROPOSED
    )
    requested_from = models.DateTimeField(
        null=True, blank=True, help_text="The start the proposer asked for; empty: as soon as approved."
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_comment = models.TextField(blank=True)
    # The guardrail (tables.guardrail): a version that takes a bet kind's maximum RTP below the floor, or
    # down by more than a point, is explained by its proposer and approved by compliance too.
    rtp_fall_reason = models.TextField(
        "why the RTP falls",
        blank=True,
        help_text="The proposer's reason for taking an RTP below the floor or down by more than a point.",
    )
    needs_compliance = models.BooleanField(
        default=False,
        help_text="It crossed the guardrail when decided: a compliance officer approved it as well.",
    )
    compliance_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    compliance_approved_at = models.DateTimeField(null=True, blank=True)
    compliance_comment = models.TextField(blank=True)

    objects = TableConfigurationQuerySet.as_manager()

    class Meta:
        ordering = ["table", "-version"]
        permissions = [
            ("decide_tableconfiguration", "Can approve or reject a configuration change"),
            ("approve_rtp_fall", "Can approve a configuration change past the RTP guardrail"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="configuration_version_unique"),
            models.UniqueConstraint(
                fields=["table", "valid_from"],
                condition=models.Q(status=ConfigurationStatus.APPROVED),
                name="configuration_valid_from_unique",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status=ConfigurationStatus.PROPOSED),
                name="configuration_one_open_proposal",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=ConfigurationStatus.values), name="configuration_status_known"
            ),
            models.CheckConstraint(
                condition=~models.Q(status=ConfigurationStatus.PROPOSED)
                | models.Q(decided_by__isnull=True, decided_at__isnull=True),
                name="configuration_proposal_undecided",
            ),
            models.CheckConstraint(
                condition=~models.Q(status=ConfigurationStatus.REJECTED) | models.Q(decided_by__isnull=False),
                name="configuration_rejection_decided",
            ),
            # Four eyes: nobody decides their own proposal.
            models.CheckConstraint(
                condition=~models.Q(decided_by=models.F("created_by")),
                name="configuration_decided_by_another",
            ),
            # Past the guardrail, three people: compliance is neither the proposer nor the supervisor...
            models.CheckConstraint(
                condition=~models.Q(compliance_approved_by=models.F("created_by"))
                & ~models.Q(compliance_approved_by=models.F("decided_by")),
                name="configuration_compliance_a_third_person",
            ),
            # ...and a version approved past it has the compliance approval and the proposer's reason.
            models.CheckConstraint(
                condition=~models.Q(status=ConfigurationStatus.APPROVED, needs_compliance=True)
                | (models.Q(compliance_approved_by__isnull=False) & ~models.Q(rtp_fall_reason="")),
                name="configuration_guardrail_three_people",
            ),
            models.CheckConstraint(
                condition=models.Q(compliance_approved_by__isnull=True) | models.Q(needs_compliance=True),
                name="configuration_compliance_only_past_guardrail",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} v{self.version}"

    @cached_property
    def rule_set(self) -> RuleSet:
        return RuleSet.from_dict(self.rules)


class TableStatusChange(models.Model):
    """The game availability log: every opening, pause and closing, with who, when and why."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="status_changes")
    from_status = models.CharField(max_length=8, choices=TableStatus.choices)
    to_status = models.CharField(max_length=8, choices=TableStatus.choices)
    reason = models.TextField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty for a pause the game server caused: a cancelled round arrived by ingest.",
    )
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-id"]
        # Ingest reads the status in force when a round opened (rounds.table_state).
        indexes = [models.Index(fields=["table", "changed_at"])]

    def __str__(self) -> str:
        return f"{self.table.code}: {self.from_status} → {self.to_status}"


class ConfigurationOdds(models.Model):
    """The theoretical RTP of one configuration version, worked out by `blackjack.odds`.

    `figures` is `{"rtp": {kind: "99.5169"}, "auto_play": "91.9761", "patterns": {kind: {pattern:
    probability}}, "strategy": "...", "chart": {...}, "method": 2}`: RTPs in percent as decimal strings,
    the main game's at best play and under the table's automatic play, and the strategy chart of best
    play (`StrategyChart.to_dict`). Figures of method 1 have only "rtp", "patterns" and "strategy".
    A version's rules never change: its figures are worked out again only when the engine's method
    does (`method` below the engine's METHOD_VERSION), and then replaced in place.
    """

    configuration = models.OneToOneField(TableConfiguration, on_delete=models.PROTECT, related_name="odds")
    rules_sha256 = models.CharField(max_length=64, db_index=True, help_text="Digest of the rules worked on.")
    figures = models.JSONField()
    computed_at = models.DateTimeField(auto_now_add=True)
    seconds = models.FloatField(help_text="How long the computation took (0 when copied).")
    known_in_advance = models.BooleanField(
        default=False,
        help_text="Taken from a known-odds file of the same engine (tables.known_odds), not worked out.",
    )
    method = models.PositiveSmallIntegerField(
        help_text="The odds engine's method that worked these out (blackjack.odds.METHOD_VERSION)."
    )
    copied_from = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The version with the same rules whose figures these are.",
    )

    class Meta:
        verbose_name_plural = "configuration odds"

    def __str__(self) -> str:
        return f"Odds of {self.configuration}"

    @property
    def current(self) -> bool:
        """Worked out by the engine's present method: older figures are to be worked out again."""
        return self.method == METHOD_VERSION

    def rtp(self, kind: str) -> Decimal | None:
        value = self.figures["rtp"].get(kind)
        return None if value is None else Decimal(value)


class PublishedRtp(models.Model):
    """The RTP the operator publishes for one bet kind of one configuration version, and where: entered
    by compliance, never changed. A new entry for the same version and kind replaces it from then on
    (tables.published: the latest entry by `entered_at` is the figure of record; earlier ones stay)."""

    configuration = models.ForeignKey(
        TableConfiguration, on_delete=models.PROTECT, related_name="published_rtps"
    )
    kind = models.CharField(
        "bet kind", max_length=24, choices=[(kind, kind_label(kind)) for kind in BET_KINDS]
    )
    rtp = models.DecimalField(
        "published RTP",
        max_digits=5,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(Decimal(100))],
        help_text="In percent, as published (99.46).",
    )
    source_document = models.CharField(
        "published in", max_length=200, help_text="The document that states it: its title and edition."
    )
    source_url = models.URLField("address", max_length=500, blank=True)
    published_on = models.DateField(help_text="The document's date.")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty only for the figures the game presets held before figures were entered here.",
    )
    entered_at = models.DateTimeField(default=timezone.now)
    carried_from = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The previous version's entry, carried to this version at its approval because the "
        "kind's computed RTP did not change.",
    )

    class Meta:
        verbose_name = "published RTP"
        ordering = ["configuration", "kind", "-entered_at", "-pk"]
        indexes = [models.Index(fields=["configuration", "kind", "entered_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rtp__gt=0, rtp__lte=100), name="published_rtp_a_percentage"
            ),
            models.CheckConstraint(condition=models.Q(kind__in=BET_KINDS), name="published_rtp_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.configuration} {self.kind}: {self.rtp} %"
