"""One run of the daily job: how far it has got, table by table, what it made, its sign-off (with the
form to sign it, for compliance), and, for a run of a day compliance had signed, what changed from
the signed run's figures."""

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import DetailView

from accounts.second_factor import FreshCodeRequiredMixin
from core.form_views import ServiceFormMixin
from core.replica import ReplicaReadsMixin
from core.views import PermissionRequiredMixin

from .models import ReportRun, RunStatus
from .progress import run_progress
from .records import ordinal, run_documents, run_standing
from .sign_off import SIGN, figure_changes, report_sign, sign_refusal, signed_run_of

REFRESH_SECONDS = 2  # a running run's page reloads itself this often


class ReportSignForm(forms.Form):
    comment = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="What you checked. Kept with your name and the time; a sign-off is never withdrawn.",
    )


def sign_off_context(run: ReportRun, user, form: ReportSignForm | None = None) -> dict:
    """The sign-off panel of a run (the run's page and the daily report page): its sign-off, or the
    form to those who may sign a run that can be signed, or why it cannot."""
    sign_off = getattr(run, "sign_off", None)  # the run is read with its sign-off (select_related)
    refusal = None if sign_off else sign_refusal(run)
    return {
        "sign_off": sign_off,
        "sign_refused": refusal.messages[0] if refusal else "",
        "may_sign": sign_off is None and refusal is None and user.has_perm(SIGN),
        "sign_form": form or ReportSignForm(),
    }


class ReportRunDetailView(ReplicaReadsMixin, LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    permission_required = "reports.view_reportrun"
    model = ReportRun
    template_name = "reports/run_detail.html"
    context_object_name = "run"

    def get_queryset(self):
        return ReportRun.objects.select_related("started_by", "superseded_by", "sign_off__signed_by")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        run = self.object
        context.update(
            progress=run_progress(run),
            running=run.status == RunStatus.RUNNING,
            refresh_seconds=REFRESH_SECONDS,
            standing=run_standing(run),
            documents=run_documents(run),
            **sign_off_context(run, self.request.user, kwargs.get("sign_form")),
        )
        signed = signed_run_of(run.day)
        if signed is not None and signed.pk < run.pk and run.status == RunStatus.SUCCEEDED:
            context.update(
                signed_run=signed, signed_nth=ordinal(signed.number), changes=figure_changes(signed, run)
            )
        return context


class ReportRunSignView(FreshCodeRequiredMixin, ServiceFormMixin, ReportRunDetailView):
    """POST only: compliance signs the run off; refused, the run's page shows why beside the form."""

    permission_required = ("reports.view_reportrun", SIGN)
    http_method_names = ["post"]

    def decision_page(self) -> str:
        return reverse("reports:run_detail", args=[self.kwargs["pk"]])

    def post(self, request, *args, **kwargs):
        self.object = self.get_object()
        form = ReportSignForm(request.POST)
        if answer := self.submit(form):
            return answer
        context = self.get_context_data(sign_form=form)
        return self.render_to_response(context, status=self.refusal_status())

    def perform(self, form):
        run = self.object
        report_sign(run=run, signed_by=self.request.user, comment=form.cleaned_data["comment"])
        messages.success(
            self.request, f"Run {run.pk} of {run.day} signed off; its signed PDFs are being made."
        )
        return redirect(reverse("reports:run_detail", args=[run.pk]))
