"""The alerts in the API, read only: alerts (the list page's filters; one alert with its timeline) and
the reportable faults. Times in UTC; amounts decimal strings."""

from rest_framework import serializers, viewsets

from core.api import MoneyField

from .choices import ResolutionLink
from .filtersets import AlertFilterSet, FaultFilterSet
from .models import Alert, AlertEvent, ReportableFault

NUMBER = {"max_digits": 20, "decimal_places": 4, "coerce_to_string": True, "read_only": True}
USER = {"read_only": True, "allow_null": True}


class AlertEventSerializer(serializers.ModelSerializer):
    by = serializers.CharField(
        source="by.username", read_only=True, allow_null=True, help_text="Null: the monitors."
    )

    class Meta:
        model = AlertEvent
        fields = ["kind", "at", "by", "note", "recipients"]
        read_only_fields = fields


class AlertSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    measure = serializers.DecimalField(**NUMBER)
    threshold = serializers.DecimalField(**NUMBER, help_text="The threshold the measure crossed.")
    figures = serializers.DictField(read_only=True, help_text="The latest occurrence's figures.")
    acknowledged_by = serializers.CharField(source="acknowledged_by.username", **USER)
    claimed_by = serializers.CharField(source="claimed_by.username", **USER)
    resolved_by = serializers.CharField(source="resolved_by.username", **USER)
    resolution_link = serializers.ChoiceField(
        choices=[("", "Not resolved"), *ResolutionLink.choices],
        read_only=True,
        help_text="What the resolution points to; empty while unresolved.",
    )

    class Meta:
        model = Alert
        fields = [
            "id",
            "table",
            "monitor",
            "subject",
            "severity",
            "status",
            "summary",
            "measure",
            "threshold",
            "figures",
            "occurrences",
            "first_seen",
            "last_seen",
            "escalate_at",
            "acknowledged_by",
            "acknowledged_at",
            "claimed_by",
            "claimed_at",
            "resolved_by",
            "resolved_at",
            "resolution_note",
            "resolution_link",
            "resolution_ref",
        ]
        read_only_fields = fields


class AlertDetailSerializer(AlertSerializer):
    events = AlertEventSerializer(many=True, read_only=True, help_text="Its timeline, oldest first.")

    class Meta(AlertSerializer.Meta):
        fields = [*AlertSerializer.Meta.fields, "events"]
        read_only_fields = fields


class AlertViewSet(viewsets.ReadOnlyModelViewSet):
    """Alerts, the latest seen first (filters as on the alerts page); one alert with its timeline."""

    queryset = Alert.objects.select_related("table", "acknowledged_by", "claimed_by", "resolved_by")
    filterset_class = AlertFilterSet
    ordering_fields = ["last_seen", "first_seen", "severity"]
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        if self.action == "retrieve":
            return super().get_queryset().prefetch_related("events__by")
        return super().get_queryset()

    def get_serializer_class(self):
        return AlertDetailSerializer if self.action == "retrieve" else AlertSerializer


class FaultSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    wagered = MoneyField(read_only=True)
    returned = MoneyField(read_only=True)
    net = MoneyField(read_only=True, help_text="Wagered − returned.")
    marked_by = serializers.CharField(source="marked_by.username", read_only=True)

    class Meta:
        model = ReportableFault
        fields = [
            "id",
            "alert",
            "table",
            "game",
            "what_happened",
            "found_at",
            "affected_from",
            "affected_to",
            "rounds",
            "players",
            "wagered",
            "returned",
            "net",
            "currency",
            "marked_by",
            "marked_at",
        ]
        read_only_fields = fields


class FaultViewSet(viewsets.ReadOnlyModelViewSet):
    """Reportable faults, the latest marked first (filters as on their page)."""

    queryset = ReportableFault.objects.select_related("table", "marked_by")
    serializer_class = FaultSerializer
    filterset_class = FaultFilterSet
    ordering_fields = ["marked_at", "found_at"]
    lookup_value_regex = "[0-9]+"
