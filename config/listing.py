"""The shared pieces of every list page: a filtered, sortable, exportable list view and its columns.

A list page declares its queryset, filterset, table and permission; the same filterset serves
the page, the API and the CSV export (`?_export=csv`).
"""

import django_tables2 as tables
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.paginator import EmptyPage, Paginator
from django_filters.views import FilterView
from django_tables2.export import ExportMixin, TableExport
from django_tables2.paginators import LazyPaginator
from django_tables2.views import SingleTableMixin

from config.html import format_html
from config.money import money
from config.table_rows import resolve
from tables.templatetags.pitboss import utc_text

PAGE_SIZE = 50
MAX_OFFSET = 2**63 - 1  # the most rows a query can skip: a 64-bit integer (SQLite's, PostgreSQL's bigint)
EXPORT_FORMATS = (TableExport.CSV,)


class ListExport(TableExport):
    """The lists export CSV only: django-tables2 takes any format tablib names, and xlsx, xls and
    ods need libraries that are not installed (a server error). Another `?_export=` shows the page."""

    @classmethod
    def is_valid_format(cls, export_format):
        return export_format in EXPORT_FORMATS


class PageSizeBounded:
    """A paginator's page size held to 1 to PAGE_SIZE rows: django-tables2 takes `?per_page=` from
    the query as given, and below 1 it made a negative number of pages (a server error), above
    PAGE_SIZE a page of every row."""

    def __init__(self, object_list, per_page, *args, **kwargs):
        super().__init__(object_list, min(max(per_page, 1), PAGE_SIZE), *args, **kwargs)


class ListPaginator(PageSizeBounded, Paginator):
    pass


class LazyListPaginator(PageSizeBounded, LazyPaginator):
    """Pages without a COUNT: the number of pages is known up to the next one. A page past any the
    database can skip to is empty, as one past the last rows is (its OFFSET was a server error)."""

    def validate_number(self, number):
        number = super().validate_number(number)
        if (number - 1) * self.per_page > MAX_OFFSET:
            raise EmptyPage(self.error_messages["no_results"])
        return number


class FilteredListView(
    LoginRequiredMixin, PermissionRequiredMixin, ExportMixin, SingleTableMixin, FilterView
):
    """Login and a permission, a filterset, a django-tables2 table, CSV export.

    Pagination is the table's (`table_pagination`); the view's own `paginate_by` stays unset so
    the rows are counted once, not twice.
    """

    template_name = "includes/list_page.html"
    title = ""
    export_class = ListExport
    export_formats = EXPORT_FORMATS
    table_pagination = {"per_page": PAGE_SIZE, "paginator_class": ListPaginator}
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
