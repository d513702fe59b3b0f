"""The reportable faults: the list (filters, CSV, XLSX), one fault, and its PDF for the regulator's
key-event report (alerts/pdf.py)."""

import io
from datetime import timedelta
from urllib.parse import urlencode

from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import F
from django.http import FileResponse
from django.urls import path, reverse
from django.views.generic import DetailView

from core.listing import FilteredListView
from core.views import PermissionRequiredMixin

from .filtersets import FaultFilterSet
from .models import ReportableFault
from .pdf import fault_pdf, fault_pdf_name
from .tables import FaultTable, subject_text

VIEW = "alerts.view_reportablefault"


def faults():
    return ReportableFault.objects.select_related("table", "marked_by", "alert").annotate(
        net_result=F("wagered") - F("returned")
    )


class FaultListView(FilteredListView):
    permission_required = VIEW
    filterset_class = FaultFilterSet
    table_class = FaultTable
    template_name = "alerts/fault_list.html"
    title = "Reportable faults"
    export_name = "reportable-faults"

    def get_queryset(self):
        return faults()


class FaultDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    model = ReportableFault
    permission_required = VIEW
    template_name = "alerts/fault_detail.html"
    context_object_name = "fault"

    def get_queryset(self):
        return faults()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        alert = self.object.alert
        fault = self.object
        period = {"table": fault.table.code, "opened_after": fault.affected_from.isoformat()}
        period["opened_before"] = (fault.affected_to + timedelta(microseconds=1)).isoformat()
        context.update(
            rounds_url=f"{reverse('rounds:round_list')}?{urlencode(period)}",
            alert=alert,
            subject=subject_text(alert.monitor, alert.subject),
            events=alert.events.select_related("by"),
        )
        return context


class FaultPdfView(FaultDetailView):
    """The fault as a PDF (A4), made at each request: it names who made it and when."""

    def render_to_response(self, context, **response_kwargs):
        content = fault_pdf(self.object, made_by=self.request.user)
        return FileResponse(
            io.BytesIO(content),
            as_attachment=True,
            filename=fault_pdf_name(self.object),
            content_type="application/pdf",
        )


urlpatterns = [
    path("faults/", FaultListView.as_view(), name="fault_list"),
    path("faults/<int:pk>/", FaultDetailView.as_view(), name="fault_detail"),
    path("faults/<int:pk>/pdf/", FaultPdfView.as_view(), name="fault_pdf"),
]
