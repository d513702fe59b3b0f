"""Voids in the API: list (the voids page's filters), read, propose (a supervisor), approve or reject
(another supervisor). Bad transitions answer 409 (403 for your own); bad input 400 naming the field."""

from django.db.models import OuterRef, Prefetch, Subquery
from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from accounts.second_factor import CODE_HEADER_PARAMETER, FreshCode
from core.api import InputSerializer, ModelPermissions, MoneyField, has_permission, validated
from core.api_decisions import DecisionView, TransitionRefusalMixin
from rounds import services
from rounds.filtersets import VoidFilterSet
from rounds.models import BetKey, Incident, Round, Void, VoidLine

from .resettlements import REFUSED


class VoidPermissions(ModelPermissions):
    """Reading needs view_void; proposing (POST) propose_void."""

    perms_map = {**ModelPermissions.perms_map, "POST": ["rounds.propose_void"]}


class VoidLineSerializer(serializers.ModelSerializer):
    bet = serializers.CharField(source="game_bet_id", read_only=True)  # voids_with_lines(): archived too
    reversed_returned = MoneyField(read_only=True, help_text="What the bet was returned, taken back.")
    returned_stake = MoneyField(read_only=True, help_text="What the bet wagered, given back.")
    net = MoneyField(read_only=True, help_text="Stake returned minus payout reversed.")

    class Meta:
        model = VoidLine
        fields = ["bet", "reversed_returned", "returned_stake", "net", "created_at"]
        read_only_fields = fields


class VoidSerializer(serializers.ModelSerializer):
    # The round as the registry keeps it (voids(): with_round_key), archived or not.
    round = serializers.CharField(source="game_round_id", read_only=True)
    table = serializers.CharField(source="round_table_code", read_only=True)
    currency = serializers.CharField(source="round_currency", read_only=True)
    incident = serializers.IntegerField(source="incident_id", read_only=True, allow_null=True)
    proposed_by = serializers.CharField(source="proposed_by.username", read_only=True)
    decided_by = serializers.CharField(source="decided_by.username", read_only=True, allow_null=True)

    class Meta:
        model = Void
        fields = [
            "id",
            "round",
            "table",
            "currency",
            "incident",
            "status",
            "reason",
            "proposed_by",
            "proposed_at",
            "decided_by",
            "decided_at",
            "decision_comment",
        ]
        read_only_fields = fields


class VoidDetailSerializer(VoidSerializer):
    """A void with its lines, one per bet once approved (a big round's void has thousands: the list
    leaves them out)."""

    lines = VoidLineSerializer(many=True, read_only=True)

    class Meta(VoidSerializer.Meta):
        fields = [*VoidSerializer.Meta.fields, "lines"]
        read_only_fields = fields


class VoidProposeSerializer(InputSerializer):
    round = serializers.CharField(help_text="The game server's round id (a completed round).")
    reason = serializers.CharField(allow_blank=True, help_text="The malfunction: kept with the void.")
    incident = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="The malfunction's incident (optional)."
    )


class VoidDecisionSerializer(InputSerializer):
    comment = serializers.CharField(allow_blank=True, help_text="Why: kept with the decision.")


def voids():
    return Void.objects.with_round_key().select_related("proposed_by", "decided_by")


def voids_with_lines():
    """Each line with its bet's id from the registry, which keeps it once the bet's month is archived."""
    bet_id = BetKey.objects.filter(pk=OuterRef("bet_id")).values("bet_id")[:1]
    lines = VoidLine.objects.annotate(game_bet_id=Subquery(bet_id))
    return voids().prefetch_related(Prefetch("lines", queryset=lines))


class VoidViewSet(
    TransitionRefusalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Voids, newest first (filters as on the voids page); POST proposes one."""

    queryset = voids()
    serializer_class = VoidSerializer
    filterset_class = VoidFilterSet
    permission_classes = [VoidPermissions]
    ordering_fields = ["proposed_at", "decided_at"]

    def get_queryset(self):
        return voids_with_lines() if self.action == "retrieve" else voids()

    def get_serializer_class(self):
        return VoidDetailSerializer if self.action == "retrieve" else VoidSerializer

    @extend_schema(request=VoidProposeSerializer, responses={201: VoidDetailSerializer, **REFUSED})
    def create(self, request):
        data = validated(VoidProposeSerializer, request)
        round_ = services.round_to_correct(data["round"], Round.objects.defer("document"))
        incident = None
        if data["incident"] is not None:
            incident = Incident.objects.filter(pk=data["incident"]).first()
            if incident is None:
                raise serializers.ValidationError({"incident": [f"No incident {data['incident']}."]})
        void = services.void_propose(
            round_=round_, proposed_by=request.user, reason=data["reason"], incident=incident
        )
        return Response(
            VoidDetailSerializer(voids_with_lines().get(pk=void.pk)).data, status=status.HTTP_201_CREATED
        )


@extend_schema_view(
    post=extend_schema(
        request=VoidDecisionSerializer,
        responses={200: VoidDetailSerializer, **REFUSED},
        parameters=[CODE_HEADER_PARAMETER],
    )
)
class VoidDecisionView(DecisionView):
    queryset = voids_with_lines()
    serializer_class = VoidDetailSerializer
    permission_classes = [has_permission("rounds.decide_void"), FreshCode]
    decision_serializer = VoidDecisionSerializer
    proposal_argument = "void"


class VoidApproveView(VoidDecisionView):
    """Approve: one line per bet (its payout reversed, its stake returned) and the round's correction."""

    decide = staticmethod(services.void_approve)


class VoidRejectView(VoidDecisionView):
    """Reject the proposal; nothing is voided."""

    decide = staticmethod(services.void_reject)


router = SimpleRouter()
router.register("voids", VoidViewSet, basename="void")

urlpatterns = [
    path("voids/<int:pk>/approve", VoidApproveView.as_view(), name="void-approve"),
    path("voids/<int:pk>/reject", VoidRejectView.as_view(), name="void-reject"),
    *router.urls,
]
