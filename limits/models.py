"""Players, table limits, personal limits."""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from blackjack.document import player_id_problem
from core.money import AMOUNT_DIGITS, money_text
from tables.choices import Currency, Game
from tables.models import Table

from .choices import TABLE_LIMIT_KINDS, AccountType, BetKind, PlayerStatus

CENT = Decimal("0.01")


def stake_range_text(low: Decimal | None, high: Decimal | None, currency: str) -> str:
    """A stake range in words: "5.00 to 2,500.00 EUR", or "— to 100.00 EUR" where a side is open."""
    return f"{money_text(low)} to {money_text(high)} {currency}"


def validate_player_id(value: str) -> None:
    """A player id as the round format defines it (and not a word of the player pages' own)."""
    problem = player_id_problem(value)
    if problem:
        raise ValidationError(problem, code="invalid")


def money_field(verbose_name: str, **options) -> models.DecimalField:
    return models.DecimalField(
        verbose_name,
        max_digits=AMOUNT_DIGITS,
        decimal_places=2,
        validators=[MinValueValidator(CENT)],
        **options,
    )


class Player(models.Model):
    external_id = models.CharField(
        "player id", max_length=64, unique=True, help_text="As the game server sends it."
    )
    display_name = models.CharField(max_length=100, blank=True)
    account_type = models.CharField(max_length=16, choices=AccountType.choices, default=AccountType.REAL)
    currency = models.CharField(max_length=3, choices=Currency.choices)
    status = models.CharField(max_length=16, choices=PlayerStatus.choices, default=PlayerStatus.ACTIVE)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["external_id"]

    def __str__(self) -> str:
        return self.external_id if not self.display_name else f"{self.external_id} ({self.display_name})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("limits:player_detail", args=[self.external_id])

    @property
    def may_take_a_seat(self) -> bool:
        return self.account_type == AccountType.REAL


class TableLimit(models.Model):
    """A table's minimum and maximum stake for one bet kind."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="limits")
    kind = models.CharField(max_length=24, choices=TABLE_LIMIT_KINDS)
    min_stake = money_field("minimum stake")
    max_stake = money_field("maximum stake")
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["table", "kind"], name="table_limit_kind_unique"),
            models.CheckConstraint(condition=Q(min_stake__gt=0), name="table_limit_min_positive"),
            models.CheckConstraint(condition=Q(max_stake__gte=F("min_stake")), name="table_limit_min_le_max"),
        ]

    def __str__(self) -> str:
        stakes = stake_range_text(self.min_stake, self.max_stake, self.table.currency)
        return f"{self.table.code} {self.get_kind_display()}: {stakes}"


class PersonalLimit(models.Model):
    """One setting of a player's own stake range for a scope (a bet kind or all, a table, a game or all).

    Settings are never edited: each change is a new row from `effective_from`, pointing at the
    setting it replaces. A raise of the maximum waits 24 hours (pending until then); a lower
    limit is in force at once. An empty range (no minimum, no maximum) lifts the limit.
    """

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="personal_limits")
    kind = models.CharField(
        max_length=24, choices=BetKind.choices, blank=True, help_text="Empty: every kind."
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    game = models.CharField(max_length=16, choices=Game.choices, blank=True)
    min_stake = money_field("minimum stake", null=True, blank=True)
    max_stake = money_field("maximum stake", null=True, blank=True)
    effective_from = models.DateTimeField()
    replaces = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    withdrawn_at = models.DateTimeField(
        null=True, blank=True, help_text="A pending raise overtaken by a later change."
    )
    reason = models.TextField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "-effective_from", "-id"]
        permissions = [("check_limits", "Can check a bet against the effective limits")]
        constraints = [
            models.CheckConstraint(
                condition=Q(min_stake__isnull=True)
                | Q(max_stake__isnull=True)
                | Q(max_stake__gte=F("min_stake")),
                name="personal_limit_min_le_max",
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True) | Q(game=""), name="personal_limit_table_or_game"
            ),
        ]
        indexes = [models.Index(fields=["player", "effective_from"])]

    def __str__(self) -> str:
        return f"{self.player.external_id} {self.scope_label}: {self.range_label}"

    @property
    def scope_label(self) -> str:
        kind = self.get_kind_display() if self.kind else "all kinds"
        where = (
            self.table.code if self.table_id else (self.get_game_display() if self.game else "every table")
        )
        return f"{kind} at {where}"

    @property
    def range_label(self) -> str:
        if self.min_stake is None and self.max_stake is None:
            return "no limit"
        return stake_range_text(self.min_stake, self.max_stake, self.player.currency)

    @property
    def scope(self) -> tuple:
        return (self.kind, self.table_id, self.game)
