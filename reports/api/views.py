"""The reports in the API: the stored daily figures (read), the runs of the daily job (read, and
POST to start one for a closed gaming day), and the PDFs (list and download).

The figures' lists give each day's current run's rows unless `run=<id>` asks for another run's: a
day run again is never listed twice. The PDFs' list gives every run's (`current=true`: only the
current runs')."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.api import ModelPermissions, has_permission, validated
from reports.filtersets import (
    DailyExposureFilterSet,
    DailyFiguresFilterSet,
    DailyTableSummaryFilterSet,
    ReportDocumentFilterSet,
    ReportRunFilterSet,
)
from reports.models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportDocument,
    ReportRun,
    RunTrigger,
)
from reports.views import document_file_response

from .serializers import (
    DailyExposureSerializer,
    DailyFiguresSerializer,
    DailyTableSummarySerializer,
    ReportDocumentSerializer,
    ReportRunSerializer,
    ReportRunStartSerializer,
)


class ReportRunViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Runs of the daily job, newest first; POST starts one for a gaming day that has closed."""

    queryset = ReportRun.objects.select_related("started_by")
    serializer_class = ReportRunSerializer
    filterset_class = ReportRunFilterSet
    ordering_fields = ["started_at", "day"]

    def get_permissions(self):
        if self.action == "create":
            return [has_permission("reports.run_report")()]
        return [ModelPermissions()]

    @extend_schema(request=ReportRunStartSerializer, responses={202: ReportRunSerializer})
    def create(self, request):
        from reports.services import report_run_start

        day = validated(ReportRunStartSerializer, request)["day"]
        run = report_run_start(day=day, trigger=RunTrigger.API, started_by=request.user)
        run.refresh_from_db()
        return Response(ReportRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)


class DailyFiguresViewSet(viewsets.ReadOnlyModelViewSet):
    """The daily RTP report's rows: per table and bet kind, and totals per game and currency; each
    day's current run's, or `run`'s."""

    queryset = DailyFigures.objects.all()
    serializer_class = DailyFiguresSerializer
    filterset_class = DailyFiguresFilterSet
    ordering_fields = ["day", "table_code", "kind", "observed_rtp"]


class DailyTableSummaryViewSet(viewsets.ReadOnlyModelViewSet):
    """Per table and gaming day: rounds by outcome, refunds and voids, limit and money findings,
    findings by code, and the RTP flag; each day's current run's, or `run`'s."""

    queryset = DailyTableSummary.objects.select_related("table")
    serializer_class = DailyTableSummarySerializer
    filterset_class = DailyTableSummaryFilterSet
    ordering_fields = ["day"]


class DailyExposureViewSet(viewsets.ReadOnlyModelViewSet):
    """The side-option exposure report's rows, per table and side option; each day's current run's,
    or `run`'s."""

    queryset = DailyExposure.objects.select_related("table")
    serializer_class = DailyExposureSerializer
    filterset_class = DailyExposureFilterSet
    ordering_fields = ["day", "liability_total", "peak_liability"]


class ReportDocumentViewSet(viewsets.ReadOnlyModelViewSet):
    """Every run's report PDFs, with their checksums; `download` gives the file."""

    queryset = ReportDocument.objects.all()
    serializer_class = ReportDocumentSerializer
    filterset_class = ReportDocumentFilterSet
    ordering_fields = ["day", "generated_at"]

    @extend_schema(
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF."),
            404: OpenApiResponse(description="No such document."),
            409: OpenApiResponse(description="The file does not match its checksum."),
            410: OpenApiResponse(description="The file is missing."),
        }
    )
    @action(detail=True, methods=["get"])
    def download(self, request, pk=None):
        return document_file_response(self.get_object())
