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

from accounts.second_factor import CODE_HEADER_PARAMETER, FreshCode
from core.api import ModelPermissions, has_permission, validated
from core.api_decisions import TransitionRefusalMixin
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
from reports.sign_off import SIGN, report_sign
from reports.views import document_file_response

from .serializers import (
    DailyExposureSerializer,
    DailyFiguresSerializer,
    DailyTableSummarySerializer,
    ReportDocumentSerializer,
    ReportRunSerializer,
    ReportRunStartSerializer,
    ReportSignSerializer,
)

SIGN_REFUSED = {
    400: OpenApiResponse(description="No comment, or a run of figures only: the field and why."),
    403: OpenApiResponse(
        description="Only compliance signs a run off, with a fresh code from their authenticator "
        "(the Pitboss-Code header)."
    ),
    409: OpenApiResponse(description="The run is signed already, superseded, running or failed."),
}


class ReportRunViewSet(
    TransitionRefusalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Runs of the daily job, newest first; POST starts one for a gaming day that has closed (with a
    `reason` once a run of the day is signed); POST `sign/`: compliance signs the run off."""

    queryset = ReportRun.objects.select_related("started_by", "sign_off__signed_by")
    serializer_class = ReportRunSerializer
    filterset_class = ReportRunFilterSet
    ordering_fields = ["started_at", "day"]

    def get_permissions(self):
        if self.action == "create":
            return [has_permission("reports.run_report")()]
        if self.action == "sign":
            return [has_permission(SIGN)(), FreshCode()]
        return [ModelPermissions()]

    @extend_schema(request=ReportRunStartSerializer, responses={202: ReportRunSerializer})
    def create(self, request):
        from reports.services import report_run_start

        data = validated(ReportRunStartSerializer, request)
        run = report_run_start(
            day=data["day"], trigger=RunTrigger.API, started_by=request.user, reason=data["reason"]
        )
        run.refresh_from_db()
        return Response(ReportRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=ReportSignSerializer,
        responses={200: ReportRunSerializer, **SIGN_REFUSED},
        filters=False,
        parameters=[CODE_HEADER_PARAMETER],
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def sign(self, request, pk=None):
        """Sign the day's current run off (compliance; its starter may): once, never withdrawn. The
        signed edition of its PDFs is made after, beside the first."""
        run = self.get_object()  # REST framework's: a pk that is no number is a 404
        comment = validated(ReportSignSerializer, request)["comment"]
        report_sign(run=run, signed_by=request.user, comment=comment)
        return Response(ReportRunSerializer(self.get_queryset().get(pk=run.pk)).data)


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
