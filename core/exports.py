"""The lists' exports, data not markup: CSV written row by row as it is sent, XLSX up to
XLSX_MAX_ROWS rows.

Both read a table's values as django-tables2's `Table.as_values()` gives them, a generator: the
header, then each row's column values (a column's `value()`, never its markup), through
`core.export_values.table_values`, which works each column's function out once a table. A list
whose rows come already in the export's order (the round list) is read CHUNK_SIZE rows at a time
(`QuerySet.iterator`, a table a chunk: `chunked_values`), so a month of rounds is never held whole:
not as model instances, not as a CSV, not as a workbook. The other lists are small; django-tables2
sorts them by `?sort=` as their pages.

The XLSX is written by openpyxl's write-only mode to a temporary file:
tablib's XLSX (what django-tables2's TableExport uses) builds the whole workbook in memory, 480 MB and
31 s for 100,000 rounds, against 43 MB and 14 s.
"""

import csv
import gc
import re
import tempfile
from collections.abc import Iterable, Iterator
from decimal import Decimal
from itertools import batched

from django.db.models import QuerySet
from django.http import FileResponse, QueryDict, StreamingHttpResponse
from django_tables2.export import TableExport
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from core.export_values import table_values

CSV = TableExport.CSV
XLSX = TableExport.XLSX
# The formats a list offers, in the order of its buttons: (format, label).
EXPORTS = ((CSV, "Export CSV"), (XLSX, "Export XLSX"))
EXPORT_FORMATS = tuple(export_format for export_format, label in EXPORTS)
XLSX_MAX_ROWS = 100_000
CHUNK_SIZE = 2_000
# Rows sent to the client at a time: one write a row is a system call a row (a day's rounds CSV spent
# a tenth of its time in them).
CSV_ROWS_A_WRITE = 200
EXPORT_PARAM = "_export"

# A plain decimal numeral that a spreadsheet holds exactly (15 significant digits), without leading
# zeros: "0012" or a 19-digit id stay text, as they were sent.
NUMERAL = re.compile(r"-?(?:0|[1-9]\d*)(?:\.(\d+))?")
SIGNIFICANT_DIGITS = 15


def chunked_values(make_table, records: QuerySet | Iterable, exclude_columns=()) -> Iterator[list]:
    """The header and every row's values of the tables `make_table(rows)` makes of `records` (a
    queryset, or any iterable of rows, in their order) read CHUNK_SIZE at a time: a table a chunk, so
    no more than a chunk is held."""
    if isinstance(records, QuerySet):
        records = records.iterator(chunk_size=CHUNK_SIZE)
    header = None
    for chunk in batched(records, CHUNK_SIZE):
        values = table_values(make_table(list(chunk)), exclude_columns)
        first = next(values)
        if header is None:
            header = first
            yield header
        yield from values
        # A django-tables2 table holds reference cycles (its columns and rows point back at it): only
        # the cycle collector frees a chunk's table and rows, and left to itself it runs too seldom
        # to keep the export's memory flat (BENCHMARKS.md, "The day's pack"). Let go of the chunk
        # first, so that the next one is not read while this one is still held.
        del values, chunk
        gc.collect()
    if header is None:
        yield next(table_values(make_table([]), exclude_columns))


def export_links(query: str) -> list[tuple[str, str]]:
    """(label, query string) of each export of a list, from its CSV export's query (`export_query`)."""
    links = []
    for export_format, label in EXPORTS:
        params = QueryDict(query, mutable=True)
        params[EXPORT_PARAM] = export_format
        links.append((label, params.urlencode()))
    return links


class Echo:
    """A file whose write gives back what it is given: csv.writer's rows as strings, to be sent
    (Django's documented way to stream a CSV)."""

    def write(self, value):
        return value


def csv_text(rows: Iterable[list]) -> Iterator[str]:
    """The rows as CSV text, CSV_ROWS_A_WRITE rows a piece, written as they are read."""
    writer = csv.writer(Echo())
    for some in batched(rows, CSV_ROWS_A_WRITE):
        yield "".join(writer.writerow(row) for row in some)


def csv_response(rows: Iterable[list], filename: str) -> StreamingHttpResponse:
    """The rows as a CSV, written as it is sent, CSV_ROWS_A_WRITE rows to each write to the client."""
    response = StreamingHttpResponse(csv_text(rows), content_type=TableExport.FORMATS[CSV])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def xlsx_cell(sheet, value):
    """A cell's value as a spreadsheet holds it: a plain numeral as a number (its decimal places
    kept as its format), other text as text (never a formula, whatever it starts with)."""
    if not isinstance(value, str):
        return value
    numeral = NUMERAL.fullmatch(value)
    if numeral and sum(c.isdigit() for c in value.lstrip("-0.")) <= SIGNIFICANT_DIGITS:
        places = numeral.group(1)
        if places is None:
            return int(value)
        cell = WriteOnlyCell(sheet, value=Decimal(value))
        cell.number_format = "0." + "0" * len(places)
        return cell
    if value.startswith("="):
        cell = WriteOnlyCell(sheet, value=value)
        cell.data_type = "s"  # text: openpyxl takes a leading "=" for a formula
        return cell
    return value


def xlsx_response(rows: Iterable[list], filename: str, title: str) -> FileResponse:
    """The rows as an XLSX workbook of one sheet, the header row bold and frozen."""
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(re.sub(r"[\\*?:/\[\]]", "-", title)[:31] or "Export")
    sheet.freeze_panes = "A2"
    bold = Font(bold=True)
    for number, row in enumerate(rows):
        if number == 0:
            header = [WriteOnlyCell(sheet, value=text) for text in row]
            for cell in header:
                cell.font = bold
            sheet.append(header)
        else:
            sheet.append([xlsx_cell(sheet, value) for value in row])
    file = tempfile.TemporaryFile()
    workbook.save(file)
    file.seek(0)
    return FileResponse(file, as_attachment=True, filename=filename, content_type=TableExport.FORMATS[XLSX])
