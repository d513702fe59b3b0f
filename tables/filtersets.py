import django_filters
from django.db.models import Q

from blackjack.rules import BET_KIND_LABELS
from core.filters import MAX_KEY, UtcDateTimeFilter

from .choices import ConfigurationStatus, Currency, Game, TableStatus
from .models import Table, TableConfiguration, TableStatusChange
from .published import FigureOfRecord, figures_of_versions


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


ABOVE_CHOICES = [("yes", "Yes"), ("no", "No")]


class PublishedFigureFilterSet(django_filters.FilterSet):
    """The figures of record of the versions it filters, a row per bet kind each offers (`rows()`): the
    table picks versions; the kind and `above` pick rows (a version's kinds are in its rules, no column
    to filter in the database)."""

    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    kind = django_filters.MultipleChoiceFilter(
        choices=list(BET_KIND_LABELS.items()), method="by_row", label="Bet kind"
    )
    above = django_filters.ChoiceFilter(
        choices=ABOVE_CHOICES,
        empty_label="Any",
        method="by_row",
        label="Above the game's",
        help_text="The published figure above the computed maximum RTP.",
    )

    class Meta:
        model = TableConfiguration
        fields = ["table", "kind", "above"]

    def by_row(self, queryset, name, value):
        """Applied by `rows()`, to each kind of each version."""
        return queryset

    def rows(self) -> list[FigureOfRecord]:
        """The filtered versions' figures of record, of the kinds asked for, above the game's or not."""
        figures = figures_of_versions(self.qs)
        data = self.form.cleaned_data if self.is_bound and self.is_valid() else {}
        if kinds := data.get("kind"):
            figures = [figure for figure in figures if figure.kind in kinds]
        if above := data.get("above"):
            figures = [figure for figure in figures if figure.above_the_game == (above == "yes")]
        return figures


class PublishedFigureApiFilterSet(PublishedFigureFilterSet):
    configuration = django_filters.NumberFilter(
        field_name="pk",
        label="Configuration id",
        help_text="One version, whatever its state (without it: the versions in force or approved to "
        "start later).",
        min_value=1,
        max_value=MAX_KEY,
        decimal_places=0,
    )

    class Meta(PublishedFigureFilterSet.Meta):
        fields = ["configuration", "table", "kind", "above"]
