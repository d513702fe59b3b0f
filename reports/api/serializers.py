from rest_framework import serializers

from core.api import InputSerializer, MoneyField

from ..models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportDocument,
    ReportRun,
    ReportSignOff,
)

# As wide as the stored figure (reports.models.percent: no fixed width).
PERCENT = {"max_digits": None, "decimal_places": 4, "read_only": True, "allow_null": True}


class ReportSignOffSerializer(serializers.ModelSerializer):
    signed_by = serializers.CharField(source="signed_by.username", read_only=True)

    class Meta:
        model = ReportSignOff
        fields = ["signed_by", "signed_at", "comment"]
        read_only_fields = fields


class ReportRunSerializer(serializers.ModelSerializer):
    started_by = serializers.CharField(source="started_by.username", read_only=True, allow_null=True)
    seconds = serializers.FloatField(read_only=True, allow_null=True)
    sign_off = ReportSignOffSerializer(
        read_only=True, allow_null=True, help_text="Compliance's sign-off; null when not signed."
    )

    class Meta:
        model = ReportRun
        fields = [
            "id",
            "day",
            "trigger",
            "started_by",
            "started_at",
            "finished_at",
            "seconds",
            "status",
            "error",
            "time_zone",
            "cutoff",
            "tables",
            "number",
            "figures_sha256",
            "superseded_by",
            "superseded_at",
            "figures_only",
            "reason",
            "sign_off",
        ]
        read_only_fields = fields


class ReportRunStartSerializer(InputSerializer):
    day = serializers.DateField(help_text="A gaming day that has closed (YYYY-MM-DD).")
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the day is run again: required once compliance has signed a run of the day.",
    )


class ReportSignSerializer(InputSerializer):
    comment = serializers.CharField(help_text="What you checked; kept with your name and the time.")


class DailyFiguresSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table_code", help_text='The table code; "" for a game total.')
    wagered = MoneyField(read_only=True, help_text="The handle.")
    returned = MoneyField(read_only=True, help_text="Returned as settled, with approved adjustments.")
    gross_gaming_revenue = MoneyField(read_only=True)
    observed_rtp = serializers.DecimalField(**PERCENT)
    theoretical_rtp = serializers.DecimalField(**PERCENT)
    difference = serializers.DecimalField(**PERCENT)
    ci95_low = serializers.DecimalField(**PERCENT)
    ci95_high = serializers.DecimalField(**PERCENT)
    ci99_low = serializers.DecimalField(**PERCENT)
    ci99_high = serializers.DecimalField(**PERCENT)

    class Meta:
        model = DailyFigures
        fields = [
            "day",
            "table",
            "game",
            "currency",
            "kind",
            "rounds",
            "bets",
            "players",
            "wagered",
            "returned",
            "gross_gaming_revenue",
            "observed_rtp",
            "theoretical_rtp",
            "difference",
            "ci95_low",
            "ci95_high",
            "ci99_low",
            "ci99_high",
            "interval_method",
            "outside_99",
            "run",
        ]
        read_only_fields = fields


class BeyondPaytableSerializer(serializers.Serializer):
    """A bet reported returning more than the best outcome of its kind pays (reports.beyond_paytable)."""

    bet = serializers.CharField(help_text="The bet's id.")
    round = serializers.CharField(help_text="Its round's id.")
    kind = serializers.CharField()
    wagered = MoneyField(read_only=True)
    returned = MoneyField(read_only=True, help_text="As the game server reported it.")
    most = MoneyField(read_only=True, help_text="The most the kind's best outcome pays on what it wagered.")


class DailyTableSummarySerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    refunded = MoneyField(read_only=True)
    voided_reversed = MoneyField(read_only=True)
    voided_stakes_returned = MoneyField(read_only=True)
    flagged = serializers.BooleanField(
        read_only=True, help_text="The RTP flag: a bet kind's theoretical RTP outside its 99% interval."
    )
    finding_codes = serializers.DictField(child=serializers.IntegerField(), read_only=True)
    beyond_paytable_bets = BeyondPaytableSerializer(many=True, read_only=True)

    class Meta:
        model = DailyTableSummary
        fields = [
            "day",
            "table",
            "game",
            "currency",
            "rounds",
            "cancelled_rounds",
            "voided_rounds",
            "resettled_rounds",
            "resettlements",
            "refunds",
            "refunded",
            "voided_reversed",
            "voided_stakes_returned",
            "findings",
            "limit_findings",
            "money_findings",
            "finding_codes",
            "configuration_versions",
            "kinds_outside_99",
            "flagged",
            "beyond_paytable",
            "beyond_paytable_bets",
            "run",
        ]
        read_only_fields = fields


class PatternHitsSerializer(serializers.Serializer):
    """Hits, expected hits and the p-value of the exact binomial test, all in `unit`: "bet", or
    "round" where the bets of a round share their cards; `trials` of that unit were staked."""

    pattern = serializers.CharField()
    hits = serializers.IntegerField()
    expected = serializers.FloatField(allow_null=True)
    p_value = serializers.FloatField(allow_null=True)
    unit = serializers.ChoiceField(choices=["bet", "round"], required=False)
    trials = serializers.IntegerField(required=False)
    bets_hit = serializers.IntegerField(required=False)


class PlayerLiabilitySerializer(serializers.Serializer):
    player = serializers.CharField()
    bets = serializers.IntegerField()
    stakes = serializers.CharField()
    liability = serializers.CharField()


class DailyExposureSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    stakes = MoneyField(read_only=True)
    returned = MoneyField(read_only=True)
    observed_rtp = serializers.DecimalField(**PERCENT)
    theoretical_rtp = serializers.DecimalField(**PERCENT)
    liability_total = MoneyField(read_only=True)
    peak_liability = MoneyField(read_only=True)
    after_max_round_stakes = MoneyField(read_only=True)
    top_players = PlayerLiabilitySerializer(many=True, read_only=True)
    pattern_hits = PatternHitsSerializer(many=True, read_only=True)

    class Meta:
        model = DailyExposure
        fields = [
            "day",
            "table",
            "game",
            "currency",
            "kind",
            "bets",
            "stakes",
            "returned",
            "observed_rtp",
            "theoretical_rtp",
            "liability_total",
            "peak_round_id",
            "peak_liability",
            "top_players",
            "pattern_hits",
            "after_max_round_bets",
            "after_max_round_stakes",
            "run",
        ]
        read_only_fields = fields


class ReportDocumentSerializer(serializers.ModelSerializer):
    download = serializers.SerializerMethodField()

    class Meta:
        model = ReportDocument
        fields = ["id", "day", "kind", "signed", "sha256", "size", "pages", "generated_at", "run", "download"]
        read_only_fields = fields

    def get_download(self, document) -> str:
        from django.urls import reverse

        request = self.context.get("request")
        url = reverse("api:reportdocument-download", args=[document.pk])
        return request.build_absolute_uri(url) if request else url
