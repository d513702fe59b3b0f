"""The deliveries page: every message sent of an alert event or a test (filters, CSV, XLSX), and on a
failed one a Retry button, which posts to a route of its own (POST only)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import path

from alerts.list_forms import ListFormMixin
from core.listing import FilteredListView

from . import services
from .filtersets import DeliveryFilterSet
from .forms import ConfirmForm
from .models import Delivery
from .tables import DeliveryTable

VIEW = "notifications.view_delivery"
RETRY = "notifications.change_delivery"


class DeliveryListView(FilteredListView):
    permission_required = VIEW
    queryset = Delivery.objects.select_related("event__alert", "endpoint")
    filterset_class = DeliveryFilterSet
    table_class = DeliveryTable
    template_name = "notifications/delivery_list.html"
    title = "Deliveries"
    export_name = "deliveries"
    exclude_columns = ("retry",)
    refused_form = None  # a refused retry (ListFormMixin)

    def get_table_kwargs(self):
        kwargs = super().get_table_kwargs()
        if not self.request.user.has_perm(RETRY):
            kwargs["exclude"] = ("retry",)
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["retry_refused"] = self.refused_form
        return context


class DeliveryRetryView(ListFormMixin, DeliveryListView):
    permission_required = (VIEW, RETRY)
    http_method_names = ["post"]

    def bound_form(self):
        self.delivery = get_object_or_404(Delivery, pk=self.kwargs["pk"])
        return ConfirmForm(self.request.POST)

    def perform(self, form):
        services.delivery_retry(delivery=self.delivery, by=self.request.user)
        messages.success(
            self.request, f"Delivery {self.delivery.pk} to {self.delivery.address} is sent again."
        )
        return redirect("notifications:delivery_list")


urlpatterns = [
    path("deliveries/", DeliveryListView.as_view(), name="delivery_list"),
    path("deliveries/<int:pk>/retry/", DeliveryRetryView.as_view(), name="delivery_retry"),
]
