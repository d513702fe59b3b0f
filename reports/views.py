"""The report pages: the daily RTP report, the side-option exposure report, the archive of PDFs,
and the runs of the daily job (with a form to start one for a past day).

Every figure is read from the rows a run of the daily job stored; nothing here aggregates bets. A
report page shows one run's figures: `?run=` names it, else the current run of `?day=` (by default
the latest day that has one); it names the run, says when a newer run superseded it or a correction
recorded after it started makes it stale, and offers to run the day again.
"""

import hashlib
import io
from datetime import date
from functools import cached_property
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.csp import CSP
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.csp import csp_override

from core.filters import positive_number
from core.form_views import ServiceFormView
from core.forms import IsoDateInput
from core.gaming_day import GamingDay, last_closed_gaming_day
from core.listing import FilteredListView
from core.replica import ReplicaReadsMixin
from core.views import PermissionRequiredMixin

from .filtersets import (
    DailyExposureFilterSet,
    DailyFiguresFilterSet,
    ReportDocumentFilterSet,
    ReportRunFilterSet,
)
from .models import (
    TREND_WINDOWS,
    ChartSubject,
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportChart,
    ReportDocument,
    ReportRun,
    RunTrigger,
)
from .records import current_run, latest_current_run, run_documents, run_standing
from .run_views import sign_off_context
from .tables import (
    DailyExposureTable,
    DailyFiguresTable,
    DailyTableSummaryTable,
    ReportDocumentTable,
    ReportRunTable,
)


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None  # the filter form names the field


class OneRunMixin:
    """A report of one run: `?run=` (of `?day=`, when both are given), else the current run of `?day=`,
    by default the latest day that has one."""

    @cached_property
    def report_run(self) -> ReportRun | None:
        day, number = _day(self.request.GET.get("day")), positive_number(self.request.GET.get("run"))
        if number is not None:
            named = ReportRun.objects.select_related("started_by").filter(pk=number).first()
            if named is not None and day in (None, named.day):
                return named
        return current_run(day) if day else latest_current_run()

    def get_queryset(self):
        rows = super().get_queryset()
        return rows.filter(run=self.report_run) if self.report_run else rows.none()

    def get_filterset_kwargs(self, filterset_class):
        kwargs = super().get_filterset_kwargs(filterset_class)
        if self.report_run is not None:
            kwargs["data"] = self.request.GET.copy()
            kwargs["data"]["day"] = self.report_run.day.isoformat()
            kwargs["data"]["run"] = str(self.report_run.pk)
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = self.report_run
        context["report_run"] = run
        context["day"] = run.day if run else _day(self.request.GET.get("day"))
        context["can_rerun"] = self.request.user.has_perm("reports.run_report")
        if run is not None:
            context["standing"] = run_standing(run)
            context["gaming_day"] = GamingDay(run.day, run.time_zone, run.cutoff)
            context["documents"] = run_documents(run)
        if context["day"]:
            context["day_runs"] = ReportRun.objects.filter(day=context["day"]).order_by("number", "pk")
        return context


class DailyReportView(OneRunMixin, FilteredListView):
    permission_required = "reports.view_dailyfigures"
    queryset = DailyFigures.objects.select_related("table")
    filterset_class = DailyFiguresFilterSet
    table_class = DailyFiguresTable
    template_name = "reports/daily_report.html"
    title = "Daily RTP report"
    export_name = "daily-rtp"
    kept_by_filter = ("sort", "trend")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.report_run is not None:
            summaries = DailyTableSummary.objects.filter(run=self.report_run).select_related("table")
            context["summary_table"] = DailyTableSummaryTable(summaries, orderable=False)
            context["beyond_paytable"] = [summary for summary in summaries if summary.beyond_paytable]
            context.update(self.trend_context())
            if not self.report_run.figures_only:
                context.update(sign_off_context(self.report_run, self.request.user))
        return context

    def trend_context(self) -> dict:
        """The run's stored trend charts of one window (`?trend=`, 30 days by default), of the tables
        and kinds the filter names, and a link to each window."""
        window = positive_number(self.request.GET.get("trend"))
        window = window if window in TREND_WINDOWS else TREND_WINDOWS[0]
        charts = stored_charts(self.report_run, ChartSubject.TREND).filter(window_days=window)
        form = self.filterset.form
        if form.is_valid():
            if form.cleaned_data.get("table"):
                charts = charts.filter(table__code=form.cleaned_data["table"])
            if form.cleaned_data.get("kind"):
                charts = charts.filter(kind__in=form.cleaned_data["kind"])
        links = []
        for days in TREND_WINDOWS:
            query = self.request.GET.copy()
            query["trend"] = str(days)
            links.append({"days": days, "query": query.urlencode(), "current": days == window})
        return {"trend_window": window, "trend_links": links, "trend_charts": list(charts)}


class ExposureReportView(OneRunMixin, FilteredListView):
    permission_required = "reports.view_dailyexposure"
    queryset = DailyExposure.objects.select_related("table")
    filterset_class = DailyExposureFilterSet
    table_class = DailyExposureTable
    template_name = "reports/exposure_report.html"
    title = "Side-option exposure report"
    export_name = "side-option-exposure"

    def get_context_data(self, **kwargs):
        """Each exposure row of the page with the hits chart its run stored for it."""
        context = super().get_context_data(**kwargs)
        charts = {}
        if self.report_run is not None:
            charts = {
                (chart.table_id, chart.kind): chart
                for chart in stored_charts(self.report_run, ChartSubject.HITS)
            }
        context["panels"] = [
            (row.record, charts.get((row.record.table_id, row.record.kind)))
            for row in context["table"].page.object_list
        ]
        return context


def stored_charts(run: ReportRun, subject: str):
    """A run's charts of one subject, in their order, without their SVG (served apart)."""
    return ReportChart.objects.filter(run=run, subject=subject).select_related("table").defer("svg")


# A chart's SVG, opened on its own, runs nothing and loads nothing: matplotlib's inline styles only.
CHART_CSP = {"default-src": [CSP.NONE], "style-src": [CSP.UNSAFE_INLINE]}
# A run's charts never change (a run again is a new run with charts of its own).
CHART_MAX_AGE = 365 * 24 * 3600


@method_decorator(csp_override(CHART_CSP), name="dispatch")
class ReportChartView(ReplicaReadsMixin, LoginRequiredMixin, PermissionRequiredMixin, View):
    """A chart's SVG as the run's job drew and stored it: nothing is drawn here. A trend needs what
    the daily report page needs, a hits chart what the exposure page needs. Kept by the browser
    (private: it needs a login) for a year."""

    model = ReportChart
    permission_required = ("reports.view_dailyfigures", "reports.view_dailyexposure")
    subject_permissions = {
        ChartSubject.TREND: "reports.view_dailyfigures",
        ChartSubject.HITS: "reports.view_dailyexposure",
    }

    @cached_property
    def chart(self) -> ReportChart:
        return get_object_or_404(self.model, pk=self.kwargs["pk"])

    def has_permission(self) -> bool:
        return self.request.user.has_perm(self.subject_permissions[self.chart.subject])

    def get(self, request, pk: int):
        if not self.chart.drawn:
            raise Http404(self.chart.message)
        response = HttpResponse(self.chart.svg, content_type="image/svg+xml")
        patch_cache_control(response, private=True, max_age=CHART_MAX_AGE, immutable=True)
        return response


class ReportArchiveView(FilteredListView):
    """Every run's PDFs: a day run again lists the PDFs of each run, the superseded ones marked."""

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
        widget=IsoDateInput(),
        help_text="A gaming day that has closed. Running a day again makes a new run that supersedes "
        "the day's earlier one; the earlier run's figures and PDFs stay as they were.",
    )
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why the day is run again: required once compliance has signed a run of the day.",
    )


class ReportRunStartView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    permission_required = "reports.run_report"
    form_class = ReportRunStartForm
    template_name = "reports/run_start.html"

    def get_initial(self):
        return {"day": last_closed_gaming_day()}

    def perform(self, form):
        from .services import report_run_start

        run = report_run_start(
            day=form.cleaned_data["day"],
            trigger=RunTrigger.PORTAL,
            started_by=self.request.user,
            reason=form.cleaned_data["reason"],
        )
        messages.success(self.request, f"Run {run.pk} for {run.day} started.")
        return redirect(reverse("reports:run_detail", args=[run.pk]))


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


class DocumentDownloadView(ReplicaReadsMixin, LoginRequiredMixin, PermissionRequiredMixin, View):
    permission_required = "reports.view_reportdocument"

    def get(self, request, pk: int):
        return document_file_response(get_object_or_404(ReportDocument, pk=pk))
