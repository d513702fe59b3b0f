"""The filters of the notifications' lists: the same for each page and its exports."""

import django_filters
from django.db.models import Q

from alerts.filtersets import LocalDateFilter
from core.filters import MAX_KEY

from .choices import Channel, DeliveryStatus
from .models import Delivery, WebhookEndpoint


class EndpointFilterSet(django_filters.FilterSet):
    name = django_filters.CharFilter(method="by_name_or_url", label="Name or URL")
    state = django_filters.ChoiceFilter(
        choices=[("active", "Active"), ("inactive", "Inactive")],
        empty_label="Any",
        method="by_state",
        label="State",
    )
    owner = django_filters.CharFilter(field_name="owner__username", label="Owner")

    class Meta:
        model = WebhookEndpoint
        fields = ["name", "state", "owner"]

    def by_state(self, queryset, name, value):
        return queryset.filter(active=value == "active")

    def by_name_or_url(self, queryset, name, value):
        return queryset.filter(Q(name__icontains=value) | Q(url__icontains=value))


class DeliveryFilterSet(django_filters.FilterSet):
    status = django_filters.MultipleChoiceFilter(choices=DeliveryStatus.choices)
    channel = django_filters.ChoiceFilter(choices=Channel.choices, empty_label="Any")
    created_from = LocalDateFilter(field_name="created_at", label="Created from")
    created_to = LocalDateFilter(field_name="created_at", end=True, label="Created to")
    # A whole number a database key holds: a larger one is a 400 naming the field, not a 500.
    alert = django_filters.NumberFilter(
        field_name="event__alert", label="Alert", min_value=1, max_value=MAX_KEY, decimal_places=0
    )
    endpoint = django_filters.ModelChoiceFilter(
        queryset=WebhookEndpoint.objects.order_by("name", "id"), empty_label="Any"
    )

    class Meta:
        model = Delivery
        fields = ["status", "channel", "alert", "endpoint"]
