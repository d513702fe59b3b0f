"""The operator's published RTPs in the API (tables.published): the figures of record, a row per bet kind
of each version in force or approved to start later (filters as on the list page, and `configuration`
for any one version), and compliance's entry of a figure. The service decides and refuses."""

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response

from blackjack.rules import BET_KIND_LABELS
from core.api import InputSerializer, has_permission, validated
from core.filters import MAX_KEY
from tables.filtersets import PublishedFigureApiFilterSet
from tables.models import PublishedRtp, TableConfiguration
from tables.published import ENTER, published_rtp_enter, watched_configurations

VIEW = "tables.view_publishedrtp"
PERCENT = {"max_digits": 7, "decimal_places": 4, "coerce_to_string": True, "read_only": True}
SHEET_PERCENT = {**PERCENT, "max_digits": 5, "decimal_places": 2}


class PublishedRtpSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="configuration.table.code", read_only=True)
    version = serializers.IntegerField(source="configuration.version", read_only=True)
    entered_by = serializers.CharField(
        source="entered_by.username",
        read_only=True,
        allow_null=True,
        help_text="Null for a figure the game's preset held before figures were entered.",
    )
    # Not a URLField: blank when none was given, which `format: uri` would refuse.
    source_url = serializers.CharField(read_only=True, help_text="The document's address; blank: none given.")
    carried_from = serializers.IntegerField(
        source="carried_from_id",
        read_only=True,
        allow_null=True,
        help_text="The entry of an earlier version this one was carried from, at this version's approval "
        "(the kind's computed RTP unchanged).",
    )

    class Meta:
        model = PublishedRtp
        fields = [
            "id",
            "configuration",
            "table",
            "version",
            "kind",
            "rtp",
            "source_document",
            "source_url",
            "published_on",
            "entered_by",
            "entered_at",
            "carried_from",
        ]
        read_only_fields = fields


class FigureOfRecordSerializer(serializers.Serializer):
    table = serializers.CharField(source="table.code", read_only=True)
    configuration = serializers.IntegerField(source="configuration.pk", read_only=True)
    version = serializers.IntegerField(source="configuration.version", read_only=True)
    kind = serializers.ChoiceField(choices=list(BET_KIND_LABELS.items()), read_only=True)
    computed_rtp = serializers.DecimalField(
        source="computed",
        allow_null=True,
        help_text="The maximum RTP (best play), in percent; null while the version's odds are worked out.",
        **PERCENT,
    )
    published = PublishedRtpSerializer(
        read_only=True, allow_null=True, help_text="The figure of record: the latest entry; null: none."
    )
    stated_rtp = serializers.DecimalField(
        source="stated",
        allow_null=True,
        help_text="What the players' sheet states: the published figure when at or below the computed one, "
        "else the computed one rounded down to two places.",
        **SHEET_PERCENT,
    )
    above_the_game = serializers.BooleanField(
        read_only=True, help_text="The published figure is above the computed maximum RTP."
    )


class PublishedRtpEnterSerializer(InputSerializer):
    configuration = serializers.IntegerField(
        min_value=1, max_value=MAX_KEY, help_text="The configuration version's id."
    )
    kind = serializers.ChoiceField(
        choices=list(BET_KIND_LABELS.items()), help_text="A kind the version offers."
    )
    rtp = serializers.DecimalField(
        max_digits=5, decimal_places=2, help_text="In percent, as published: above 0, at most 100."
    )
    source_document = serializers.CharField(max_length=200, help_text="The document: its title and edition.")
    source_url = serializers.URLField(max_length=500, required=False, allow_blank=True, default="")
    published_on = serializers.DateField(help_text="The document's date: today or earlier.")


class PublishedRtpListView(generics.ListAPIView):
    """The figures of record of every version in force or approved to start later (or of one version:
    `configuration`), by table, version and the rules' order of kinds. POST (compliance) enters a
    published figure: the version's figure of record for the kind from then on."""

    serializer_class = FigureOfRecordSerializer
    filterset_class = PublishedFigureApiFilterSet
    filter_backends = [DjangoFilterBackend]

    def get_permissions(self):
        return [has_permission(ENTER if self.request.method == "POST" else VIEW)()]

    def get_queryset(self):
        if "configuration" in self.request.query_params:
            return TableConfiguration.objects.all()
        return watched_configurations()

    def filter_queryset(self, queryset):
        """The rows of the versions the filters pick (PublishedFigureFilterSet.rows); 400 naming a
        refused filter."""
        filterset = self.filterset_class(self.request.query_params, queryset=queryset, request=self.request)
        if not filterset.is_valid():
            raise serializers.ValidationError(
                {name: list(errors) for name, errors in filterset.errors.items()}
            )
        return filterset.rows()

    @extend_schema(request=PublishedRtpEnterSerializer, responses={201: PublishedRtpSerializer})
    def post(self, request):
        data = dict(validated(PublishedRtpEnterSerializer, request))
        configuration = TableConfiguration.objects.filter(pk=data.pop("configuration")).first()
        if configuration is None:
            raise serializers.ValidationError({"configuration": ["No configuration version has this id."]})
        entry = published_rtp_enter(configuration=configuration, entered_by=request.user, **data)
        entry = PublishedRtp.objects.select_related("configuration__table", "entered_by").get(pk=entry.pk)
        return Response(PublishedRtpSerializer(entry).data, status=status.HTTP_201_CREATED)
