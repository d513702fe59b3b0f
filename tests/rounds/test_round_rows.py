"""The round list's rows are drawn by templates/rounds/includes/round_table.html from the records,
not cell by cell by django-tables2: they must be, cell for cell, what django-tables2's own template
draws from RoundTable's columns (the header, sorting and CSV export stay the columns')."""

import re

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.template.loader import get_template
from django.test import RequestFactory

from rounds.tables import RoundTable
from tests.test_list_cells import a_round


def rows_of(html: str) -> list[list[str]]:
    """Each row's cells as (attributes, content), whitespace between tags left out."""
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [
        [
            (" ".join(attrs.split()), content.strip())
            for attrs, content in re.findall(r"<td([^>]*)>(.*?)</td>", row, re.S)
        ]
        for row in rows
    ]


def rendered(template_name: str, rows) -> str:
    request = RequestFactory().get("/rounds/")
    return get_template(template_name).render({"table": RoundTable(rows), "request": request}, request)


def test_the_template_rows_are_django_tables2s_rows():
    cache.clear()
    reviewer = get_user_model()(username='Anna <"A">')
    rows = [
        a_round("R-1"),
        a_round("R 2", outcome="voided", finding_count=2),
        a_round("R-3", outcome="resettled", finding_count=1, reviewed_by=reviewer),
        a_round("R-4", outcome="cancelled_by_server", finding_count=2),
    ]
    ours = rows_of(rendered("rounds/includes/round_table.html", rows))
    theirs = rows_of(rendered("django_tables2/table.html", rows))
    assert len(ours) == len(rows)
    assert ours == theirs


def test_the_rows_are_cached_by_what_they_show():
    cache.clear()
    first = rendered("rounds/includes/round_table.html", [a_round("R-1")])
    assert "badge-completed" in first
    again = rendered("rounds/includes/round_table.html", [a_round("R-1", outcome="voided")])
    assert "badge-voided" in again and "badge-completed" not in again
