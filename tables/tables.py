import django_tables2 as tables

from config.listing import BadgeColumn

from .models import Table


class TableTable(tables.Table):
    code = tables.Column(linkify=True, attrs={"td": {"class": "code"}})
    status = BadgeColumn()
    version = tables.Column(
        "configuration",
        accessor="current_version",
        attrs={"th": {"class": "number"}, "td": {"class": "number"}},
    )

    class Meta:
        model = Table
        fields = ["code", "name", "game", "currency", "studio", "facilitator", "status", "version"]
        order_by = "code"
        empty_text = "No table matches."

    def render_currency(self, record):
        return record.currency

    def render_version(self, value):
        return f"v{value}"

    def value_version(self, value):
        return value
