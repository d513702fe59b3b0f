"""What the tables API reads and writes. Input serializers check types; services check the rules."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import InputSerializer
from tables.choices import ConfigurationStatus, Currency, Game, TableStatus
from tables.guardrail import NEEDS, approvals_of
from tables.models import Table, TableConfiguration, TableStatusChange
from tables.selectors import dealer_on_duty


class DealerOnDutySerializer(serializers.Serializer):
    dealer = serializers.CharField(
        help_text="The `dealt_by` of the table's latest round when it says; else the hand-set `dealer` "
        "(blank when neither)."
    )
    round_id = serializers.CharField(
        allow_null=True, help_text="The latest round that says who dealt; null: the hand-set `dealer`."
    )


class TableSerializer(serializers.ModelSerializer):
    dealer = serializers.CharField(read_only=True, help_text="The dealer on duty as set by hand.")
    dealer_on_duty = serializers.SerializerMethodField(help_text="Who deals at the table now.")

    class Meta:
        model = Table
        fields = [
            "code",
            "name",
            "game",
            "currency",
            "studio",
            "dealer",
            "dealer_on_duty",
            "status",
            "created_at",
        ]
        read_only_fields = fields

    @extend_schema_field(DealerOnDutySerializer)
    def get_dealer_on_duty(self, table: Table) -> dict:
        on_duty = dealer_on_duty(table)
        return {"dealer": on_duty.dealer, "round_id": on_duty.round_id or None}


class TableCreateSerializer(InputSerializer):
    code = serializers.CharField(max_length=16)
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=Game.choices)
    currency = serializers.ChoiceField(choices=Currency.choices)
    studio = serializers.CharField(max_length=100)
    dealer = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    reason = serializers.CharField(max_length=100, required=False, default="New table")


class TableUpdateSerializer(InputSerializer):
    name = serializers.CharField(max_length=100, required=False)
    studio = serializers.CharField(max_length=100, required=False)
    dealer = serializers.CharField(max_length=100, required=False, allow_blank=True)
    reason = serializers.CharField(
        max_length=100, allow_blank=True, help_text="Why: kept in the table's history."
    )


class TableStatusSetSerializer(InputSerializer):
    status = serializers.ChoiceField(choices=TableStatus.choices)
    reason = serializers.CharField(allow_blank=True, help_text="Why: kept in the availability log.")


class TableStatusChangeSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    changed_by = serializers.CharField(
        source="changed_by.username",
        read_only=True,
        allow_null=True,
        help_text="Null for a pause the game server caused (a cancelled round arrived by ingest).",
    )

    class Meta:
        model = TableStatusChange
        fields = ["id", "table", "from_status", "to_status", "reason", "changed_by", "changed_at"]
        read_only_fields = fields


class ChartRowSerializer(serializers.Serializer):
    hand = serializers.CharField(help_text='A two-card hand class: "hard 12", "soft 17", "pair 8".')
    best = serializers.ListField(
        child=serializers.CharField(),
        help_text="Best play's first decision against each column: H hit, S stand, D double, P split, "
        "R surrender.",
    )
    card_dependent = serializers.ListField(
        child=serializers.BooleanField(),
        help_text="Per column: some hand of the class plays better otherwise (best play looks at the cards).",
    )
    automatic = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Per column: the table's strategy table's decision; only where automatic play follows one.",
    )


class ChartDifferenceSerializer(serializers.Serializer):
    hand = serializers.CharField()
    column = serializers.CharField(help_text="The facilitator's first card.")
    best = serializers.CharField()
    automatic = serializers.CharField(help_text="What the table's strategy table decides instead.")


class StrategyChartSerializer(serializers.Serializer):
    columns = serializers.ListField(
        child=serializers.CharField(), help_text='The facilitator\'s first card: "2" to "A".'
    )
    rows = ChartRowSerializer(many=True)
    differences = ChartDifferenceSerializer(
        many=True, help_text="Where the table's strategy table decides otherwise than best play."
    )


class TheoreticalOddsSerializer(serializers.Serializer):
    method = serializers.IntegerField(help_text="The odds engine's method that worked these out.")
    rtp = serializers.DictField(
        child=serializers.CharField(),
        help_text='Bet kind -> theoretical RTP in percent, e.g. {"main": "99.5169"}: the main game and '
        "play behind at best play (composition-dependent), their maximum.",
    )
    auto_play = serializers.CharField(
        help_text="The main game's RTP in percent under the table's automatic play: what a player who "
        "never acts gets."
    )
    patterns = serializers.DictField(
        child=serializers.DictField(child=serializers.FloatField()),
        help_text="Side option -> paying pattern -> probability.",
    )
    strategy = serializers.CharField(help_text="How the main game is played for each figure.")
    chart = StrategyChartSerializer(help_text="The strategy chart that best play implies.")


class GuardrailCrossingSerializer(serializers.Serializer):
    kind = serializers.CharField(source="key", help_text="The bet kind.")
    before = serializers.DecimalField(
        max_digits=7, decimal_places=4, allow_null=True, help_text="Its maximum RTP in the version before."
    )
    after = serializers.DecimalField(max_digits=7, decimal_places=4, help_text="Its maximum RTP in this one.")
    warnings = serializers.ListField(child=serializers.CharField())


class ApprovalsSerializer(serializers.Serializer):
    crosses_guardrail = serializers.BooleanField(
        source="needs_compliance",
        help_text="A bet kind's maximum RTP falls below PITBOSS_RTP_FLOOR_PERCENT or by more than a point: "
        "the proposer's reason and a compliance officer's approval come before a supervisor's.",
    )
    crossings = GuardrailCrossingSerializer(many=True)
    computing = serializers.BooleanField(help_text="Some of the odds compared are still being worked out.")
    still_needed = serializers.ListField(
        child=serializers.ChoiceField(choices=list(NEEDS)),
        help_text="In order: " + "; ".join(f"`{key}`: {text}" for key, text in NEEDS.items()) + ".",
    )


class TableConfigurationSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    rules = serializers.JSONField(read_only=True, help_text="The rule set as stored (RuleSet.to_dict).")
    created_by = serializers.CharField(
        source="created_by.username", read_only=True, help_text="Who proposed the version."
    )
    decided_by = serializers.CharField(
        source="decided_by.username",
        read_only=True,
        allow_null=True,
        help_text="The second supervisor who approved or rejected it (null while proposed, and for "
        "versions stored before change control).",
    )
    theoretical = serializers.SerializerMethodField(
        help_text="The version's theoretical RTP; null until worked out, and while figures of an older "
        "method are worked out again."
    )
    compliance_approved_by = serializers.CharField(
        source="compliance_approved_by.username",
        read_only=True,
        allow_null=True,
        help_text="The compliance officer who approved a version past the RTP guardrail.",
    )
    approvals = serializers.SerializerMethodField(
        help_text="Where a proposed version stands against the RTP guardrail and which approvals it still "
        "needs; null once decided (`needs_compliance` then says whether it crossed the guardrail)."
    )

    class Meta:
        model = TableConfiguration
        fields = [
            "id",
            "table",
            "version",
            "status",
            "valid_from",
            "requested_from",
            "rules",
            "reason",
            "created_by",
            "created_at",
            "decided_by",
            "decided_at",
            "decision_comment",
            "rtp_fall_reason",
            "needs_compliance",
            "compliance_approved_by",
            "compliance_approved_at",
            "compliance_comment",
            "approvals",
            "theoretical",
        ]
        read_only_fields = fields

    @extend_schema_field(TheoreticalOddsSerializer(allow_null=True))
    def get_theoretical(self, configuration: TableConfiguration) -> dict | None:
        odds = getattr(configuration, "odds", None)
        return TheoreticalOddsSerializer(odds.figures).data if odds and odds.current else None

    @extend_schema_field(ApprovalsSerializer(allow_null=True))
    def get_approvals(self, configuration: TableConfiguration) -> dict | None:
        if configuration.status != ConfigurationStatus.PROPOSED:
            return None
        approvals = approvals_of(configuration)
        return ApprovalsSerializer(approvals).data


class ConfigurationChangeSerializer(InputSerializer):
    changes = serializers.DictField(
        help_text='Rules to change, in the stored form, e.g. {"side_options": {"pair": {"paytable": '
        '{"mixed_pair": "6"}, "max_round": 30}}}. Odds as decimal strings or integers.'
    )
    valid_from = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="When the new version is to come into force (never in the past); at approval if that is "
        "later. Default: as soon as it is approved.",
    )
    reason = serializers.CharField(allow_blank=True, help_text="Why: kept with the version.")
    rtp_fall_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="Why an RTP falls past the guardrail, when it does (it can be given later: `fall-reason`).",
    )
    seen_version = serializers.IntegerField(
        min_value=1,
        help_text="The table's latest version number (whatever its status) your change is based on; "
        "refused if a version was proposed or decided since.",
    )


class FallReasonSerializer(InputSerializer):
    rtp_fall_reason = serializers.CharField(
        allow_blank=True, help_text="Why the version takes an RTP past the guardrail; compliance reads it."
    )


class ConfigurationDecisionSerializer(InputSerializer):
    comment = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="Kept with the decision; required to reject."
    )
