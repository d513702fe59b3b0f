"""The filters of the administrators' lists: the same for each page and its exports."""

import django_filters
from django.contrib.auth import get_user_model
from django.db.models import Q

from accounts.roles import ROLES
from alerts.filtersets import LocalDateFilter

from .models import AccountChange, ChangeKind, ChangeStatus

YES_NO = [("yes", "Yes"), ("no", "No")]


class UserFilterSet(django_filters.FilterSet):
    username = django_filters.CharFilter(lookup_expr="icontains", label="Username")
    role = django_filters.ChoiceFilter(
        choices=[(role, role) for role in ROLES], field_name="groups__name", empty_label="Any", label="Role"
    )
    active = django_filters.ChoiceFilter(choices=YES_NO, empty_label="Any", method="by_yes", label="Active")
    second_factor = django_filters.ChoiceFilter(
        choices=YES_NO, empty_label="Any", method="by_yes", label="Second factor"
    )
    sign_in = django_filters.ChoiceFilter(
        choices=[("single_sign_on", "Single sign-on"), ("local", "Local")],
        empty_label="Any",
        method="by_sign_in",
        label="Signs in",
    )
    pending = django_filters.ChoiceFilter(
        choices=YES_NO, empty_label="Any", method="by_yes", label="Changes awaiting"
    )

    class Meta:
        model = get_user_model()
        fields = ["username", "role"]

    def by_yes(self, queryset, name, value):
        field = {"active": "is_active", "second_factor": "second_factor", "pending": "has_pending"}[name]
        return queryset.filter(**{field: value == "yes"})

    def by_sign_in(self, queryset, name, value):
        return queryset.filter(single_sign_on=value == "single_sign_on")


class ChangeFilterSet(django_filters.FilterSet):
    day_from = LocalDateFilter(field_name="requested_at", label="Asked from")
    day_to = LocalDateFilter(field_name="requested_at", end=True, label="Asked to")
    kind = django_filters.MultipleChoiceFilter(choices=ChangeKind.choices)
    status = django_filters.MultipleChoiceFilter(choices=ChangeStatus.choices)
    user = django_filters.CharFilter(field_name="user__username", lookup_expr="iexact", label="Account")
    requested_by = django_filters.CharFilter(method="by_requester", label="Asked by")

    class Meta:
        model = AccountChange
        fields = ["kind", "status"]

    def by_requester(self, queryset, name, value):
        """An administrator's username; "command" for the changes a command made."""
        if value.strip().lower() == "command":
            return queryset.filter(Q(requested_by__isnull=True) | Q(requested_by__username__iexact=value))
        return queryset.filter(requested_by__username__iexact=value)
