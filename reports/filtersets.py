import django_filters

from limits.choices import BetKind
from rounds.engine.rules import SIDE_OPTION_KINDS
from tables.choices import Currency, Game

from .models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    ReportDocument,
    ReportKind,
    ReportRun,
    RunStatus,
    RunTrigger,
)

SIDE_OPTION_CHOICES = [(kind, label) for kind, label in BetKind.choices if kind in SIDE_OPTION_KINDS]


class DailyFiguresFilterSet(django_filters.FilterSet):
    day = django_filters.DateFilter(label="Gaming day")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    currency = django_filters.MultipleChoiceFilter(choices=Currency.choices)
    table = django_filters.CharFilter(field_name="table_code", label="Table code")
    kind = django_filters.MultipleChoiceFilter(choices=BetKind.choices, label="Bet kind")
    scope = django_filters.ChoiceFilter(
        choices=[("table", "Tables"), ("total", "Totals per game and currency")],
        method="filter_scope",
        label="Rows",
    )
    outside_99 = django_filters.BooleanFilter(label="Theoretical outside the 99% interval")

    class Meta:
        model = DailyFigures
        fields = ["day", "game", "currency", "table", "kind", "scope", "outside_99"]

    def filter_scope(self, queryset, name, value):
        return queryset.filter(table_code="") if value == "total" else queryset.exclude(table_code="")


class DailyTableSummaryFilterSet(django_filters.FilterSet):
    day = django_filters.DateFilter(label="Gaming day")
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    flagged = django_filters.BooleanFilter()

    class Meta:
        model = DailyTableSummary
        fields = ["day", "table", "game", "flagged"]


class DailyExposureFilterSet(django_filters.FilterSet):
    day = django_filters.DateFilter(label="Gaming day")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    currency = django_filters.MultipleChoiceFilter(choices=Currency.choices)
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    kind = django_filters.MultipleChoiceFilter(choices=SIDE_OPTION_CHOICES, label="Side option")

    class Meta:
        model = DailyExposure
        fields = ["day", "game", "currency", "table", "kind"]


class ReportDocumentFilterSet(django_filters.FilterSet):
    day_from = django_filters.DateFilter(field_name="day", lookup_expr="gte", label="From day")
    day_to = django_filters.DateFilter(field_name="day", lookup_expr="lte", label="To day")
    kind = django_filters.ChoiceFilter(choices=ReportKind.choices, label="Report")

    class Meta:
        model = ReportDocument
        fields = ["day_from", "day_to", "kind"]


class ReportRunFilterSet(django_filters.FilterSet):
    day = django_filters.DateFilter(label="Gaming day")
    status = django_filters.MultipleChoiceFilter(choices=RunStatus.choices)
    trigger = django_filters.MultipleChoiceFilter(choices=RunTrigger.choices)

    class Meta:
        model = ReportRun
        fields = ["day", "status", "trigger"]
