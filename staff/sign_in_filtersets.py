"""The filters of the sign-in record's lists: the same for each page and its exports."""

import django_filters
from django import forms
from django.db.models import Q

from accounts.models import SignInEvent, TokenUse
from core.forms import IsoDateInput

BREAK_GLASS_CHOICES = [("flagged", "Flagged"), ("unreviewed", "Flagged, not reviewed")]


class AddressFilter(django_filters.CharFilter):
    """An IP address, as the record stores one (IPv6 compressed); anything else is refused, naming
    the field."""

    field_class = forms.GenericIPAddressField


def day_filters(label: str = "Gaming day"):
    """A range of gaming days (both ends included), typed YYYY-MM-DD."""
    return (
        django_filters.DateFilter(
            field_name="day", lookup_expr="gte", label=f"{label} from", widget=IsoDateInput()
        ),
        django_filters.DateFilter(
            field_name="day", lookup_expr="lte", label=f"{label} to", widget=IsoDateInput()
        ),
    )


class SignInEventFilterSet(django_filters.FilterSet):
    day_from, day_to = day_filters()
    kind = django_filters.MultipleChoiceFilter(choices=SignInEvent.Kind.choices)
    method = django_filters.MultipleChoiceFilter(choices=SignInEvent.Method.choices)
    username = django_filters.CharFilter(lookup_expr="icontains", label="Username contains")
    address = AddressFilter(label="Address")
    break_glass = django_filters.ChoiceFilter(
        choices=BREAK_GLASS_CHOICES, empty_label="All", method="by_break_glass", label="Break-glass"
    )

    class Meta:
        model = SignInEvent
        fields = ["day_from", "day_to", "kind", "method", "username", "address", "break_glass"]

    def by_break_glass(self, queryset, name, value):
        flagged = Q(break_glass=True)
        if value == "unreviewed":
            flagged &= Q(reviewed_at__isnull=True)
        return queryset.filter(flagged)


class SignInDayFilterSet(django_filters.FilterSet):
    """The days' range only: a day's figures are every event and token use of that day."""

    day_from, day_to = day_filters()

    class Meta:
        model = SignInEvent
        fields = ["day_from", "day_to"]


class TokenUseFilterSet(django_filters.FilterSet):
    day_from, day_to = day_filters()
    username = django_filters.CharFilter(
        field_name="token__user__username", lookup_expr="icontains", label="Username contains"
    )
    address = AddressFilter(label="Address")

    class Meta:
        model = TokenUse
        fields = ["day_from", "day_to", "username", "address"]
