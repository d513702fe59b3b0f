"""What the limits API reads and writes. Input serializers check types; services check the rules."""

from decimal import Decimal

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from blackjack.document import MAX_ID_LENGTH
from core.api import InputSerializer, MoneyField, SlugRelatedField
from core.api_amounts import AmountField
from limits.choices import TABLE_LIMIT_KINDS, AccountType, BetKind, PlayerStatus
from limits.models import PersonalLimit, Player, TableLimit, validate_player_id
from tables.choices import Currency, Game
from tables.models import Table

CENT = Decimal("0.01")


def _table_field(**kwargs) -> SlugRelatedField:
    return SlugRelatedField(
        slug_field="code", queryset=Table.objects.all(), help_text="Table code, such as DLX1.", **kwargs
    )


# --- players ---------------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["external_id", "display_name", "account_type", "currency", "status", "created_at"]
        read_only_fields = fields


class PlayerCreateSerializer(InputSerializer):
    external_id = serializers.CharField(max_length=MAX_ID_LENGTH, validators=[validate_player_id])
    display_name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    account_type = serializers.ChoiceField(choices=AccountType.choices, default=AccountType.REAL)
    currency = serializers.ChoiceField(choices=Currency.choices)
    status = serializers.ChoiceField(choices=PlayerStatus.choices, default=PlayerStatus.ACTIVE)
    reason = serializers.CharField(max_length=100, required=False, default="New player")


class PlayerUpdateSerializer(InputSerializer):
    display_name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    account_type = serializers.ChoiceField(choices=AccountType.choices, required=False)
    status = serializers.ChoiceField(choices=PlayerStatus.choices, required=False)
    reason = serializers.CharField(
        max_length=100, allow_blank=True, help_text="Why: kept in the player's history."
    )


# --- table limits ----------------------------------------------------------------------------


class TableLimitSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    game = serializers.CharField(source="table.game", read_only=True)
    currency = serializers.CharField(source="table.currency", read_only=True)
    min_stake = MoneyField(read_only=True)
    max_stake = MoneyField(read_only=True)

    class Meta:
        model = TableLimit
        fields = ["id", "table", "game", "kind", "min_stake", "max_stake", "currency"]
        read_only_fields = fields


class TableLimitSetSerializer(InputSerializer):
    table = _table_field()
    kind = serializers.ChoiceField(choices=TABLE_LIMIT_KINDS)
    min_stake = AmountField()
    max_stake = AmountField()
    currency = serializers.ChoiceField(
        choices=Currency.choices, required=False, default="", help_text="If given, must be the table's."
    )
    reason = serializers.CharField(
        max_length=100, allow_blank=True, help_text="Why: kept in the limit's history."
    )


class TableLimitHistorySerializer(serializers.Serializer):
    """One change of a table limit, from its simple_history record."""

    id = serializers.IntegerField(source="history_id")
    change = serializers.SerializerMethodField()
    changed_by = serializers.CharField(source="history_user.username", default=None, allow_null=True)
    changed_at = serializers.DateTimeField(source="history_date")
    min_stake = MoneyField()
    max_stake = MoneyField()
    reason = serializers.CharField(source="history_change_reason", default=None, allow_null=True)

    @extend_schema_field(serializers.ChoiceField(choices=["created", "changed", "deleted"]))
    def get_change(self, record) -> str:
        return {"+": "created", "~": "changed", "-": "deleted"}[record.history_type]


# --- personal limits -------------------------------------------------------------------------


class StakeRangeSerializer(serializers.Serializer):
    min_stake = MoneyField(allow_null=True)
    max_stake = MoneyField(allow_null=True)


PERSONAL_LIMIT_STATES = ["in_force", "pending", "withdrawn", "superseded"]


class PersonalLimitSerializer(serializers.ModelSerializer):
    """One setting of a player's limit for a scope. `state` needs `current_ids` in the context: the
    ids of the settings in force now (one per player and scope)."""

    player = serializers.CharField(source="player.external_id", read_only=True)
    # Blank for every kind or game; said here, as the schema of a read-only model field omits it.
    kind = serializers.ChoiceField(
        choices=BetKind.choices, allow_blank=True, read_only=True, help_text="Empty: every kind."
    )
    table = serializers.CharField(source="table.code", default=None, read_only=True, allow_null=True)
    game = serializers.ChoiceField(
        choices=Game.choices, allow_blank=True, read_only=True, help_text="Empty: every game."
    )
    currency = serializers.CharField(source="player.currency", read_only=True)
    min_stake = MoneyField(read_only=True, allow_null=True)
    max_stake = MoneyField(read_only=True, allow_null=True)
    scope = serializers.CharField(source="scope_label", read_only=True)
    range = serializers.CharField(source="range_label", read_only=True)
    before = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", read_only=True)

    class Meta:
        model = PersonalLimit
        fields = [
            "id",
            "player",
            "kind",
            "table",
            "game",
            "scope",
            "min_stake",
            "max_stake",
            "currency",
            "range",
            "before",
            "effective_from",
            "state",
            "replaces",
            "withdrawn_at",
            "reason",
            "created_by",
            "created_at",
        ]
        read_only_fields = fields

    @extend_schema_field(StakeRangeSerializer(allow_null=True))
    def get_before(self, row: PersonalLimit):
        """The range of the setting this one replaces (null: none before)."""
        if row.replaces is None:
            return None
        return StakeRangeSerializer(row.replaces).data

    @extend_schema_field(serializers.ChoiceField(choices=PERSONAL_LIMIT_STATES))
    def get_state(self, row: PersonalLimit) -> str:
        if row.withdrawn_at is not None:
            return "withdrawn"
        if row.effective_from > self.context.get("now", timezone.now()):
            return "pending"
        return "in_force" if row.pk in self.context.get("current_ids", ()) else "superseded"


class PersonalLimitsOfPlayerSerializer(serializers.Serializer):
    """A player's personal limits: in force now, waiting to start, and every setting ever made."""

    player = PlayerSerializer()
    in_force = PersonalLimitSerializer(many=True)
    pending = PersonalLimitSerializer(many=True)
    history = PersonalLimitSerializer(many=True)


class PersonalLimitSetSerializer(InputSerializer):
    kind = serializers.ChoiceField(
        choices=BetKind.choices, required=False, allow_blank=True, default="", help_text="Empty: every kind."
    )
    table = _table_field(required=False, allow_null=True, default=None)
    game = serializers.ChoiceField(choices=Game.choices, required=False, allow_blank=True, default="")
    min_stake = AmountField(required=False, allow_null=True, default=None)
    max_stake = AmountField(required=False, allow_null=True, default=None)
    currency = serializers.ChoiceField(
        choices=Currency.choices, required=False, allow_blank=True, default="", help_text="The player's."
    )
    reason = serializers.CharField(allow_blank=True, help_text="Why: kept with the setting.")
    seen_setting = serializers.IntegerField(
        min_value=0,
        help_text="The latest setting of this scope that you looked at: the highest `id` among the "
        "scope's settings `in_force` or `pending` in the player's personal limits (0 when the scope "
        "has none). Required, so that two agents never silently overwrite each other: when someone "
        "changed the scope since, the write is refused with 409 naming what is set now.",
        error_messages={
            "required": "Say which setting of this scope you looked at: the latest id in force or "
            "pending (0 when the scope has none).",
            "null": "Say which setting of this scope you looked at (0 when the scope has none).",
        },
    )


# --- the limit check -------------------------------------------------------------------------


class LimitCheckSerializer(InputSerializer):
    player = SlugRelatedField(
        slug_field="external_id", queryset=Player.objects.all(), help_text="The player's id."
    )
    table = _table_field()
    kind = serializers.ChoiceField(choices=BetKind.choices)
    amount = AmountField(min_value=CENT, error_messages={"min_value": "Must be above 0."})


class LimitCheckResultSerializer(serializers.Serializer):
    allowed = serializers.BooleanField()
    min_stake = MoneyField(allow_null=True)
    max_stake = MoneyField(allow_null=True)
    currency = serializers.CharField()
    reason = serializers.CharField(allow_null=True, help_text="Why the stake is refused, in words.")
    sources = serializers.ListField(
        child=serializers.CharField(), help_text="The limits that made the range."
    )
