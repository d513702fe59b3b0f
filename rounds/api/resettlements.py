"""Re-settlements in the API: list (the page's filters), read, propose (Compliance), approve or
reject (a Supervisor who did not propose it). Bad transitions answer 409 (403 for your own)."""

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from accounts.second_factor import CODE_HEADER_PARAMETER, FreshCode
from core.api import (
    InputSerializer,
    MoneyField,
    has_permission,
    validated,
)
from core.api_decisions import DecisionView, TransitionRefusalMixin
from rounds import services
from rounds.filtersets import ResettlementFilterSet
from rounds.models import Adjustment, Resettlement

REFUSED = {
    400: OpenApiResponse(description="Bad input: the field and why."),
    403: OpenApiResponse(
        description="Not allowed, deciding your own proposal, or deciding without a fresh code from your "
        "authenticator (the Pitboss-Code header)."
    ),
    409: OpenApiResponse(description="The re-settlement or round does not allow this step."),
}


class AdjustmentSerializer(serializers.ModelSerializer):
    bet = serializers.CharField(source="bet.bet_id", read_only=True)
    amount = MoneyField(read_only=True)

    class Meta:
        model = Adjustment
        fields = ["bet", "amount", "created_at"]
        read_only_fields = fields


class ResettlementSerializer(serializers.ModelSerializer):
    # The round as the registry keeps it (resettlements(): with_round_key), archived or not.
    round = serializers.CharField(source="game_round_id", read_only=True)
    table = serializers.CharField(source="round_table_code", read_only=True)
    currency = serializers.CharField(source="round_currency", read_only=True)
    proposed_by = serializers.CharField(source="proposed_by.username", read_only=True)
    decided_by = serializers.CharField(source="decided_by.username", read_only=True, allow_null=True)
    adjustments = AdjustmentSerializer(many=True, read_only=True)

    class Meta:
        model = Resettlement
        fields = [
            "id",
            "round",
            "table",
            "currency",
            "status",
            "reason",
            "proposed_by",
            "proposed_at",
            "decided_by",
            "decided_at",
            "decision_comment",
            "adjustments",
        ]
        read_only_fields = fields


class ResettlementProposeSerializer(InputSerializer):
    round = serializers.CharField(help_text="The game server's round id.")
    reason = serializers.CharField(allow_blank=True, help_text="Why: kept with the re-settlement.")


class ResettlementDecisionSerializer(InputSerializer):
    comment = serializers.CharField(allow_blank=True, help_text="Why: kept with the decision.")


def resettlements():
    return (
        Resettlement.objects.with_round_key()
        .select_related("proposed_by", "decided_by")
        .prefetch_related("adjustments__bet")
    )


class ResettlementViewSet(
    TransitionRefusalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Re-settlements, newest first (filters as on the re-settlements page); POST proposes one."""

    queryset = resettlements()
    serializer_class = ResettlementSerializer
    filterset_class = ResettlementFilterSet
    ordering_fields = ["proposed_at", "decided_at"]

    @extend_schema(request=ResettlementProposeSerializer, responses={201: ResettlementSerializer, **REFUSED})
    def create(self, request):
        data = validated(ResettlementProposeSerializer, request)
        resettlement = services.resettlement_propose(
            round_=services.round_to_correct(data["round"]), proposed_by=request.user, reason=data["reason"]
        )
        return Response(
            ResettlementSerializer(resettlements().get(pk=resettlement.pk)).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema_view(
    post=extend_schema(
        request=ResettlementDecisionSerializer,
        responses={200: ResettlementSerializer, **REFUSED},
        parameters=[CODE_HEADER_PARAMETER],
    )
)
class ResettlementDecisionView(DecisionView):
    queryset = resettlements()
    serializer_class = ResettlementSerializer
    permission_classes = [has_permission("rounds.decide_resettlement"), FreshCode]
    decision_serializer = ResettlementDecisionSerializer
    proposal_argument = "resettlement"


class ResettlementApproveView(ResettlementDecisionView):
    """Approve: one adjustment per bet whose computed returned differs (computed − reported)."""

    decide = staticmethod(services.resettlement_approve)


class ResettlementRejectView(ResettlementDecisionView):
    """Reject the proposal; nothing is adjusted."""

    decide = staticmethod(services.resettlement_reject)


router = SimpleRouter()
router.register("resettlements", ResettlementViewSet, basename="resettlement")

urlpatterns = [
    path("resettlements/<int:pk>/approve", ResettlementApproveView.as_view(), name="resettlement-approve"),
    path("resettlements/<int:pk>/reject", ResettlementRejectView.as_view(), name="resettlement-reject"),
    *router.urls,
]
