import django_tables2 as tables
from django.template.loader import render_to_string
from django.urls import reverse

from core.listing import BadgeColumn, CellColumn

from .models import Table
from .published import FigureOfRecord
from .selectors import dealer_on_duty, table_alerts

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}


class StatusColumn(BadgeColumn):
    """The status badge and, beside it, what other apps say of the table (an open incident), linked:
    rows come from `selectors.with_alerts`."""

    def render(self, value, record, bound_column):
        return render_to_string(
            "tables/status_cell.html",
            {"status": record.status, "label": value, "alerts": table_alerts(record)},
        )


class TableTable(tables.Table):
    code = tables.Column(linkify=True, attrs={"td": {"class": "code"}})
    # Who deals now, as the table page says it: its latest round's dealt_by, else the hand-set name.
    dealer = tables.Column("dealer on duty", empty_values=(), orderable=False)
    status = StatusColumn()
    version = tables.Column(
        "configuration",
        accessor="current_version",
        attrs={"th": {"class": "number"}, "td": {"class": "number"}},
    )

    class Meta:
        model = Table
        fields = ["code", "name", "game", "currency", "studio", "dealer", "status", "version"]
        order_by = "code"
        empty_text = "No table matches."

    def render_dealer(self, record):
        return dealer_on_duty(record).dealer or "—"

    def value_dealer(self, record):
        return dealer_on_duty(record).dealer

    def render_currency(self, record):
        return record.currency

    def render_version(self, value):
        return f"v{value}"

    def value_version(self, value):
        return value

    def value_status(self, value, record):
        return "; ".join([value, *(alert.label for alert in table_alerts(record))])


def published_page(record: FigureOfRecord) -> str:
    """The table's published figures page, at the row's version."""
    url = reverse("tables:published_rtp", args=[record.table.code])
    return f"{url}?version={record.configuration.version}"


def percent(value) -> str:
    return f"{value} %"


class PublishedFigureTable(tables.Table):
    """A row per bet kind of each version: what the game gives at best play, the operator's published
    figure of record with its source, and what the players' sheet states (tables.published)."""

    table = tables.Column(
        "Table", accessor="table__code", linkify=published_page, attrs={"td": {"class": "code"}}
    )
    version = tables.Column("Version", accessor="configuration__version", attrs=NUMBER)
    kind = tables.Column("Bet kind", accessor="label")
    computed = tables.Column("Computed (maximum)", attrs=NUMBER, default="computing")
    published = tables.Column("Published", accessor="published__rtp", attrs=NUMBER, default="—")
    source = CellColumn(
        "Published in",
        accessor="published",
        order_by="published__source_document",
        template_name="cells/published_source.html",
        default="not entered",
    )
    published_on = tables.Column("Published on", accessor="published__published_on", default="—")
    entered_by = tables.Column("Entered by", accessor="published__entered_by", default="—")
    stated = tables.Column("The sheet states", attrs=NUMBER, default="—")
    above = CellColumn(
        "Above the game's",
        accessor="above_the_game",
        template_name="cells/above_the_game.html",
        by_value=True,
    )

    class Meta:
        empty_text = "No figure matches."

    def render_computed(self, value):
        return percent(value)

    def value_computed(self, value):
        return value

    def render_published(self, value):
        return percent(value)

    def value_published(self, value):
        return value

    def render_stated(self, value):
        return percent(value)

    def value_stated(self, value):
        return value

    def render_published_on(self, value):
        return value.isoformat()

    def value_published_on(self, value):
        return value.isoformat()

    def value_source(self, value):
        return value.source_document

    def value_above(self, value):
        return "yes" if value else "no"
