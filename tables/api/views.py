"""Thin API views over tables: declare queryset, filterset and serializers; writes call the services."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, mixins, status, viewsets
from rest_framework.response import Response

from accounts.second_factor import CODE_HEADER_PARAMETER, FreshCode
from core.api import has_permission, validated
from core.api_decisions import DecisionView, TransitionRefusalMixin
from tables import services
from tables.filtersets import TableConfigurationFilterSet, TableFilterSet, TableStatusChangeFilterSet
from tables.guardrail import APPROVE_RTP_FALL
from tables.models import Table, TableConfiguration, TableStatusChange
from tables.selectors import with_dealers

from .serializers import (
    ConfigurationChangeSerializer,
    ConfigurationDecisionSerializer,
    FallReasonSerializer,
    TableConfigurationSerializer,
    TableCreateSerializer,
    TableSerializer,
    TableStatusChangeSerializer,
    TableStatusSetSerializer,
    TableUpdateSerializer,
)

TABLE_CODE = "[A-Za-z0-9]+"


class TableViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Tables: list (filters as on the tables page), create, read, and change name, studio or dealer."""

    queryset = Table.objects.all()
    serializer_class = TableSerializer
    filterset_class = TableFilterSet
    ordering_fields = ["code", "name", "game", "currency", "studio", "status", "created_at"]
    lookup_field = "code"
    lookup_value_regex = TABLE_CODE

    def get_queryset(self):
        return with_dealers(super().get_queryset())

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer})
    def create(self, request):
        table = services.table_create(**validated(TableCreateSerializer, request), created_by=request.user)
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TableUpdateSerializer, responses={200: TableSerializer})
    def partial_update(self, request, code: str):
        table = self.get_object()
        data = dict(validated(TableUpdateSerializer, request))
        table = services.table_update(table=table, changed_by=request.user, **data)
        return Response(TableSerializer(table).data)


class TableNestedMixin:
    """An endpoint under /api/tables/<code>/: its own model's permissions, then the table (404 if none)."""

    def get_table(self) -> Table:
        return get_object_or_404(Table, code=self.kwargs["code"])

    def get_queryset(self):
        return super().get_queryset().filter(table__code=self.kwargs["code"])

    def list(self, request, *args, **kwargs):
        self.get_table()
        return super().list(request, *args, **kwargs)


class TableStatusView(generics.GenericAPIView):
    """Open, pause or close a table; the change goes into its availability log."""

    queryset = TableStatusChange.objects.select_related("table", "changed_by")
    serializer_class = TableStatusChangeSerializer
    filter_backends = []
    pagination_class = None

    @extend_schema(request=TableStatusSetSerializer, responses={201: TableStatusChangeSerializer})
    def post(self, request, code: str):
        table = get_object_or_404(Table, code=code)
        change = services.table_set_status(
            table=table, changed_by=request.user, **validated(TableStatusSetSerializer, request)
        )
        return Response(TableStatusChangeSerializer(change).data, status=status.HTTP_201_CREATED)


class TableStatusChangeListView(TableNestedMixin, generics.ListAPIView):
    """A table's availability log, newest first."""

    queryset = TableStatusChange.objects.select_related("table", "changed_by")
    serializer_class = TableStatusChangeSerializer
    filterset_class = TableStatusChangeFilterSet
    ordering_fields = ["changed_at"]


CONFIGURATIONS = TableConfiguration.objects.select_related(
    "table", "created_by", "decided_by", "compliance_approved_by", "odds"
)


class TableConfigurationListView(TableNestedMixin, generics.ListAPIView):
    """A table's configuration versions, newest first; POST proposes a new version (in force only once a
    second supervisor approves it)."""

    queryset = CONFIGURATIONS
    serializer_class = TableConfigurationSerializer
    filterset_class = TableConfigurationFilterSet
    ordering_fields = ["version", "valid_from"]

    @extend_schema(request=ConfigurationChangeSerializer, responses={201: TableConfigurationSerializer})
    def post(self, request, code: str):
        table = self.get_table()
        configuration = services.configuration_propose(
            table=table, proposed_by=request.user, **validated(ConfigurationChangeSerializer, request)
        )
        return Response(
            TableConfigurationSerializer(CONFIGURATIONS.get(pk=configuration.pk)).data,
            status=status.HTTP_201_CREATED,
        )


REFUSED = {
    400: OpenApiResponse(description="Bad input: the field and why."),
    403: OpenApiResponse(
        description="Not your role's step, deciding your own proposal, or deciding without a fresh code "
        "from your authenticator (the Pitboss-Code header)."
    ),
    409: OpenApiResponse(
        description="The version does not allow this step now: decided already, its odds still being "
        "computed, or an approval of the RTP guardrail missing or not needed."
    ),
}


@extend_schema_view(
    post=extend_schema(
        request=ConfigurationDecisionSerializer,
        responses={200: TableConfigurationSerializer, **REFUSED},
        parameters=[CODE_HEADER_PARAMETER],
    )
)
class ConfigurationDecisionView(DecisionView):
    queryset = CONFIGURATIONS
    serializer_class = TableConfigurationSerializer
    permission_classes = [has_permission("tables.decide_tableconfiguration"), FreshCode]
    decision_serializer = ConfigurationDecisionSerializer
    proposal_argument = "configuration"


class ConfigurationApproveView(ConfigurationDecisionView):
    """Approve a proposed version (a supervisor who did not propose it, once its odds are worked out): it
    comes into force at the time asked for, or now if that has passed."""

    decide = staticmethod(services.configuration_approve)


class ConfigurationRejectView(ConfigurationDecisionView):
    """Reject a proposed version, with a comment; it never comes into force."""

    decide = staticmethod(services.configuration_reject)


class ComplianceDecisionView(ConfigurationDecisionView):
    permission_classes = [has_permission(APPROVE_RTP_FALL), FreshCode]


class ConfigurationComplianceApproveView(ComplianceDecisionView):
    """A compliance officer (not the proposer) approves a version past the RTP guardrail, once its proposer
    said why the RTP falls; a supervisor's approval then puts it in force."""

    decide = staticmethod(services.configuration_compliance_approve)


class ConfigurationComplianceRejectView(ComplianceDecisionView):
    """A compliance officer (not the proposer) rejects a version past the RTP guardrail, with a comment."""

    decide = staticmethod(services.configuration_compliance_reject)


@extend_schema_view(
    post=extend_schema(request=FallReasonSerializer, responses={200: TableConfigurationSerializer, **REFUSED})
)
class ConfigurationFallReasonView(TransitionRefusalMixin, generics.GenericAPIView):
    """The proposer says why their proposed version takes an RTP past the guardrail (again, until a
    compliance officer approves it)."""

    queryset = CONFIGURATIONS
    serializer_class = TableConfigurationSerializer
    permission_classes = [has_permission("tables.add_tableconfiguration")]
    filter_backends = []
    pagination_class = None

    def post(self, request, pk: int):
        configuration = get_object_or_404(TableConfiguration, pk=pk)
        services.configuration_explain_fall(
            configuration=configuration,
            proposer=request.user,
            reason=validated(FallReasonSerializer, request)["rtp_fall_reason"],
        )
        return Response(self.get_serializer(self.get_queryset().get(pk=pk)).data)


class TableConfigurationViewSet(viewsets.ReadOnlyModelViewSet):
    """Every table's configuration versions (filters as on the configurations page)."""

    queryset = CONFIGURATIONS
    serializer_class = TableConfigurationSerializer
    filterset_class = TableConfigurationFilterSet
    ordering_fields = ["version", "valid_from", "created_at"]
