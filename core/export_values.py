"""A table's export values, as django-tables2's `Table.as_values()` gives them, worked out faster.

`as_values()` finds each cell's value function (the table's `value_<name>`, else its
`render_<name>`, else the column's `value()`) and inspects that function's signature again for every
cell, to pass it only the arguments it takes; a plain column's `value()` inspects its `render()`
once more. A day's rounds CSV (1,051 rows × 14 columns) spent half its time in `inspect.signature`.
Here each column's function and arguments are worked out once a table, and a cell of a model row is
read attribute by attribute where `Accessor.resolve()` first tries each step as a dictionary key
(`model_reader`); the cells are then what `as_values()` makes of them, which tests/test_list_exports.py
checks for every list and tests/test_export_values.py for every way a column names its value.
"""

import inspect
from collections.abc import Iterator
from functools import partial

import django_tables2 as tables
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils.encoding import force_str

PASSED_OVER = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
# What as_values() passes a value function that asks for it: the row's (`value`, `record`,
# `bound_row`) and the column's and table's, which an ExportCell keeps under the same names.
ARGUMENTS = ("value", "record", "column", "bound_column", "bound_row", "table")
FIXED = ("column", "bound_column", "table")


class ExportCell:
    """How one column of a table makes its exported value from a row."""

    def __init__(self, table: tables.Table, bound_column):
        self.table = table
        self.bound_column = bound_column
        self.column = bound_column.column
        self.accessor = tables.A(bound_column.accessor)
        self.readers = {}  # by type of record: how to read its value (`read`)
        name = bound_column.name
        self.function = getattr(table, f"value_{name}", getattr(table, f"render_{name}", None))
        column_type = type(self.column)
        if self.function is None and (
            column_type.value is tables.Column.value and column_type.render is tables.Column.render
        ):
            self.function = None  # a plain column: its value is what its accessor reads
        elif self.function is None:
            self.function = self.column.value
        if self.function is not None:
            parameters = inspect.signature(self.function).parameters.values()
            takes_any = any(parameter.kind == parameter.VAR_KEYWORD for parameter in parameters)
            names = [parameter.name for parameter in parameters if parameter.kind not in PASSED_OVER]
            self.call = caller(self, ARGUMENTS if takes_any else tuple(names))

    def read(self, record):
        """The record's value for the column: a field with choices gives its label."""
        reader = self.readers.get(type(record))
        if reader is None:
            reader = self.readers[type(record)] = (
                self.read_dict if isinstance(record, dict) else model_reader(type(record), self.accessor)
            ) or self.read_any
        return reader(record)

    def read_dict(self, record: dict):
        """A row of `QuerySet.values()`: its value under the accessor's name, as `Accessor.resolve()`
        reads it first."""
        return record[self.accessor] if self.accessor in record else self.read_any(record)

    def read_any(self, record):
        """What `read` gives for any record, as django-tables2 reads a cell."""
        penultimate, remainder = self.accessor.penultimate(record)
        if isinstance(penultimate, models.Model):
            try:
                field = penultimate._meta.get_field(remainder)
            except FieldDoesNotExist:
                field = None
            display = getattr(penultimate, f"get_{remainder}_display", None)
            if getattr(field, "choices", None) and display is not None:
                return display()
        try:
            return self.accessor.resolve(record)
        except Exception:
            return None  # as django-tables2 reads a column that names no field of the row

    def value(self, bound_row):
        record = bound_row.record
        value = self.read(record)
        if value in self.column.empty_values:
            return None
        if self.function is None:
            return value
        return self.call(value, record, bound_row)


def caller(cell: ExportCell, arguments: tuple[str, ...]):
    """`call(value, record, bound_row)`: the cell's value function given the arguments it asks for
    (a function asking for one as_values() does not give makes the cell None). A function of the
    value alone or of the record alone, most of them, is called without a dict made at each cell."""
    if not all(name in ARGUMENTS for name in arguments):
        return lambda value, record, bound_row: None
    function = partial(cell.function, **{name: getattr(cell, name) for name in arguments if name in FIXED})
    of_the_row = tuple(name for name in arguments if name not in FIXED)
    if of_the_row == ("value",):
        return lambda value, record, bound_row: function(value=value)
    if of_the_row == ("record",):
        return lambda value, record, bound_row: function(record=record)

    def call(value, record, bound_row):
        given = {"value": value, "record": record, "bound_row": bound_row}
        return function(**{name: given[name] for name in of_the_row})

    return call


def model_reader(model, accessor: tables.A):
    """A faster `read` of instances of `model`, or None: when the accessor follows forward relations
    to a field or an annotation, its value is read attribute by attribute (None on the way gives
    None), which is what `Accessor.resolve()` gives there, without first trying each step as a
    dictionary key and catching the TypeError, as it must for a record of any kind."""
    if not (isinstance(model, type) and issubclass(model, models.Model)) or not accessor:
        return None
    *path, last = accessor.bits
    for name in path:
        field = field_of(model, name)
        if field is None or not field.concrete or not (field.many_to_one or field.one_to_one):
            return None
        model = field.related_model
    field = field_of(model, last)
    if field is None and hasattr(model, last):
        return None  # a method or a property: read as any record is
    if field is not None and (field.is_relation or not field.concrete):
        return None
    # The label of a field with choices, as `get_<field>_display()` gives it, looked up in a dict.
    labels = (
        {value: force_str(label, strings_only=True) for value, label in field.flatchoices}
        if (field is not None and field.choices)
        else None
    )

    def read(record):
        for name in path:
            record = getattr(record, name)
            if record is None:
                return None
        value = getattr(record, last, None)  # an annotation some rows lack: None, as resolve() gives
        if labels is None:
            return value
        try:
            return labels.get(value, value)
        except TypeError:  # an unhashable value
            return getattr(record, f"get_{last}_display")()

    return read


def field_of(model, name: str):
    try:
        return model._meta.get_field(name)
    except FieldDoesNotExist:
        return None


def table_values(table: tables.Table, exclude_columns=()) -> Iterator[list]:
    """The header, then each row's exported values: `table.as_values(exclude_columns)`."""
    columns = [
        column
        for column in table.columns.iterall()
        if not (column.column.exclude_from_export or column.name in exclude_columns)
    ]
    yield [force_str(column.header, strings_only=True) for column in columns]
    cells = [ExportCell(table, column) for column in columns]
    for row in table.rows:
        yield [as_text(cell.value(row)) for cell in cells]


def as_text(value):
    """`force_str(value, strings_only=True)`: a lazy text (a label) as text, a number or None as is."""
    return value if type(value) is str else force_str(value, strings_only=True)
