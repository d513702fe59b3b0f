"""The shared pieces of every list page: a filtered, sortable, exportable list view and its columns.

A list page declares its queryset, filterset, table and permission; the same filterset serves
the page, the API and the exports (`?_export=csv`, `?_export=xlsx`: core/exports.py).
"""

from datetime import UTC

import django_tables2 as tables
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.paginator import EmptyPage, Paginator
from django.db.models import QuerySet
from django.shortcuts import render
from django.template.loader import get_template
from django.views.generic.base import TemplateResponseMixin
from django_filters.views import FilterView
from django_tables2 import RequestConfig
from django_tables2.export import ExportMixin, TableExport
from django_tables2.paginators import LazyPaginator
from django_tables2.views import SingleTableMixin

from core.export_values import table_values
from core.exports import (
    CSV,
    EXPORT_FORMATS,
    EXPORT_PARAM,
    XLSX,
    XLSX_MAX_ROWS,
    chunked_values,
    csv_response,
    export_links,
    xlsx_response,
)
from core.money import money, money_value
from core.replica import ReplicaReadsMixin
from core.templatetags.pitboss import local_time

PAGE_SIZE = 50
# What a list shows in place of rows while its filter refuses the query.
REFUSED_FILTER = "Nothing is listed until the filter above is corrected."
MAX_OFFSET = 2**63 - 1  # the most rows a query can skip: a 64-bit integer (SQLite's, PostgreSQL's bigint)


class ListExport(TableExport):
    """The lists export CSV and XLSX only (EXPORT_FORMATS): django-tables2 takes any format tablib
    names, and xls and ods need libraries that are not installed (a server error). Another
    `?_export=` shows the page."""

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
    ReplicaReadsMixin, LoginRequiredMixin, PermissionRequiredMixin, ExportMixin, SingleTableMixin, FilterView
):
    """Login and a permission, a filterset, a django-tables2 table, CSV and XLSX exports.

    Pagination is the table's (`table_pagination`); the view's own `paginate_by` stays unset so
    the rows are counted once, not twice. An export holds every filtered row in the table's order
    (`get_table_data()`, sorted by `?sort=`), unpaginated, read from the database in chunks: the CSV
    streams, the XLSX holds up to XLSX_MAX_ROWS rows (more are refused, and the CSV offered).
    A query the filter refuses answers 400 with the page and the fields' errors, exporting or not.
    """

    template_name = "includes/list_page.html"
    title = ""
    export_class = ListExport
    export_formats = EXPORT_FORMATS
    export_trigger_param = EXPORT_PARAM
    export_refused_template = "includes/export_refused.html"
    xlsx_max_rows = XLSX_MAX_ROWS
    export_in_chunks = False
    table_pagination = {"per_page": PAGE_SIZE, "paginator_class": ListPaginator}
    # Links shown beside the title: (permission, url name, label).
    actions: tuple[tuple[str, str, str], ...] = ()
    # Query parameters, not fields of the filter, that filtering keeps (the form sends them hidden).
    kept_by_filter: tuple[str, ...] = ("sort",)

    def get_export_filename(self, export_format):
        return f"{self.export_name}.{export_format}"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["title"] = self.title
        context["actions"] = [(url, label) for perm, url, label in self.actions if user.has_perm(perm)]
        query = self.request.GET.copy()
        query.pop("page", None)
        query[self.export_trigger_param] = CSV
        context["export_query"] = query.urlencode()
        fields = self.filterset.form.fields
        context["filter_kept"] = [
            (name, value)
            for name in self.kept_by_filter
            if name not in fields
            for value in self.request.GET.getlist(name)
        ]
        return context

    def get_table(self, **kwargs):
        if self.filter_refused():
            kwargs["empty_text"] = REFUSED_FILTER
        return super().get_table(**kwargs)

    def filter_refused(self) -> bool:
        """The filter's form refuses the query: a day that is no date, a status the list has not."""
        return self.filterset.is_bound and not self.filterset.is_valid()

    def exporting(self) -> bool:
        export_format = self.request.GET.get(self.export_trigger_param)
        return self.export_class.is_valid_format(export_format) and not self.filter_refused()

    def export_table(self, data):
        """An export's table: every row of `data`, no pages, sorted by `?sort=` as the page is."""
        table = self.get_table_class()(data=data, **self.get_table_kwargs())
        return RequestConfig(self.request, paginate=False).configure(table)

    def export_values(self):
        """The export's header and rows. A view whose `get_table_data()` is already in the export's
        order says so (`export_in_chunks`) and is read in chunks (core.exports.chunked_values)."""
        data = self.get_table_data()
        if self.export_in_chunks:
            kwargs = {**self.get_table_kwargs(), "order_by": None}  # in order already: no sort a chunk
            return chunked_values(
                lambda rows: self.get_table_class()(rows, **kwargs), data, self.exclude_columns
            )
        return table_values(self.export_table(data), self.exclude_columns)

    def create_export(self, export_format):
        filename = self.get_export_filename(export_format)
        if export_format == XLSX:
            data = self.get_table_data()
            rows = data.count() if isinstance(data, QuerySet) else len(data)
            if rows > self.xlsx_max_rows:
                return self.export_refused(rows)
            return xlsx_response(self.export_values(), filename, title=self.export_name)
        return csv_response(self.export_values(), filename)

    def export_refused(self, rows: int):
        """An XLSX of more rows than a workbook here holds: a page that says so and offers the CSV."""
        query = self.request.GET.copy()
        query[self.export_trigger_param] = CSV
        back = self.request.GET.copy()
        back.pop(self.export_trigger_param, None)
        context = {
            "title": self.title,
            "rows": rows,
            "limit": self.xlsx_max_rows,
            "csv_query": query.urlencode(),
            "back_query": back.urlencode(),
        }
        return render(self.request, self.export_refused_template, context, status=422)

    def render_to_response(self, context, **kwargs):
        # The page's export buttons, from its CSV export's query (a list may change it); none while
        # the filter is refused.
        refused = self.filter_refused()
        if "export_query" in context and not refused:
            context["export_links"] = export_links(context["export_query"])
        if refused:
            # The page with the fields' errors, for an export too: an export of no rows (django-filter
            # lists none for a refused filter) read as "none that day" and said nothing of why.
            return TemplateResponseMixin.render_to_response(self, context, status=400, **kwargs)
        return super().render_to_response(context, **kwargs)


class MoneyColumn(tables.Column):
    """An amount, right-aligned, with the currency read from `currency` (an accessor on the row)."""

    def __init__(self, *args, currency: str = "currency", **kwargs):
        self.currency = tables.A(currency)
        attrs = kwargs.pop("attrs", {})
        attrs.setdefault("th", {"class": "number"})
        attrs.setdefault("td", {"class": "number"})
        super().__init__(*args, attrs=attrs, **kwargs)

    def render(self, value, record):
        return money(value, self.currency.resolve(record))

    def value(self, value):
        return "" if value is None else money_value(value)


class CellColumn(tables.TemplateColumn):
    """A cell drawn by a template of templates/cells/ (`template_name`).

    The template is given what a TemplateColumn's is (`value`, `record`, `default`, `column`,
    `row_counter`), what `context(value, record)` returns, but not the page's context (no
    `request`): a cell needs none of it, and TemplateColumn's copy of the page's context, with the
    request's context processors run again, for each cell made the 50-row round list 1.3x slower.
    When a cell depends on less than its row, `key(value, record)` says on what (`by_value=True`: on
    its value alone) and each distinct cell is drawn once a table; the key must hold everything the
    template reads. Both are called as they are: `extra_context`, inspected for its arguments at
    each cell, cost a third of a cell. An empty value shows the column's default, as in a plain
    column; exports take `value()`, the plain data, never the markup.
    """

    empty_values = (None, "")

    def __init__(self, verbose_name=None, *, context=None, key=None, by_value: bool = False, **kwargs):
        super().__init__(verbose_name=verbose_name, **kwargs)
        self.context = context
        self.key = (lambda value, record: value) if by_value else key
        # A table has its own copy of its columns (django-tables2 copies them for each table), so
        # these are the cells of one table.
        self.drawn = {}

    def cell_key(self, **kwargs):
        """What the cell's markup depends on, when less than its row (given what `render` is);
        None: the cell is drawn for each row."""
        return None if self.key is None else self.key(kwargs["value"], kwargs["record"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.context is not None:
            context.update(self.context(kwargs["value"], kwargs["record"]))
        return context

    def render(self, **kwargs):
        key = self.cell_key(**kwargs)
        if key is not None and key in self.drawn:
            return self.drawn[key]
        context = self.get_context_data(**kwargs)
        cell = get_template(self.template_name).render(context)
        if key is not None:
            self.drawn[key] = cell
        return cell

    def value(self, value):
        return value


class LocalTimeColumn(tables.Column):
    """A moment in the user's time zone, UTC on hover, drawn as every page draws one (the `local_time`
    template filter); in exports ISO 8601 in UTC, whoever exports."""

    def render(self, value):
        return local_time(value)

    def value(self, value):
        return value.astimezone(UTC).isoformat() if value else ""


class BadgeColumn(CellColumn):
    """A status as a coloured badge: `badge-<the stored value>`, showing its label (the label in
    exports)."""

    template_name = "cells/badge.html"

    def cell_key(self, *, value, record, bound_column, **kwargs):
        return (value, self.stored_value(record, bound_column))

    def stored_value(self, record, bound_column):
        """The stored value: `value` is its label when the field has choices."""
        return bound_column.accessor.resolve(record)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["badge"] = self.stored_value(kwargs["record"], kwargs["bound_column"])
        context["label"] = kwargs["value"]
        return context
