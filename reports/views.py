"""The report pages: the daily RTP report, the side-option exposure report, the archive of PDFs,
and the runs of the daily job (with a form to start one for a past day).

Every figure is read from the rows the daily job stored; nothing here aggregates bets.
"""

import hashlib
import io
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views import View
from django.views.generic import FormView

from config.forms import add_service_errors
from config.gaming_day import gaming_day, last_closed_gaming_day
from config.listing import FilteredListView

from .filtersets import (
    DailyExposureFilterSet,
    DailyFiguresFilterSet,
    ReportDocumentFilterSet,
    ReportRunFilterSet,
)
from .models import DailyExposure, DailyFigures, DailyTableSummary, ReportDocument, ReportRun, RunTrigger
from .tables import (
    DailyExposureTable,
    DailyFiguresTable,
    DailyTableSummaryTable,
    ReportDocumentTable,
    ReportRunTable,
)


class OneDayMixin:
    """A report of one gaming day: without `?day=` the latest day with stored figures."""

    day_model = DailyFigures

    def get_filterset_kwargs(self, filterset_class):
        kwargs = super().get_filterset_kwargs(filterset_class)
        if not self.request.GET.get("day"):
            latest = self.day_model.objects.aggregate(latest=Max("day"))["latest"]
            if latest is not None:
                kwargs["data"] = self.request.GET.copy()
                kwargs["data"]["day"] = latest.isoformat()
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = context["filter"].form
        day = form.cleaned_data.get("day") if form.is_valid() else None
        context["day"] = day
        if day:
            context["gaming_day"] = gaming_day(day)
            context["documents"] = ReportDocument.objects.filter(day=day).order_by("kind")
        return context


class DailyReportView(OneDayMixin, FilteredListView):
    permission_required = "reports.view_dailyfigures"
    queryset = DailyFigures.objects.select_related("table")
    filterset_class = DailyFiguresFilterSet
    table_class = DailyFiguresTable
    template_name = "reports/daily_report.html"
    title = "Daily RTP report"
    export_name = "daily-rtp"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if context.get("day"):
            summaries = DailyTableSummary.objects.filter(day=context["day"]).select_related("table")
            context["summary_table"] = DailyTableSummaryTable(summaries, orderable=False)
        return context


class ExposureReportView(OneDayMixin, FilteredListView):
    permission_required = "reports.view_dailyexposure"
    day_model = DailyExposure
    queryset = DailyExposure.objects.select_related("table")
    filterset_class = DailyExposureFilterSet
    table_class = DailyExposureTable
    template_name = "reports/exposure_report.html"
    title = "Side-option exposure report"
    export_name = "side-option-exposure"


class ReportArchiveView(FilteredListView):
    permission_required = "reports.view_reportdocument"
    queryset = ReportDocument.objects.select_related("run")
    filterset_class = ReportDocumentFilterSet
    table_class = ReportDocumentTable
    title = "Report archive"
    export_name = "report-archive"
    actions = (
        ("reports.view_dailyfigures", "reports:daily_report", "Daily RTP report"),
        ("reports.view_dailyexposure", "reports:exposure_report", "Exposure report"),
        ("reports.view_reportrun", "reports:run_list", "Runs of the daily job"),
    )


class ReportRunListView(FilteredListView):
    permission_required = "reports.view_reportrun"
    queryset = ReportRun.objects.select_related("started_by")
    filterset_class = ReportRunFilterSet
    table_class = ReportRunTable
    title = "Runs of the daily job"
    export_name = "report-runs"
    actions = (("reports.run_report", "reports:run_start", "Run the daily job for a day"),)


class ReportRunStartForm(forms.Form):
    day = forms.DateField(
        label="Gaming day",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="A gaming day that has closed. Running a day again replaces its figures and PDFs.",
    )


class ReportRunStartView(LoginRequiredMixin, PermissionRequiredMixin, FormView):
    permission_required = "reports.run_report"
    form_class = ReportRunStartForm
    template_name = "reports/run_start.html"

    def get_initial(self):
        return {"day": last_closed_gaming_day()}

    def form_valid(self, form):
        from .services import report_run_start

        try:
            run = report_run_start(
                day=form.cleaned_data["day"], trigger=RunTrigger.PORTAL, started_by=self.request.user
            )
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, f"Run {run.pk} for {run.day} started.")
        return redirect(reverse("reports:run_list"))


def document_file_response(document: ReportDocument) -> HttpResponse:
    """The stored PDF, checked against its checksum before it is handed out."""
    path = Path(settings.PITBOSS_REPORTS_DIR) / document.path
    if not path.is_file():
        return HttpResponse(f"The file of {document} is missing; run the day again.", status=410)
    content = path.read_bytes()
    if hashlib.sha256(content).hexdigest() != document.sha256:
        return HttpResponse(
            f"The file of {document} does not match its checksum; run the day again.", status=409
        )
    # The bytes that were checked, not the file again: it could change in between.
    response = FileResponse(
        io.BytesIO(content), as_attachment=True, filename=path.name, content_type="application/pdf"
    )
    response["X-Checksum-SHA256"] = document.sha256
    return response


class DocumentDownloadView(LoginRequiredMixin, PermissionRequiredMixin, View):
    permission_required = "reports.view_reportdocument"

    def get(self, request, pk: int):
        return document_file_response(get_object_or_404(ReportDocument, pk=pk))
