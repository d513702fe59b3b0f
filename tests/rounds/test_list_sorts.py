"""The round list sorted by an amount, by its findings or by table reads its pages from an index, in
order, not from a sort of every round kept (PostgreSQL).

Found measuring the list over 1,000,000 rounds: newest first took 14 ms a page; sorted by returned,
wagered or findings, 720-770 ms, each page sorting every round; sorted by table, 1.2 s (the join on
the table's code sorted every round).
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rounds.selectors import keyset_page
from rounds.views import ROUND_ORDERS, RoundListView
from tests.fixtures import round_document
from tests.rounds.corrections_support import renamed
from tests.rounds.test_pages import demo, ingest  # noqa: F401 (demo: a fixture)
from tests.rounds.test_partitions import plan_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db, pytest.mark.usefixtures("demo")]

# A node that sorts rows (not the Sort Key a Merge Append keeps its index scans' order by).
SORT_NODE = re.compile(r"^\s*(?:->\s+)?(?:Incremental )?Sort\b(?! Key)", re.MULTILINE)
AMOUNT_SORTS = [sort for sort in ROUND_ORDERS if sort.lstrip("-") in ("wagered", "returned", "finding_count")]
TABLE_SORTS = ["table", "-table"]


def page_sql(order: tuple[str, ...], params: dict) -> tuple[str, str | None]:
    """The SQL the list runs for its page after ?before= in `params`, and the next page's cursor."""
    with CaptureQueriesContext(connection) as queries:
        page = keyset_page(RoundListView.queryset, params, order=order, per_page=1, month_field="gaming_day")
    (query,) = queries.captured_queries
    return query["sql"], page.older


def plan_without_seq_scan(sql: str) -> str:
    """The plan PostgreSQL makes when it may not read a table whole: a sort left in it means no index
    gives the order."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    return plan_of(sql, None)


@pytest.mark.parametrize("sort", AMOUNT_SORTS)
def test_a_page_sorted_by_an_amount_is_read_in_order_from_an_index(sort):
    for n in range(3):
        ingest(renamed(round_document("deluxe-split-double-play-behind"), f"-S{n}"))
    order = ROUND_ORDERS[sort]
    field = order[0].lstrip("-")

    first, older = page_sql(order, {})
    plan = plan_without_seq_scan(first)
    assert not SORT_NODE.search(plan), plan

    # A later page starts from the index where its cursor is, not by reading past the earlier pages.
    later, _ = page_sql(order, {"before": older})
    plan = plan_without_seq_scan(later)
    assert not SORT_NODE.search(plan), plan
    assert re.search(rf"Index Cond: .*\b{field}\b", plan), plan


def pages_rounds_sql(order: tuple[str, ...], params: dict) -> tuple[list[str], str | None, str | None]:
    """Every query on the rounds the list runs for its page (after ?before= or before ?after= in
    `params`), and the page's cursors: older, newer."""
    with CaptureQueriesContext(connection) as queries:
        queryset = RoundListView.queryset.select_related("table")
        page = keyset_page(
            queryset, params, order=order, per_page=1, month_field="gaming_day", by_related=True
        )
    rounds = [query["sql"] for query in queries.captured_queries if 'FROM "rounds_round"' in query["sql"]]
    return rounds, page.older, page.newer


@pytest.mark.parametrize("sort", TABLE_SORTS)
def test_a_page_sorted_by_table_is_read_in_order_from_an_index(sort):
    for n in range(3):
        ingest(renamed(round_document("deluxe-split-double-play-behind"), f"-S{n}"))
    order = ROUND_ORDERS[sort]

    first, older, _ = pages_rounds_sql(order, {})
    later, _, newer = pages_rounds_sql(order, {"before": older})
    back, _, _ = pages_rounds_sql(order, {"after": newer})
    for sql in first + later + back:
        plan = plan_without_seq_scan(sql)
        assert not SORT_NODE.search(plan), plan
