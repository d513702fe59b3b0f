"""Incidents in the API: list (the page's filters), read, open, notes, resume, cancel a round
(Supervisor). Bad transitions answer 409 with a message; bad input 400 naming the field."""

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, mixins, serializers, status, viewsets
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from core.api import InputSerializer, MoneyField, has_permission, validated
from core.api_decisions import TransitionRefusalMixin
from rounds import services
from rounds.choices import IncidentKind
from rounds.filtersets import IncidentFilterSet
from rounds.models import Incident, IncidentNote, Refund
from rounds.recall import archived_by_pk, incident_rounds
from tables.models import Table

from .resettlements import REFUSED
from .serializers import RoundArchiveSerializer


# Described by a pattern, not an enum: drf-spectacular names enums by field name, and "kind" already
# names the bet kinds and table-limit kinds elsewhere in the API.
@extend_schema_field(
    {
        "type": "string",
        "pattern": f"^({'|'.join(IncidentKind.values)})$",
        "description": "One of: "
        + ", ".join(f"`{value}` ({label})" for value, label in IncidentKind.choices),
    }
)
class IncidentKindField(serializers.ChoiceField):
    """An incident's kind (its schema inline: "kind" names other choice sets elsewhere in the API)."""

    def __init__(self, **kwargs):
        super().__init__(choices=IncidentKind.choices, **kwargs)


class IncidentNoteSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", read_only=True, allow_null=True)

    class Meta:
        model = IncidentNote
        fields = ["id", "author", "written_at", "text"]
        read_only_fields = fields


class RefundSerializer(serializers.ModelSerializer):
    bet = serializers.CharField(source="bet.bet_id", read_only=True)
    round = serializers.CharField(source="bet.round.round_id", read_only=True)
    kind = serializers.CharField(source="bet.kind", read_only=True)
    wagered = MoneyField(source="bet.wagered", read_only=True)
    amount = MoneyField(read_only=True)

    class Meta:
        model = Refund
        fields = ["bet", "round", "kind", "wagered", "amount", "created_at"]
        read_only_fields = fields


class ArchivedRoundSerializer(serializers.Serializer):
    round = serializers.CharField(help_text="The round's id.")
    archive = RoundArchiveSerializer()


class IncidentSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code", read_only=True)
    currency = serializers.CharField(source="table.currency", read_only=True)
    # The round as the registry keeps it (incidents(): with_round_key), archived or not.
    round = serializers.CharField(source="game_round_id", read_only=True, allow_null=True)
    opened_by = serializers.CharField(source="opened_by.username", read_only=True, allow_null=True)
    closed_by = serializers.CharField(source="closed_by.username", read_only=True, allow_null=True)
    notes = IncidentNoteSerializer(many=True, read_only=True)
    refunds = RefundSerializer(
        many=True, read_only=True, help_text="Its refunds in the database (see `archived_rounds`)."
    )
    archived_rounds = serializers.SerializerMethodField(
        help_text="Its rounds whose month is archived: their refunds went to the archive with them "
        "(`GET /api/rounds/<id>/` reads each back), with where each is and how its month comes back."
    )
    kind = IncidentKindField(read_only=True)

    @extend_schema_field(ArchivedRoundSerializer(many=True))
    def get_archived_rounds(self, incident) -> list:
        # A list's page asks for all its incidents' rounds at once (IncidentViewSet.get_serializer).
        archived = self.context.get("archived_rounds")
        rounds = incident_rounds(incident)
        if archived is None:
            archived = archived_by_pk(rounds)
        found = sorted((archived[pk] for pk in rounds if pk in archived), key=lambda pair: pair[0])
        rows = [{"round": round_id, "archive": place} for round_id, place in found]
        return ArchivedRoundSerializer(rows, many=True).data

    class Meta:
        model = Incident
        fields = [
            "id",
            "table",
            "currency",
            "kind",
            "status",
            "round",
            "opened_by",
            "opened_at",
            "closed_by",
            "closed_at",
            "notes",
            "refunds",
            "archived_rounds",
        ]
        read_only_fields = fields


class IncidentOpenSerializer(InputSerializer):
    table = serializers.CharField(help_text="The table's code.")
    kind = IncidentKindField()
    note = serializers.CharField(allow_blank=True, help_text="What happened: the first note of the timeline.")
    round = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="The affected round's id (optional)."
    )


class IncidentNoteAddSerializer(InputSerializer):
    text = serializers.CharField(allow_blank=True)


class IncidentResumeSerializer(InputSerializer):
    note = serializers.CharField(allow_blank=True, help_text="Why play can resume.")


class IncidentCancelRoundSerializer(InputSerializer):
    round = serializers.CharField(help_text="The id of a round of the incident's table.")
    reason = serializers.CharField(allow_blank=True, help_text="Why the round is cancelled.")


def incidents():
    return (
        Incident.objects.with_round_key()
        .select_related("table", "opened_by", "closed_by")
        .prefetch_related("notes__author", "refunds__bet__round", "corrections")
    )


class IncidentViewSet(
    TransitionRefusalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Incidents, newest first (filters as on the incidents page); POST opens one and pauses the table."""

    queryset = incidents()
    serializer_class = IncidentSerializer
    filterset_class = IncidentFilterSet
    ordering_fields = ["opened_at", "closed_at"]

    def get_serializer(self, *args, **kwargs):
        if kwargs.get("many") and args:
            # The archived rounds of the page's incidents, found at once, not a lookup an incident.
            incidents = list(args[0])
            context = kwargs.setdefault("context", self.get_serializer_context())
            context["archived_rounds"] = archived_by_pk(set().union(*map(incident_rounds, incidents)))
            args = (incidents, *args[1:])
        return super().get_serializer(*args, **kwargs)

    @extend_schema(request=IncidentOpenSerializer, responses={201: IncidentSerializer, **REFUSED})
    def create(self, request):
        data = validated(IncidentOpenSerializer, request)
        table = Table.objects.filter(code=data["table"]).first()
        if table is None:
            raise serializers.ValidationError({"table": [f"No table {data['table']!r}."]})
        incident = services.incident_open(
            table=table,
            kind=data["kind"],
            note=data["note"],
            opened_by=request.user,
            round_=services.round_to_correct(data["round"]) if data["round"] else None,
        )
        return Response(
            IncidentSerializer(incidents().get(pk=incident.pk)).data, status=status.HTTP_201_CREATED
        )


class IncidentNotesView(TransitionRefusalMixin, generics.ListAPIView):
    """An incident's timeline, oldest first; POST adds a note (an open incident only)."""

    queryset = IncidentNote.objects.select_related("author")
    serializer_class = IncidentNoteSerializer
    filter_backends = []

    def get_queryset(self):
        return super().get_queryset().filter(incident_id=self.kwargs["pk"])

    def list(self, request, *args, **kwargs):
        get_object_or_404(Incident, pk=self.kwargs["pk"])
        return super().list(request, *args, **kwargs)

    @extend_schema(request=IncidentNoteAddSerializer, responses={201: IncidentNoteSerializer, **REFUSED})
    def post(self, request, pk: int):
        incident = get_object_or_404(Incident, pk=pk)
        note = services.incident_note_add(
            incident=incident, author=request.user, **validated(IncidentNoteAddSerializer, request)
        )
        return Response(IncidentNoteSerializer(note).data, status=status.HTTP_201_CREATED)


class IncidentStepView(TransitionRefusalMixin, generics.GenericAPIView):
    queryset = incidents()
    serializer_class = IncidentSerializer
    permission_classes = [has_permission("rounds.change_incident")]
    filter_backends = []
    pagination_class = None


class IncidentResumeView(IncidentStepView):
    """End the incident: play resumes (the table opens again if this incident paused it)."""

    @extend_schema(request=IncidentResumeSerializer, responses={200: IncidentSerializer, **REFUSED})
    def post(self, request, pk: int):
        incident = get_object_or_404(Incident, pk=pk)
        data = validated(IncidentResumeSerializer, request)
        services.incident_resume(incident=incident, resumed_by=request.user, note=data["note"])
        return Response(IncidentSerializer(incidents().get(pk=pk)).data)


class IncidentCancelRoundView(IncidentStepView):
    """Cancel a round of the incident's table: every bet refunded what it wagered (a dealt classic
    blackjack paid 3:2 on a network failure); the incident ends cancelled."""

    @extend_schema(request=IncidentCancelRoundSerializer, responses={200: IncidentSerializer, **REFUSED})
    def post(self, request, pk: int):
        incident = get_object_or_404(Incident, pk=pk)
        data = validated(IncidentCancelRoundSerializer, request)
        services.incident_cancel_round(
            incident=incident,
            round_=services.round_to_correct(data["round"]),
            cancelled_by=request.user,
            reason=data["reason"],
        )
        return Response(IncidentSerializer(incidents().get(pk=pk)).data)


router = SimpleRouter()
router.register("incidents", IncidentViewSet, basename="incident")

urlpatterns = [
    path("incidents/<int:pk>/notes", IncidentNotesView.as_view(), name="incident-notes"),
    path("incidents/<int:pk>/resume", IncidentResumeView.as_view(), name="incident-resume"),
    path("incidents/<int:pk>/cancel-round", IncidentCancelRoundView.as_view(), name="incident-cancel-round"),
    *router.urls,
]
