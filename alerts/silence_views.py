"""The silences page: every silence of a table's alerts (filters, CSV, XLSX) and, for supervisors, the
form that silences a table and an "End now" button on each silence in force. The form and the
buttons post to routes of their own (POST only)."""

from django.contrib import messages
from django.db.models import Case, Value, When
from django.shortcuts import get_object_or_404, redirect
from django.urls import path
from django.utils import timezone

from core.listing import FilteredListView

from . import services
from .filtersets import SilenceFilterSet
from .forms import SilenceEndForm, SilenceForm
from .list_forms import ListFormMixin
from .models import Silence
from .tables import SilenceTable

VIEW = "alerts.view_silence"
ADD = "alerts.add_silence"
END = "alerts.change_silence"


def silences():
    """Every silence, with its `state` now: in_force, to_come, ended (early), over."""
    now = timezone.now()
    state = Case(
        When(ended_at__isnull=False, then=Value("ended")),
        When(ends_at__lte=now, then=Value("over")),
        When(starts_at__gt=now, then=Value("to_come")),
        default=Value("in_force"),
    )
    return Silence.objects.select_related("table", "created_by", "ended_by").annotate(state=state)


class SilenceListView(FilteredListView):
    permission_required = VIEW
    filterset_class = SilenceFilterSet
    table_class = SilenceTable
    template_name = "alerts/silence_list.html"
    title = "Silences"
    export_name = "silences"
    exclude_columns = ("end",)
    refused_form = None  # a refused POST of one of its forms (ListFormMixin)

    def get_queryset(self):
        return silences()

    def get_table_kwargs(self):
        kwargs = super().get_table_kwargs()
        if not self.request.user.has_perm(END):
            kwargs["exclude"] = ("end",)
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.request.user.has_perm(ADD):
            refused = self.refused_form if isinstance(self.refused_form, SilenceForm) else None
            context["silence_form"] = refused or SilenceForm(
                prefix="silence", initial={"table": self.request.GET.get("table")}
            )
        context["end_refused"] = self.refused_form if isinstance(self.refused_form, SilenceEndForm) else None
        return context


class SilenceAddView(ListFormMixin, SilenceListView):
    permission_required = (VIEW, ADD)
    http_method_names = ["post"]

    def bound_form(self):
        return SilenceForm(self.request.POST, prefix="silence")

    def perform(self, form):
        data = form.cleaned_data
        silence = services.silence_add(
            table=data["table"],
            by=self.request.user,
            minutes=data["minutes"],
            reason=data["reason"],
            monitor=data["monitor"],
        )
        what = silence.get_monitor_display() or "Every monitor"
        until = timezone.localtime(silence.ends_at).strftime("%H:%M %Z")
        messages.success(self.request, f"{what} silenced at {silence.table.code} until {until}.")
        return redirect("alerts:silence_list")


class SilenceEndView(ListFormMixin, SilenceListView):
    permission_required = (VIEW, END)
    http_method_names = ["post"]

    def bound_form(self):
        self.silence = get_object_or_404(Silence.objects.select_related("table"), pk=self.kwargs["pk"])
        return SilenceEndForm(self.request.POST)

    def perform(self, form):
        services.silence_end(silence=self.silence, by=self.request.user)
        messages.success(
            self.request, f"The silence of {self.silence.table.code} has ended: its alerts are raised again."
        )
        return redirect("alerts:silence_list")


urlpatterns = [
    path("silences/", SilenceListView.as_view(), name="silence_list"),
    path("silences/new/", SilenceAddView.as_view(), name="silence_add"),
    path("silences/<int:pk>/end/", SilenceEndView.as_view(), name="silence_end"),
]
