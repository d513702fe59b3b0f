"""What the tables API reads and writes. Input serializers check types; services check the rules."""

from rest_framework import serializers

from config.api import InputSerializer
from tables.choices import Currency, Game, TableStatus
from tables.models import Table, TableConfiguration, TableStatusChange


class TableSerializer(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = ["code", "name", "game", "currency", "studio", "facilitator", "status", "created_at"]
        read_only_fields = fields


class TableCreateSerializer(InputSerializer):
    code = serializers.CharField(max_length=16)
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=Game.choices)
    currency = serializers.ChoiceField(choices=Currency.choices)
    studio = serializers.CharField(max_length=100)
    facilitator = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    reason = serializers.CharField(max_length=100, required=False, default="New table")


class TableUpdateSerializer(InputSerializer):
    name = serializers.CharField(max_length=100, required=False)
    studio = serializers.CharField(max_length=100, required=False)
    facilitator = serializers.CharField(max_length=100, required=False, allow_blank=True)
    reason = serializers.CharField(
        max_length=100, allow_blank=True, help_text="Why: kept in the table's history."
    )


class TableStatusSetSerializer(InputSerializer):
    status = serializers.ChoiceField(choices=TableStatus.choices)
    reason = serializers.CharField(allow_blank=True, help_text="Why: kept in the availability log.")


class TableStatusChangeSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    changed_by = serializers.CharField(source="changed_by.username", read_only=True)

    class Meta:
        model = TableStatusChange
        fields = ["id", "table", "from_status", "to_status", "reason", "changed_by", "changed_at"]
        read_only_fields = fields


class TableConfigurationSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    rules = serializers.JSONField(read_only=True, help_text="The rule set as stored (RuleSet.to_dict).")
    created_by = serializers.CharField(source="created_by.username", read_only=True)
    theoretical = serializers.JSONField(
        source="odds.figures",
        read_only=True,
        allow_null=True,
        help_text='The version\'s theoretical RTP, null until worked out: {"rtp": {kind: "99.5150"}, '
        '"patterns": {side option: {pattern: probability}}, "strategy": "..."}.',
    )

    class Meta:
        model = TableConfiguration
        fields = [
            "id",
            "table",
            "version",
            "valid_from",
            "rules",
            "reason",
            "created_by",
            "created_at",
            "theoretical",
        ]
        read_only_fields = fields


class ConfigurationChangeSerializer(InputSerializer):
    changes = serializers.DictField(
        help_text='Rules to change, in the stored form, e.g. {"side_options": {"pair": {"paytable": '
        '{"mixed_pair": "6"}, "max_round": 30}}}. Odds as decimal strings or integers.'
    )
    valid_from = serializers.DateTimeField(
        required=False, allow_null=True, help_text="When the new version starts (default: now)."
    )
    reason = serializers.CharField(allow_blank=True, help_text="Why: kept with the version.")
