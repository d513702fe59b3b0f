import django_tables2 as tables
from django.template.loader import render_to_string

from core.listing import BadgeColumn

from .models import Table
from .selectors import dealer_on_duty, table_alerts


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
