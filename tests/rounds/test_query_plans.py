"""PostgreSQL reads what a page asks for from an index made for it, whatever the rounds stored.

Found by bench_pages at 1,000,000 rounds: the round list of one gaming day (`?day=`) took 535 ms,
walking the index of every round newest played first and dropping 515,861 rows of other days; the
incident page looked for the table's cancelled rounds awaiting refunds among its 250,000 rounds.

The plans are read with sequential scans switched off for the query (and sorts, where the page's
order must come from the index), so the planner shows the index it would use on a big table even on
this test's small one: without an index made for the query it falls back to one that filters rows
after reading them.
"""

from datetime import date

import pytest
from django.db import connection, transaction

from rounds.choices import IncidentKind
from rounds.models import Incident
from rounds.services import unrefunded_server_cancelled_rounds
from rounds.views import NEWEST_PLAYED_FIRST, ROUND_ORDERS, RoundListView
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def plan_of(queryset, switched_off=("enable_seqscan", "enable_sort", "enable_incremental_sort")) -> str:
    sql, params = queryset.query.sql_with_params()
    with transaction.atomic(), connection.cursor() as cursor:
        for setting in switched_off:
            cursor.execute(f"SET LOCAL {setting} = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def index_conditions(plan: str) -> list[str]:
    return [line.strip() for line in plan.splitlines() if "Index Cond:" in line]


def test_a_gaming_days_round_list_reads_that_day_newest_played_first_from_an_index():
    newest_played_first = ROUND_ORDERS[NEWEST_PLAYED_FIRST]
    rounds = RoundListView.queryset.filter(gaming_day=date(2026, 1, 12)).order_by(*newest_played_first)
    plan = plan_of(rounds[:51])
    assert any("gaming_day" in condition for condition in index_conditions(plan)), plan
    assert "Sort" not in plan, plan  # read in the page's order, not sorted after


def test_the_rounds_awaiting_an_incidents_refunds_are_read_from_an_index_of_cancelled_rounds():
    table = factories.table("BND1")
    incident = Incident.objects.create(table=table, kind=IncidentKind.OTHER, opened_by=factories.user())
    plan = plan_of(unrefunded_server_cancelled_rounds(incident), switched_off=("enable_seqscan",))
    assert any("ingested_at" in condition for condition in index_conditions(plan)), plan
