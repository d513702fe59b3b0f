"""The webhooks page: every endpoint (filters, CSV, XLSX), the form that adds one, and on each its
Rotate and Deactivate buttons; and one endpoint's page with its latest deliveries. The forms post to
routes of their own (POST only). A new endpoint's secret, and a rotated one's, is shown once, on the
page that answers that POST: it is never stored in the session nor shown again."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Case, Value, When
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.views.generic import DetailView

from alerts.list_forms import ListFormMixin
from core.listing import FilteredListView
from core.views import PermissionRequiredMixin

from . import services
from .filtersets import EndpointFilterSet
from .forms import ConfirmForm, EndpointForm
from .models import WebhookEndpoint
from .tables import EndpointTable, choices_summary

VIEW = "notifications.view_webhookendpoint"
ADD = "notifications.add_webhookendpoint"
CHANGE = "notifications.change_webhookendpoint"
LATEST_DELIVERIES = 10


def endpoints(user):
    """Every endpoint, each saying whether `user` may change it (`mine`): its owner only, as the
    services allow (services._own_endpoint), or a superuser."""
    mine = Case(When(owner=user.pk, then=Value(True)), default=Value(user.is_superuser))
    return WebhookEndpoint.objects.select_related("owner").prefetch_related("tables").annotate(mine=mine)


def secret_page(request, endpoint: WebhookEndpoint, secret: str, rotated: bool):
    """The one answer that holds `secret`."""
    context = {"endpoint": endpoint, "secret": secret, "rotated": rotated, "title": endpoint.name}
    return render(request, "notifications/webhook_secret.html", context)


class WebhookListView(FilteredListView):
    permission_required = VIEW
    filterset_class = EndpointFilterSet
    table_class = EndpointTable
    template_name = "notifications/webhook_list.html"
    title = "Webhooks"
    export_name = "webhooks"
    exclude_columns = ("manage",)
    refused_form = None  # a refused POST of one of its forms (ListFormMixin)

    def get_queryset(self):
        return endpoints(self.request.user)

    def get_table_kwargs(self):
        kwargs = super().get_table_kwargs()
        if not self.request.user.has_perm(CHANGE):
            kwargs["exclude"] = ("manage",)
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        refused = self.refused_form
        if self.request.user.has_perm(ADD):
            context["endpoint_form"] = (
                refused if isinstance(refused, EndpointForm) else EndpointForm(prefix="endpoint")
            )
        context["action_refused"] = refused if isinstance(refused, ConfirmForm) else None
        return context


class WebhookAddView(ListFormMixin, WebhookListView):
    permission_required = (VIEW, ADD)
    http_method_names = ["post"]

    def bound_form(self):
        return EndpointForm(self.request.POST, prefix="endpoint")

    def perform(self, form):
        data = form.cleaned_data
        endpoint, secret = services.endpoint_create(
            owner=self.request.user,
            name=data["name"],
            url=data["url"],
            monitors=data["monitors"],
            tables=list(data["tables"]),
            severity=data["severity"],
        )
        return secret_page(self.request, endpoint, secret, rotated=False)


class WebhookActionView(ListFormMixin, WebhookListView):
    """POST only: rotate or deactivate one endpoint (`action`); a refusal (an inactive endpoint) shows
    the list with the service's message."""

    permission_required = (VIEW, CHANGE)
    http_method_names = ["post"]
    action = None

    def bound_form(self):
        self.endpoint = get_object_or_404(
            WebhookEndpoint, pk=self.kwargs["pk"]
        )  # the service checks its owner
        return ConfirmForm(self.request.POST)

    def perform(self, form):
        endpoint, user = self.endpoint, self.request.user
        if self.action == "rotate":
            secret = services.endpoint_rotate(endpoint=endpoint, by=user)
            endpoint.refresh_from_db()  # the previous secret's grace period
            return secret_page(self.request, endpoint, secret, rotated=True)
        services.endpoint_deactivate(endpoint=endpoint, by=user)
        messages.success(
            self.request, f"The webhook {endpoint.name} is deactivated: nothing more is sent to it."
        )
        return redirect("notifications:webhook_list")


class WebhookDetailView(LoginRequiredMixin, PermissionRequiredMixin, DetailView):
    model = WebhookEndpoint
    permission_required = VIEW
    template_name = "notifications/webhook_detail.html"
    context_object_name = "endpoint"

    def get_queryset(self):
        return endpoints(self.request.user)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        endpoint = self.object
        context.update(
            title=endpoint.name,
            summary=choices_summary(endpoint),
            deliveries=endpoint.deliveries.select_related("event__alert")[:LATEST_DELIVERIES],
        )
        return context


urlpatterns = [
    path("webhooks/", WebhookListView.as_view(), name="webhook_list"),
    path("webhooks/new/", WebhookAddView.as_view(), name="webhook_add"),
    path("webhooks/<int:pk>/", WebhookDetailView.as_view(), name="webhook_detail"),
    path("webhooks/<int:pk>/rotate/", WebhookActionView.as_view(action="rotate"), name="webhook_rotate"),
    path(
        "webhooks/<int:pk>/deactivate/",
        WebhookActionView.as_view(action="deactivate"),
        name="webhook_deactivate",
    ),
]
