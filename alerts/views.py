"""The alert pages: the list (filters, CSV, XLSX) and one alert, with its figures, its timeline, any
silence of its table, and the forms that acknowledge, claim, resolve it or mark its fault reportable.
Thin: the services do every write and every refusal; each form posts to a route of its own, which
takes a POST only and shows a refusal on the alert's page."""

from datetime import datetime, timedelta

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils import timezone
from django.views.generic import DetailView

from core.form_views import ServiceFormMixin
from core.listing import FilteredListView
from core.views import PermissionRequiredMixin
from tables.models import TableConfiguration

from . import services
from .choices import UNRESOLVED, AlertStatus, Monitor, ResolutionLink
from .definitions import DEFINITIONS
from .faults import fault_mark
from .filtersets import AlertFilterSet
from .forms import AcknowledgeForm, ClaimForm, MarkReportableForm, ResolveForm
from .models import Alert, ReportableFault
from .tables import AlertTable, number_text, subject_text

VIEW = "alerts.view_alert"
CHANGE = "alerts.change_alert"
MARK = "alerts.add_reportablefault"
# A reportable fault's period, as the form first offers it: from an hour before the alert was first seen.
AFFECTED_BEFORE = timedelta(hours=1)

FIGURE_LABELS = {
    "round": "Round",
    "player": "Player",
    "net": "Net win",
    "seconds": "Seconds from end to arrival",
    "direction": "Returns drifting",
    "sigma": "Spread of a round's return per stake (σ)",
    "k": "CUSUM allowance (k)",
    "h": "CUSUM limit (h)",
    "rounds": "Rounds",
    "days_between_false_alerts": "Days between false alerts (threshold)",
    "dealer": "Dealer",
    "findings": "Dealer findings",
    "cancelled": "Cancelled",
    "since": "Last round or opening",
}
# Where each kind of resolution record is shown, and who may open it.
RECORD_ROUTES = {
    ResolutionLink.INCIDENT: ("rounds:incident_detail", "rounds.view_incident"),
    ResolutionLink.RESETTLEMENT: ("rounds:resettlement_detail", "rounds.view_resettlement"),
    ResolutionLink.VOID: ("rounds:void_detail", "rounds.view_void"),
}


class AlertListView(FilteredListView):
    permission_required = VIEW
    queryset = Alert.objects.select_related("table", "claimed_by", "resolved_by")
    filterset_class = AlertFilterSet
    table_class = AlertTable
    template_name = "alerts/alert_list.html"
    title = "Alerts"
    export_name = "alerts"


def figure_rows(alert: Alert, user) -> list[dict]:
    """The latest occurrence's figures, each with its label; a round links to its page, a moment is
    shown in the user's zone, a net win with the table's currency."""
    rows = []
    for key, value in alert.figures.items():
        row = {"label": FIGURE_LABELS.get(key, key.replace("_", " ").capitalize()), "value": value}
        if key == "round" and user.has_perm("rounds.view_round"):
            row["url"] = reverse("rounds:round_detail", args=[value])
        elif key == "player" and user.has_perm("limits.view_player"):
            row["url"] = reverse("limits:player_detail", args=[value])
        elif key == "since" and isinstance(value, str):
            try:
                row["moment"] = datetime.fromisoformat(value)
            except ValueError:
                pass
        elif key == "net":
            row["money"] = value
        rows.append(row)
    return rows


def resolution_record(alert: Alert, user) -> dict | None:
    """The record the alert was resolved with: its words and, for who may open it, its page."""
    if not alert.resolution_ref or alert.resolution_link in ("", ResolutionLink.NONE):
        return None
    link = ResolutionLink(alert.resolution_link)
    if link == ResolutionLink.CONFIGURATION:
        version = TableConfiguration.objects.select_related("table").filter(pk=alert.resolution_ref).first()
        if version is None:
            return {"text": f"Configuration {alert.resolution_ref}"}
        text = f"Version {version.version} of {version.table.code}"
        if not user.has_perm("tables.view_table"):
            return {"text": text}
        if version.status == "proposed":
            return {"text": text, "url": reverse("tables:configuration_proposal", args=[version.table.code])}
        return {"text": text, "url": reverse("tables:table_detail", args=[version.table.code]) + "#versions"}
    route, permission = RECORD_ROUTES[link]
    text = f"{link.label} {alert.resolution_ref}"
    if not user.has_perm(permission):
        return {"text": text}
    return {"text": text, "url": reverse(route, args=[alert.resolution_ref])}


def configuration_ref(alert: Alert, link: str, ref: str) -> str:
    """A configuration is named on the form by its version at the alert's table; the service takes the
    version's id."""
    if link != ResolutionLink.CONFIGURATION or not ref.strip().isdigit():
        return ref
    version = TableConfiguration.objects.filter(table=alert.table_id, version=int(ref)).first()
    if version is None:
        raise ValidationError({"ref": f"{alert.table.code} has no configuration version {ref.strip()}."})
    return str(version.pk)


STEPS = {
    # step: (permission, form)
    "acknowledge": (CHANGE, AcknowledgeForm),
    "claim": (CHANGE, ClaimForm),
    "resolve": (CHANGE, ResolveForm),
    "reportable": (MARK, MarkReportableForm),
}


class AlertDetailView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormMixin, DetailView):
    """The alert; with `step`, a POST of one of its forms (routes that take a POST only). A refusal
    shows the alert's page with the form and the service's message, answering its status (400, or
    409 when the alert's state refused it)."""

    model = Alert
    template_name = "alerts/alert_detail.html"
    context_object_name = "alert"
    step = None

    def get_queryset(self):
        return Alert.objects.select_related("table", "acknowledged_by", "claimed_by", "resolved_by")

    def get_permission_required(self):
        return [VIEW, STEPS[self.step][0]] if self.step else [VIEW]

    def forms(self, alert: Alert, bound=None) -> dict:
        forms_ = {
            "acknowledge": AcknowledgeForm(prefix="acknowledge"),
            "claim": ClaimForm(prefix="claim"),
            "resolve": ResolveForm(prefix="resolve"),
            "reportable": MarkReportableForm(
                prefix="reportable",
                initial={"affected_from": alert.first_seen - AFFECTED_BEFORE, "affected_to": alert.last_seen},
            ),
        }
        if bound is not None:
            forms_[self.step] = bound
        return forms_

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        alert, user = self.object, self.request.user
        bound = kwargs.pop("bound", None)
        unresolved = alert.status in UNRESOLVED
        may_change = user.has_perm(CHANGE)
        definition = DEFINITIONS[alert.monitor]
        fault = ReportableFault.objects.filter(alert=alert).first()
        refused = self.step if bound is not None else None
        context.update(
            definition=definition,
            subject=subject_text(alert.monitor, alert.subject),
            measure=number_text(alert.measure),
            threshold=number_text(alert.threshold),
            is_drift=alert.monitor == Monitor.RTP_DRIFT,
            figures=figure_rows(alert, user),
            events=alert.events.select_related("by"),
            silences=services.active_silences()
            .filter(table=alert.table_id)
            .select_related("created_by")
            .order_by("ends_at"),
            record=resolution_record(alert, user),
            fault=fault,
            forms=self.forms(alert, bound),
            show={
                # Each form to who may use it, and a refused one to who sent it, whatever happened since.
                "acknowledge": may_change and alert.status == AlertStatus.OPEN or refused == "acknowledge",
                "claim": may_change and unresolved and alert.claimed_by_id != user.pk or refused == "claim",
                "resolve": may_change and unresolved or refused == "resolve",
                "reportable": user.has_perm(MARK) and fault is None or refused == "reportable",
            },
            escalation_due=alert.escalate_at is not None and alert.escalate_at <= timezone.now(),
        )
        return context

    def post(self, request, *args, **kwargs):
        self.object = get_object_or_404(self.get_queryset(), pk=kwargs["pk"])
        form = STEPS[self.step][1](request.POST, prefix=self.step)
        if answer := self.submit(form):
            return answer
        self.object = self.get_queryset().get(pk=self.object.pk)  # as it stands now
        context = self.get_context_data(object=self.object, bound=form)
        return self.render_to_response(context, status=self.refusal_status())

    def service_error_aliases(self, form):
        return {"note": "what_happened"} if self.step == "reportable" else None

    def perform(self, form):
        alert, user, data = self.object, self.request.user, form.cleaned_data
        if self.step == "acknowledge":
            services.alert_acknowledge(alert=alert, by=user, note=data["note"])
            message = f"Alert {alert.pk} acknowledged: it no longer escalates."
        elif self.step == "claim":
            services.alert_claim(alert=alert, by=user)
            message = f"Alert {alert.pk} is yours."
        elif self.step == "resolve":
            ref = configuration_ref(alert, data["link"], data["ref"])
            services.alert_resolve(alert=alert, by=user, note=data["note"], link=data["link"], ref=ref)
            message = f"Alert {alert.pk} resolved."
        else:
            fault = fault_mark(
                alert=alert,
                by=user,
                what_happened=data["what_happened"],
                affected_from=data["affected_from"],
                affected_to=data["affected_to"],
            )
            messages.success(
                self.request,
                f"Alert {alert.pk} marked reportable: fault {fault.pk}, {fault.rounds} round(s) affected.",
            )
            return redirect("alerts:fault_detail", pk=fault.pk)
        messages.success(self.request, message)
        return redirect("alerts:alert_detail", pk=alert.pk)


class AlertStepView(AlertDetailView):
    """POST only: one of the alert's forms (`step`)."""

    http_method_names = ["post"]


def step_route(step: str, name: str):
    return path(f"<int:pk>/{step}/", AlertStepView.as_view(step=step), name=name)


urlpatterns = [
    path("", AlertListView.as_view(), name="alert_list"),
    path("<int:pk>/", AlertDetailView.as_view(), name="alert_detail"),
    step_route("acknowledge", "alert_acknowledge"),
    step_route("claim", "alert_claim"),
    step_route("resolve", "alert_resolve"),
    step_route("reportable", "alert_mark_reportable"),
]
