"""One run of the daily job: how far it has got, table by table, and what it made."""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.views.generic import DetailView

from core.views import PermissionRequiredMixin

from .models import ReportDocument, ReportRun, RunStatus
from .progress import run_progress
from .records import run_standing

REFRESH_SECONDS = 2  # a running run's page reloads itself this often


class ReportRunDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    permission_required = "reports.view_reportrun"
    model = ReportRun
    template_name = "reports/run_detail.html"
    context_object_name = "run"

    def get_queryset(self):
        return ReportRun.objects.select_related("started_by", "superseded_by")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = self.object
        context.update(
            progress=run_progress(run),
            running=run.status == RunStatus.RUNNING,
            refresh_seconds=REFRESH_SECONDS,
            standing=run_standing(run),
            documents=ReportDocument.objects.filter(run=run).order_by("kind"),
        )
        return context
