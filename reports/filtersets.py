import django_filters

from blackjack.rules import SIDE_OPTION_KINDS
from core.filters import MAX_KEY
from limits.choices import BetKind
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
from .records import CURRENT_ROWS

SIDE_OPTION_CHOICES = [(kind, label) for kind, label in BetKind.choices if kind in SIDE_OPTION_KINDS]
# A run's id: a whole number a database key can hold (a larger one is a 400 naming `run`, not a 500).
RUN_ID = {"min_value": 1, "max_value": MAX_KEY, "decimal_places": 0}


class OfOneRun(django_filters.FilterSet):
    """Rows of the run `run`; without it, of each day's current run only (`reports.records`), so that a
    day run twice is never listed twice."""

    run = django_filters.NumberFilter(
        field_name="run", label="Run", help_text="Empty: the day's current run.", **RUN_ID
    )

    @property
    def qs(self):
        rows = super().qs
        run = self.form.cleaned_data.get("run") if self.is_bound and self.form.is_valid() else None
        return rows if run is not None else rows.filter(CURRENT_ROWS)


class DailyFiguresFilterSet(OfOneRun):
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
    outside_99 = django_filters.BooleanFilter(label="RTP flag (outside 99%)")

    class Meta:
        model = DailyFigures
        fields = ["day", "run", "game", "currency", "table", "kind", "scope", "outside_99"]

    def filter_scope(self, queryset, name, value):
        return queryset.filter(table_code="") if value == "total" else queryset.exclude(table_code="")


class DailyTableSummaryFilterSet(OfOneRun):
    day = django_filters.DateFilter(label="Gaming day")
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    flagged = django_filters.BooleanFilter(label="RTP flag")

    class Meta:
        model = DailyTableSummary
        fields = ["day", "run", "table", "game", "flagged"]


class DailyExposureFilterSet(OfOneRun):
    day = django_filters.DateFilter(label="Gaming day")
    game = django_filters.MultipleChoiceFilter(choices=Game.choices)
    currency = django_filters.MultipleChoiceFilter(choices=Currency.choices)
    table = django_filters.CharFilter(field_name="table__code", label="Table code")
    kind = django_filters.MultipleChoiceFilter(choices=SIDE_OPTION_CHOICES, label="Side option")

    class Meta:
        model = DailyExposure
        fields = ["day", "run", "game", "currency", "table", "kind"]


class ReportDocumentFilterSet(django_filters.FilterSet):
    day_from = django_filters.DateFilter(field_name="day", lookup_expr="gte", label="From day")
    day_to = django_filters.DateFilter(field_name="day", lookup_expr="lte", label="To day")
    kind = django_filters.ChoiceFilter(choices=ReportKind.choices, label="Report")
    run = django_filters.NumberFilter(field_name="run", label="Run", **RUN_ID)
    current = django_filters.BooleanFilter(
        label="Current runs only", method="filter_current", help_text="No: every run's PDFs."
    )

    class Meta:
        model = ReportDocument
        fields = ["day_from", "day_to", "kind", "run", "current"]

    def filter_current(self, queryset, name, value):
        return queryset.filter(CURRENT_ROWS) if value else queryset.exclude(CURRENT_ROWS)


class ReportRunFilterSet(django_filters.FilterSet):
    day = django_filters.DateFilter(label="Gaming day")
    status = django_filters.MultipleChoiceFilter(choices=RunStatus.choices)
    trigger = django_filters.MultipleChoiceFilter(choices=RunTrigger.choices)
    superseded = django_filters.BooleanFilter(
        field_name="superseded_by", lookup_expr="isnull", exclude=True, label="Superseded"
    )

    class Meta:
        model = ReportRun
        fields = ["day", "status", "trigger", "superseded"]
