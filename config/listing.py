"""The shared pieces of every list page: a filtered, sortable, exportable list view and its columns.

A list page declares its queryset, filterset, table and permission; the same filterset serves
the page, the API and the CSV export (`?_export=csv`).
"""

import django_tables2 as tables
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django_filters.views import FilterView
from django_tables2.export.views import ExportMixin
from django_tables2.views import SingleTableMixin

from config.html import format_html
from config.money import money
from config.table_rows import resolve
from tables.templatetags.pitboss import utc_text

PAGE_SIZE = 50


class FilteredListView(
    LoginRequiredMixin, PermissionRequiredMixin, ExportMixin, SingleTableMixin, FilterView
):
    """Login and a permission, a filterset, a django-tables2 table, CSV export.

    Pagination is the table's (`table_pagination`); the view's own `paginate_by` stays unset so
    the rows are counted once, not twice.
    """

    template_name = "includes/list_page.html"
    title = ""
    export_formats = ("csv",)
    table_pagination = {"per_page": PAGE_SIZE}
    # Links shown beside the title: (permission, url name, label).
    actions: tuple[tuple[str, str, str], ...] = ()

    def get_export_filename(self, export_format):
        return f"{self.export_name}.{export_format}"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["title"] = self.title
        context["actions"] = [(url, label) for perm, url, label in self.actions if user.has_perm(perm)]
        query = self.request.GET.copy()
        query.pop("page", None)
        query["_export"] = "csv"
        context["export_query"] = query.urlencode()
        return context


class MoneyColumn(tables.Column):
    """An amount, right-aligned, with the currency read from `currency` (an accessor on the row)."""

    def __init__(self, *args, currency: str = "currency", **kwargs):
        self.currency = tables.A(currency)
        attrs = kwargs.pop("attrs", {})
        attrs.setdefault("th", {"class": "number"})
        attrs.setdefault("td", {"class": "number"})
        super().__init__(*args, attrs=attrs, **kwargs)

    def render(self, value, record):
        return money(value, resolve(self.currency, record))

    def value(self, value):
        return "" if value is None else str(value)


class UtcDateTimeColumn(tables.Column):
    """A moment in UTC with the zone shown; ISO 8601 in exports."""

    def render(self, value):
        return format_html('<time datetime="{}">{}</time>', value.isoformat(), utc_text(value))

    def value(self, value):
        return value.isoformat() if value else ""


class BadgeColumn(tables.Column):
    """A status as a coloured badge (`badge-<value>`); the label in exports."""

    def render(self, value, record, bound_column):
        raw = resolve(bound_column.accessor, record)
        return format_html('<span class="badge badge-{}">{}</span>', raw, value)

    def value(self, value):
        return value
