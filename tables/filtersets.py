import django_filters
from django.db.models import Q

from core.filters import UtcDateTimeFilter

from .choices import ConfigurationStatus, Currency, Game, TableStatus
from .models import Table, TableConfiguration, TableStatusChange


class TableFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Search")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    status = django_filters.MultipleChoiceFilter(choices=TableStatus.choices)
    currency = django_filters.MultipleChoiceFilter(choices=Currency.choices)

    class Meta:
        model = Table
        fields = ["q", "game", "status", "currency", "studio"]

    def search(self, queryset, name, value):
        return queryset.filter(
            Q(code__icontains=value)
            | Q(name__icontains=value)
            | Q(studio__icontains=value)
            | Q(dealer__icontains=value)
        )


class TableConfigurationFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    status = django_filters.MultipleChoiceFilter(choices=ConfigurationStatus.choices)
    valid_from_after = UtcDateTimeFilter(field_name="valid_from", lookup_expr="gte")
    valid_from_before = UtcDateTimeFilter(field_name="valid_from", lookup_expr="lt")

    class Meta:
        model = TableConfiguration
        fields = ["table", "version", "status"]


class TableStatusChangeFilterSet(django_filters.FilterSet):
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    to_status = django_filters.MultipleChoiceFilter(choices=TableStatus.choices)
    changed_after = UtcDateTimeFilter(field_name="changed_at", lookup_expr="gte")
    changed_before = UtcDateTimeFilter(field_name="changed_at", lookup_expr="lt")

    class Meta:
        model = TableStatusChange
        fields = ["table", "to_status"]
