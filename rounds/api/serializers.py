"""What the rounds API shows: a round's summary (the list, the ingest answer) and a round in full
(spots, hands, bets with the reported and computed amounts side by side, findings)."""

from django.urls import NoReverseMatch, reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import MoneyField
from rounds.choices import CancelReason
from rounds.models import Bet, Finding, Round
from rounds.outcome import RoundOutcome
from rounds.selectors import with_outcomes


class RoundSummarySerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    currency = serializers.CharField(source="table.currency", read_only=True)
    shoe = serializers.CharField(source="shoe.code", read_only=True)
    # A plain string in the schema: "status" enums of other models share the name.
    status = serializers.CharField(read_only=True, help_text="completed or cancelled")
    outcome = serializers.SerializerMethodField(
        help_text="The status as sent and the round's correction since: "
        + ", ".join(f"`{value}` ({label})" for value, label in RoundOutcome.choices)
        + ". `status` stays as the game server sent it."
    )
    # Blank when the round was completed; said here, as the schema of a read-only model field omits it.
    cancel_reason = serializers.ChoiceField(choices=CancelReason.choices, allow_blank=True, read_only=True)
    wagered = MoneyField(read_only=True, help_text="The sum the game server reported.")
    returned = MoneyField(read_only=True, help_text="The sum the game server reported.")
    computed_wagered = MoneyField(read_only=True, help_text="What the engine computes.")
    computed_returned = MoneyField(read_only=True, help_text="What the engine computes.")
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "round_id",
            "table",
            "shoe",
            "number",
            "dealt_by",
            "status",
            "outcome",
            "cancel_reason",
            "opened_at",
            "closed_at",
            "players",
            "bet_count",
            "finding_count",
            "currency",
            "wagered",
            "returned",
            "computed_wagered",
            "computed_returned",
            "reviewed_at",
            "ingested_at",
            "url",
            "page",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=RoundOutcome.choices))
    def get_outcome(self, round_: Round) -> str:
        """The `outcome_expression()` annotation of the list's rows; worked out (one query) for a
        round read without it."""
        if getattr(round_, "outcome", None) is None:
            with_outcomes([round_])
        return round_.outcome

    def get_url(self, round_: Round) -> str:
        """This round in the API."""
        url = reverse("api:round-detail", args=[round_.round_id])
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_page(self, round_: Round) -> str | None:
        """This round's page in the back office."""
        try:
            url = round_.get_absolute_url()
        except NoReverseMatch:
            return None
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url


class HandSerializer(serializers.Serializer):
    """A hand of a spot, as the round's document has it (rounds.deal.DealtHand)."""

    position = serializers.IntegerField(read_only=True, help_text="1, or 2 for the second hand of a split.")
    cards = serializers.ListField(child=serializers.CharField(), read_only=True)
    actions = serializers.JSONField(read_only=True, help_text="The decisions, in order, as received.")


class SpotSerializer(serializers.Serializer):
    """A spot of the round, as its document has it (rounds.deal.DealtSpot)."""

    spot = serializers.CharField(read_only=True)
    seat = serializers.IntegerField(read_only=True, allow_null=True)
    player = serializers.CharField(read_only=True, help_text="The player's id.")
    hands = HandSerializer(many=True, read_only=True)


class AmountsSerializer(serializers.Serializer):
    # Shown, never read: as wide as a total, as the engine's amounts (a doubled stake at the format's
    # bound, a payout at high odds) may be wider than any amount sent.
    wagered = MoneyField(read_only=True, allow_null=True)
    returned = MoneyField(read_only=True, allow_null=True)


class BetSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.external_id", read_only=True)
    stake = MoneyField(read_only=True)
    reported = serializers.SerializerMethodField()
    computed = serializers.SerializerMethodField()
    difference = MoneyField(read_only=True, allow_null=True, help_text="Computed minus reported returned.")

    class Meta:
        model = Bet
        fields = [
            "bet_id",
            "player",
            "spot",
            "kind",
            "stake",
            "options",
            "reported",
            "computed",
            "difference",
        ]
        read_only_fields = fields

    @extend_schema_field(AmountsSerializer)
    def get_reported(self, bet: Bet) -> dict:
        return AmountsSerializer({"wagered": bet.wagered, "returned": bet.returned}).data

    @extend_schema_field(AmountsSerializer)
    def get_computed(self, bet: Bet) -> dict:
        """Null when the engine cannot settle the bet (a card that does not exist)."""
        return AmountsSerializer({"wagered": bet.computed_wagered, "returned": bet.computed_returned}).data


class FindingSerializer(serializers.ModelSerializer):
    bet = serializers.CharField(source="bet.bet_id", read_only=True, allow_null=True, default=None)

    class Meta:
        model = Finding
        fields = ["code", "bet", "spot", "hand", "message"]
        read_only_fields = fields


class RoundArchiveSerializer(serializers.Serializer):
    """Where an archived round is: its month in the archive, and how the month comes back."""

    table = serializers.CharField(source="table_code")
    month = serializers.SerializerMethodField(help_text="The archived month (of the gaming day), YYYY-MM.")
    exported_at = serializers.DateTimeField(allow_null=True)
    restore = serializers.CharField(
        source="restore_command", help_text="The command that puts the month back into the database."
    )

    def get_month(self, place) -> str:
        return f"{place.month:%Y-%m}"


class RoundDetailSerializer(RoundSummarySerializer):
    archived = serializers.SerializerMethodField(
        help_text="Whether the round is read from the archive: its month is no longer in the database."
    )
    archive = serializers.SerializerMethodField(
        help_text="Where an archived round is, and how its month is restored (to correct it); null when "
        "the round is in the database."
    )
    configuration_version = serializers.IntegerField(
        source="configuration.version", read_only=True, allow_null=True, default=None
    )
    reviewed_by = serializers.CharField(
        source="reviewed_by.username", read_only=True, allow_null=True, default=None
    )
    spots = SpotSerializer(many=True, read_only=True, source="dealt_spots")
    bets = BetSerializer(many=True, read_only=True)
    findings = FindingSerializer(many=True, read_only=True)

    class Meta(RoundSummarySerializer.Meta):
        fields = [
            *RoundSummarySerializer.Meta.fields,
            "cut_card",
            "configuration_version",
            "reviewed_by",
            "review_comment",
            "spots",
            "bets",
            "findings",
            "archived",
            "archive",
        ]
        read_only_fields = fields

    def get_archived(self, round_: Round) -> bool:
        return getattr(round_, "recalled", None) is not None

    @extend_schema_field(RoundArchiveSerializer(allow_null=True))
    def get_archive(self, round_: Round) -> dict | None:
        recalled = getattr(round_, "recalled", None)
        return None if recalled is None else RoundArchiveSerializer(recalled.place).data


class RecalledRoundSerializer(RoundDetailSerializer):
    """An archived round (rounds.recall.RecalledRound) in the same shape as a stored one: its rows are
    the ones read back from the archive, not the (empty) database's."""

    bets = BetSerializer(many=True, read_only=True, source="recalled.bets")
    findings = FindingSerializer(many=True, read_only=True, source="recalled.findings")
