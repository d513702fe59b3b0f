"""The body rows of any django-tables2 table as HTML, in one pass (templates/includes/table.html).

django-tables2 works out anew for every cell what is the same for a whole column: the render
method's signature (`inspect.signature`), the cell's and the link's attributes, the model field
behind the accessor; then its template renders each cell. On a 50-row, 11-column list that was
80% of the request. Here the per-column work is done once and each row is one string; the HTML is
the same (tests/test_table_rows.py compares it with django-tables2's own for every list).
"""

from html import escape

import django_tables2 as tables
from django.conf import settings
from django.db import models
from django.template.base import render_value_in_context
from django.templatetags.l10n import localize, unlocalize
from django.utils.safestring import SafeData, SafeString
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.columns.manytomanycolumn import ManyToManyColumn
from django_tables2.utils import A, signature

from config.html import format_html

# What django-tables2 offers a column's render method, by argument name.
RENDER_ARGUMENTS = {"value", "record", "column", "bound_column", "bound_row", "table"}


def table_rows(table, context) -> list[str]:
    """The `<tr>` of each row of the table's current page, rendered in the template `context`."""
    columns = [ColumnCells(table, bound_column, context) for bound_column in table.columns]
    row_attrs = RowAttributes(table)
    return [
        SafeString(f"<tr {row_attrs.html(row)}>{''.join(column.td(row) for column in columns)}</tr>")
        for row in table.paginated_rows
    ]


_BITS: dict[str, tuple[str, ...]] = {}  # an accessor's parts; the project has a few dozen accessors


def resolve(accessor: A, record):
    """`accessor.resolve(record)`, quicker through model instances: there it is a chain of
    attributes, which Accessor.resolve reaches only after a failed item lookup (an exception per
    step). Anything else (dicts, methods to call) goes to Accessor.resolve."""
    bits = _BITS.get(accessor)
    if bits is None:
        bits = _BITS[accessor] = tuple(accessor.bits)  # a property splitting the text at each call
    value = record
    for name in bits:
        if not isinstance(value, models.Model):
            return accessor.resolve(record)
        value = getattr(value, name)
        if callable(value):
            return accessor.resolve(record)
        if value is None:
            break
    return value


def _has_callable(attrs) -> bool:
    if isinstance(attrs, dict):
        return any(_has_callable(value) for value in attrs.values())
    return callable(attrs)


class RowAttributes:
    """The `<tr>` attributes: only `even`/`odd` changes from row to row unless `row_attrs` computes."""

    def __init__(self, table):
        self.computed = _has_callable(table.row_attrs)
        self.by_class = {}

    def html(self, row) -> str:
        if self.computed:
            return row.attrs.as_html()
        css_class = row.get_even_odd_css_class()
        if css_class not in self.by_class:
            self.by_class[css_class] = row.attrs.as_html()
        return self.by_class[css_class]


class ColumnCells:
    """One column's cells, as django-tables2's BoundRow.get_cell and table template make them."""

    def __init__(self, table, bound_column, context):
        self.table = table
        self.context = context
        self.bound_column = bound_column
        self.column = bound_column.column
        self.accessor = A(bound_column.accessor)
        owner_path, _, self.last_name = self.accessor.rpartition(A.SEPARATOR)
        self.owner = A(owner_path)
        self.has_choices = {}  # by model: does the accessor name a field with choices?
        self.default = bound_column.default
        self.render = bound_column.render
        names, takes_any = signature(bound_column.render)
        self.render_arguments = None if takes_any else names
        # django-tables2 does not call a render method that wants an argument it does not offer.
        self.renders = takes_any or set(names) <= RENDER_ARGUMENTS
        # The commonest render methods, called without building every argument for each cell.
        self.plain = type(self.column).render is tables.Column.render and self.render == self.column.render
        self.value_only = self.renders and tuple(names) == ("value",) and not takes_any
        self.link = bound_column.link
        self.plain_link = self.link is not None and not self.link.attrs
        self.localize = bound_column.localize
        attrs = {**table.attrs, **self.column.attrs}
        td_attrs = attrs.get("td", attrs.get("cell", {}))
        # Attributes computed from the record or the value are worked out per cell, as there.
        self.td_attrs = None if _has_callable(td_attrs) else bound_column.attrs["td"].as_html()

    def td(self, row) -> str:
        content = self.content(row)
        td_attrs = self.td_attrs
        if td_attrs is None:
            self.bound_column.current_record = row.record
            self.bound_column.current_value = content
            td_attrs = self.bound_column.attrs["td"].as_html()
        if self.localize is not None:
            content = localize(content) if self.localize else unlocalize(content)
        return f"<td {td_attrs}>{self.html(content)}</td>"

    def html(self, content) -> str:
        """`{{ content }}`: render_value_in_context, without its localisation machinery for the
        commonest contents, which it returns unchanged (or an int as str without thousand
        separators)."""
        if self.context.autoescape:
            if isinstance(content, SafeData):
                return content
            if type(content) is str:
                return escape(content)
            if type(content) is int and not settings.USE_THOUSAND_SEPARATOR:
                return str(content)
        return render_value_in_context(content, self.context)

    def content(self, row):
        """The cell's value, rendered (BoundRow._get_and_render_with and _call_render)."""
        record = row.record
        column = self.column
        value = None
        label = self.choice_label(record)
        if label is not None:
            value = label()
        elif self.last_name:
            try:
                value = resolve(self.accessor, record)
            except Exception:
                # As there: a column that is not a field shows nothing, a link column its text.
                if isinstance(column, BaseLinkColumn) and column.text is not None:
                    return self.rendered(row, None)
        if value in column.empty_values or (isinstance(column, ManyToManyColumn) and not value.exists()):
            return self.default
        return self.rendered(row, value)

    def choice_label(self, record):
        """`get_<field>_display` when the accessor names a model field with choices, else None."""
        model = type(record)
        if model not in self.has_choices:
            field = self.accessor.get_field(record)
            self.has_choices[model] = bool(getattr(field, "choices", ()))
        if not self.has_choices[model]:
            return None
        owner = self.owner.resolve(record, quiet=True)
        if not isinstance(owner, models.Model):
            return None
        return getattr(owner, f"get_{self.last_name}_display", None)

    def rendered(self, row, value):
        if self.link is None:
            if self.plain:
                return value  # Column.render: the value itself
            if self.value_only:
                return self.render(value=value)
        arguments = {
            "value": value,
            "record": row.record,
            "column": self.column,
            "bound_column": self.bound_column,
            "bound_row": row,
            "table": self.table,
        }
        content = None
        if self.render_arguments is None:
            content = self.render(**arguments)
        elif self.renders:
            content = self.render(**{name: arguments[name] for name in self.render_arguments})
        if self.plain_link:
            # LinkTransform's own output, without rebuilding empty attributes around the href.
            url = self.link.compose_url(**arguments)
            return content if url is None else format_html('<a href="{}">{}</a>', url, content)
        return self.link(content, **arguments) if self.link else content
