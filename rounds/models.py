"""Round history: shoes, rounds as received and normalised, findings, re-settlements, incidents.

History is never edited: a correction is a new record (an adjustment, a refund) pointing at what
it corrects, with who approved it and why.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property

from core.money import AMOUNT_DIGITS, TOTAL_DIGITS, money_text
from limits.models import Player
from tables.models import Table, TableConfiguration

from .choices import (
    CancelReason,
    CorrectionKind,
    FindingCode,
    IncidentKind,
    IncidentStatus,
    ProposalStatus,
    RoundStatus,
)
from .deal import DealtSpots, dealt_spots
from .fields import CompressedJsonField
from .querysets import BetQuerySet, CorrectionQuerySet, RoundQuerySet, RoundRowQuerySet
from .registry import BetKey, RoundKey

__all__ = ["BetKey", "RoundKey"]  # the registry's models, with the others of the app


def money(verbose_name: str = "", **options) -> models.DecimalField:
    """An amount as a game server sends it: at most 12 digits before the point (the round format's
    MAX_AMOUNT_DIGITS)."""
    return models.DecimalField(verbose_name, max_digits=AMOUNT_DIGITS, decimal_places=2, **options)


def money_total(verbose_name: str = "", **options) -> models.DecimalField:
    """A sum or a product of amounts (a round's, a day's, a payout at high odds): wider than any
    amount sent, so that no stake the format accepts can overflow it."""
    return models.DecimalField(verbose_name, max_digits=TOTAL_DIGITS, decimal_places=2, **options)


class Shoe(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes")
    code = models.CharField(max_length=64, unique=True, help_text="The game server's shoe id.")
    first_seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.code


# The round columns the round list sorts by besides time and table (rounds.views.ROUND_ORDERS).
SORTED_BY_VALUE = ("wagered", "returned", "finding_count")


class Round(models.Model):
    # Unique through the registry (RoundKey), which outlives the month the round is kept in.
    round_id = models.CharField(max_length=64, help_text="The game server's round id.")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    opened_at = models.DateTimeField()
    gaming_day = models.DateField(
        help_text="The gaming day it opened in (core.gaming_day), under the settings when it was stored."
    )
    closed_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=RoundStatus.choices)
    cancel_reason = models.CharField(max_length=24, choices=CancelReason.choices, blank=True)
    cut_card = models.BooleanField(default=False)
    configuration = models.ForeignKey(
        TableConfiguration,
        on_delete=models.PROTECT,
        null=True,
        related_name="rounds",
        help_text="The configuration version in force when the round was played.",
    )
    document = CompressedJsonField(help_text="The round document as received (its JSON text, compressed).")
    document_sha256 = models.CharField(max_length=64)
    # The deal, kept apart from the document since migration 0007 (a few cards a round). The round
    # page now reads the document for its spots as well (rounds.deal).
    dealer_cards = models.TextField(
        blank=True, db_default="", help_text="The facilitator's cards in the order dealt, space-separated."
    )
    shared = models.JSONField(
        null=True, blank=True, help_text="A shared deal's cards: initial and draws; null if none."
    )
    dealt_by = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="The game server's id of who dealt it; blank: not sent.",
    )
    cards_taken = models.TextField(
        blank=True, help_text="The physical cards the round took from the shoe, space-separated."
    )
    players = models.PositiveIntegerField(default=0)
    bet_count = models.PositiveIntegerField(default=0)
    wagered = money_total("wagered (reported)", default=0)
    returned = money_total("returned (reported)", default=0)
    computed_wagered = money_total(default=0)
    computed_returned = money_total(default=0)
    finding_count = models.PositiveIntegerField(default=0)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    review_comment = models.TextField(blank=True)
    ingested_at = models.DateTimeField(auto_now_add=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        permissions = [("review_round", "Can sign a round off as reviewed")]
        indexes = [
            # A table's rounds newest played first: the list filtered by table, or sorted by table a
            # table at a time (rounds.selectors._read_by_related), read in order with no sort.
            models.Index(fields=["table", "-opened_at", "-id"]),
            models.Index(fields=["-opened_at"]),
            models.Index(fields=["shoe", "number"]),
            # A day's rounds newest played first (the list's `day` filter, in its order); a table's
            # day (the daily report).
            models.Index(fields=["gaming_day", "-opened_at", "-id"]),
            models.Index(fields=["table", "gaming_day"]),
            # The few rounds the game server cancelled, by table and arrival: an incident's rounds
            # awaiting refunds (rounds.services.unrefunded_server_cancelled_rounds).
            models.Index(
                fields=["table", "ingested_at"],
                condition=models.Q(status=RoundStatus.CANCELLED),
                name="round_cancelled_arrivals",
            ),
            # The round list sorted by an amount or by findings (rounds.views.ROUND_ORDERS), read in
            # order, a keyset page at a time; without them each page sorted every round kept.
            *(models.Index(fields=[field, "id"], name=f"round_by_{field}") for field in SORTED_BY_VALUE),
        ]

    def __str__(self) -> str:
        return self.round_id

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("rounds:round_detail", args=[self.round_id])

    @cached_property
    def dealt_spots(self) -> DealtSpots:
        """Its spots and their hands, as its document has them (read, and parsed, once)."""
        return dealt_spots(self.document)


# The rows of a round (bets, findings) are written by the thousand, only by
# `ingest`, in the transaction that creates their round and reads their players; nothing deletes
# a round or a player. Their links are therefore not foreign-key constraints in the database:
# PostgreSQL checks a constraint row by row at commit, a third of a 5,000-player round's ingest
# (measured in `make bench`). Django still follows and protects them; a test checks that no row
# points nowhere.
ROUND_ROW_LINK = {"db_constraint": False}
# What points at a round or a bet from outside its month (a correction) has its foreign key in the
# database to the registry (RoundKey, BetKey: same ids), not to the partitioned table, which cannot
# be the target of one (migration rounds/0017). Django still follows and protects the link.
THROUGH_REGISTRY = {"db_constraint": False}


class Bet(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="bets", **ROUND_ROW_LINK)
    bet_id = models.CharField(max_length=64, help_text="The game server's bet id.")
    gaming_day = models.DateField(help_text="Its round's gaming day: the month it is kept in.")
    # No index of its own: (player, round) below serves a player's bets.
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="bets", db_index=False, **ROUND_ROW_LINK
    )
    spot = models.CharField(max_length=64)
    kind = models.CharField(max_length=24)
    stake = money()
    wagered = money("wagered (reported)")
    returned = money("returned (reported)")
    computed_wagered = money_total(null=True)
    computed_returned = money_total(null=True)
    computed_pattern = models.CharField(
        max_length=24, blank=True, help_text="The side option pattern the engine found paying, if any."
    )
    options = models.JSONField(
        default=dict, blank=True, help_text="Play-behind choices, insurance of a bet behind."
    )

    objects = BetQuerySet.as_manager()

    class Meta:
        ordering = ["round", "id"]
        indexes = [models.Index(fields=["player", "round"])]
        # Bet ids are unique through the registry (BetKey), across months and the archive.

    def __str__(self) -> str:
        return self.bet_id

    @property
    def difference(self):
        """What the engine computes minus what the server reported (None when it cannot compute). Not 0:
        the bet was paid other than computed (querysets.PAID_OTHER_THAN_COMPUTED)."""
        if self.computed_returned is None:
            return None
        return self.computed_returned - self.returned


class Finding(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="findings", **ROUND_ROW_LINK)
    code = models.CharField(max_length=40, choices=FindingCode.choices)
    gaming_day = models.DateField(help_text="Its round's gaming day: the month it is kept in.")
    bet = models.ForeignKey(
        Bet, on_delete=models.CASCADE, null=True, blank=True, related_name="findings", **ROUND_ROW_LINK
    )
    spot = models.CharField(max_length=64, blank=True)
    hand = models.PositiveSmallIntegerField(null=True, blank=True)
    message = models.TextField()

    objects = RoundRowQuerySet.as_manager()

    class Meta:
        ordering = ["round", "id"]
        indexes = [models.Index(fields=["code"])]

    def __str__(self) -> str:
        return f"{self.round.round_id}: {self.code}"


# --- totals written at ingest, for the daily report ---------------------------------------------------
#
# The daily report reads these instead of a day's million bets (`reports/daily.py`). Ingest adds
# every round the game server sent as completed to them, in the transaction that stores the
# round, from the same values as its bets. What changes a round later is read beside them: a
# supervisor's refunds (the round then counts as cancelled) and approved re-settlements'
# adjustments, from the few rounds concerned. `day` is the round's gaming day (Round.gaming_day);
# `configuration_pk` the version in force (0: none).


def moment(verbose_name: str = "", **options) -> models.DecimalField:
    """A sum of squared or multiplied amounts: exact, and as wide as it grows (an unconstrained
    NUMERIC, core.money): 45 rounds of fifteen bets at the format's bound already pass 10^28."""
    return models.DecimalField(verbose_name, **options)


class TableDayTotal(models.Model):
    """One bet kind's completed rounds at one table in one gaming day under one version: their
    bets summed, and the per-round sums the report's intervals come from (W_r, R_r: what the kind
    wagered and returned in round r)."""

    day = models.DateField()
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="+", db_index=False, **ROUND_ROW_LINK
    )
    configuration_pk = models.PositiveBigIntegerField(help_text="The version in force; 0 when none was.")
    kind = models.CharField(max_length=24)
    rounds = models.PositiveIntegerField()
    bets = models.PositiveIntegerField()
    stakes = money_total()
    wagered = money_total("ΣW_r (reported)")
    returned = money_total("ΣR_r (reported)")
    wagered_squared = moment("ΣW_r²")
    returned_squared = moment("ΣR_r²")
    wagered_returned = moment("ΣW_rR_r")
    largest_round_stakes = money_total(help_text="The most the kind staked in one round.")
    largest_round = models.ForeignKey(
        Round,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
        help_text="The first such round stored.",
        **ROUND_ROW_LINK,
    )
    after_max_round_bets = models.PositiveIntegerField(
        default=0, help_text="Side-option bets staked after the option's max round of the shoe."
    )
    after_max_round_stakes = money_total(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "table", "configuration_pk", "kind"], name="table_day_total_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.table_id} {self.kind}"


class TableDayPatternHits(models.Model):
    """The bets of one side option at one table in one gaming day (completed rounds, one version)
    that the engine found paying one pattern, and the rounds in which it was hit."""

    day = models.DateField()
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="+", db_index=False, **ROUND_ROW_LINK
    )
    configuration_pk = models.PositiveBigIntegerField(help_text="The version in force; 0 when none was.")
    kind = models.CharField(max_length=24)
    pattern = models.CharField(max_length=24)
    bets = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["day", "table", "configuration_pk", "kind", "pattern"],
                name="table_day_pattern_hits_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.table_id} {self.kind} {self.pattern}"


class PlayerDayTotal(models.Model):
    """A player's bets of one kind at one table in one gaming day (completed rounds), so that a
    day's players are counted without its bets. Added to in batches, not by ingest itself: a
    5,000-player round would add 10,000 rows to it (`totals.player_totals_catch_up`)."""

    day = models.DateField()
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="+", db_index=False, **ROUND_ROW_LINK
    )
    kind = models.CharField(max_length=24)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", db_index=False, **ROUND_ROW_LINK
    )
    bets = models.PositiveIntegerField()
    stakes = money_total()
    liability = money_total(
        help_text="A side option's stakes paid at the odds of the top pattern of each round's paytable "
        "(winnings only); 0 for other kinds."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "table", "kind", "player"], name="player_day_total_once")
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.player_id} {self.kind}"


class PlayerTotalsPending(models.Model):
    """A completed round whose bets are not yet in PlayerDayTotal: ingest adds one row, the catch-up
    takes it away when it adds the round's bets."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="+", **ROUND_ROW_LINK
    )
    day = models.DateField(help_text="The round's gaming day.")
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="+", db_index=False, **ROUND_ROW_LINK
    )

    def __str__(self) -> str:
        return f"{self.round_id} awaiting player totals"


class Proposal(models.Model):
    """A correction one person proposes and another decides, once (a re-settlement, a void): at most
    one open and one approved per round. Its model names who may decide (`decide_permission`); the
    services refuse the rest (rounds.services.common.proposal_decidable)."""

    decide_permission = ""

    status = models.CharField(max_length=16, choices=ProposalStatus.choices, default=ProposalStatus.PROPOSED)
    reason = models.TextField()
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_comment = models.TextField(blank=True)

    objects = CorrectionQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["-proposed_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"], condition=Q(status="proposed"), name="one_open_%(class)s_per_round"
            ),
            models.UniqueConstraint(
                fields=["round"], condition=Q(status="approved"), name="one_approved_%(class)s_per_round"
            ),
        ]

    def may_be_decided_by(self, user) -> bool:
        """Whether `user` may approve or reject it: it is still proposed, someone else proposed it, and
        they may decide such proposals (the pages offer the decision on this; the services decide)."""
        return bool(
            user
            and self.status == ProposalStatus.PROPOSED
            and self.proposed_by_id != user.pk
            and user.has_perm(self.decide_permission)
        )


class Resettlement(Proposal):
    """A proposal to correct a round's payouts to what the engine computes; approved by a second person."""

    decide_permission = "rounds.decide_resettlement"

    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="resettlements", **THROUGH_REGISTRY
    )

    class Meta(Proposal.Meta):
        permissions = [("decide_resettlement", "Can approve or reject a re-settlement proposed by another")]

    def __str__(self) -> str:
        return f"Re-settlement {self.pk} of {self.round}"


class Adjustment(models.Model):
    """One bet's correction: computed minus reported returned. The bet itself is never edited."""

    resettlement = models.ForeignKey(Resettlement, on_delete=models.PROTECT, related_name="adjustments")
    bet = models.ForeignKey(Bet, on_delete=models.PROTECT, related_name="adjustments", **THROUGH_REGISTRY)
    gaming_day = models.DateField(help_text="Its bet's gaming day: the month it is kept in.")
    amount = money_total()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["resettlement", "bet"], name="adjustment_unique")]

    def __str__(self) -> str:
        return f"{self.bet}: {money_text(self.amount)}"


class Incident(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="incidents")
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="incidents", **THROUGH_REGISTRY
    )
    kind = models.CharField(max_length=24, choices=IncidentKind.choices)
    status = models.CharField(max_length=16, choices=IncidentStatus.choices, default=IncidentStatus.OPEN)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = CorrectionQuerySet.as_manager()

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="open"), name="one_open_incident_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"Incident {self.pk} at {self.table.code}"


class IncidentNote(models.Model):
    """The incident's timeline: what happened, in order, by whom (or by the system)."""

    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="notes")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    written_at = models.DateTimeField(auto_now_add=True)
    text = models.TextField()

    class Meta:
        ordering = ["written_at", "id"]

    def __str__(self) -> str:
        return self.text[:60]


class Refund(models.Model):
    """What a cancelled round returns on one bet: exactly what it wagered (or a dealt blackjack paid)."""

    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="refunds")
    bet = models.ForeignKey(Bet, on_delete=models.PROTECT, related_name="refunds", **THROUGH_REGISTRY)
    gaming_day = models.DateField(help_text="Its bet's gaming day: the month it is kept in.")
    amount = money_total()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["bet"], name="one_refund_per_bet")]

    def __str__(self) -> str:
        return f"{self.bet}: {money_text(self.amount)}"


class Void(Proposal):
    """A proposal to void a settled round hit by a malfunction: every bet's payout is reversed and
    its stake returned, so each bet nets to exactly what it wagered. A second supervisor decides."""

    decide_permission = "rounds.decide_void"

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="voids", **THROUGH_REGISTRY)
    incident = models.ForeignKey(
        Incident,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="voids",
        help_text="The malfunction's incident, when one was opened.",
    )

    class Meta(Proposal.Meta):
        permissions = [
            ("propose_void", "Can propose to void a settled round"),
            ("decide_void", "Can approve or reject a void proposed by another"),
        ]

    def __str__(self) -> str:
        return f"Void {self.pk} of {self.round}"


class VoidLine(models.Model):
    """One bet of a voided round: the payout taken back and the stake returned (net: the stake)."""

    void = models.ForeignKey(Void, on_delete=models.PROTECT, related_name="lines")
    bet = models.ForeignKey(Bet, on_delete=models.PROTECT, related_name="void_lines", **THROUGH_REGISTRY)
    reversed_returned = money(help_text="What the bet was returned as settled, taken back.")
    returned_stake = money(help_text="What the bet wagered, given back.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["bet"], name="one_void_line_per_bet")]

    def __str__(self) -> str:
        return f"{self.bet}: {money_text(self.net)}"

    @property
    def net(self):
        """What the void changes of the bet's returned: the stake given back less the payout taken back."""
        return self.returned_stake - self.reversed_returned


class RoundCorrection(models.Model):
    """The one correction a round's bets received after ingest: an approved re-settlement, the
    refunds of a cancellation, or an approved void. One per round, so one per bet: the database
    refuses a second whichever order and however concurrent."""

    round = models.OneToOneField(
        Round, on_delete=models.PROTECT, primary_key=True, related_name="correction", **THROUGH_REGISTRY
    )
    kind = models.CharField(max_length=16, choices=CorrectionKind.choices)
    resettlement = models.OneToOneField(
        Resettlement, on_delete=models.PROTECT, null=True, blank=True, related_name="correction"
    )
    incident = models.ForeignKey(
        Incident, on_delete=models.PROTECT, null=True, blank=True, related_name="corrections"
    )
    void = models.OneToOneField(
        Void, on_delete=models.PROTECT, null=True, blank=True, related_name="correction"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-recorded_at"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind=CorrectionKind.RESETTLED, resettlement__isnull=False)
                    | Q(kind=CorrectionKind.CANCELLED, incident__isnull=False)
                    | Q(kind=CorrectionKind.VOIDED, void__isnull=False)
                ),
                name="correction_points_at_its_record",
            )
        ]

    def __str__(self) -> str:
        return f"{self.round_id}: {self.get_kind_display()}"
