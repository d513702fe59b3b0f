"""The round list and the round page over a long history: a page is read from its month first, so
that PostgreSQL plans that month's partitions, not every month's (with 24 months kept, planning the
whole history took 5-7 ms of the list's query and 6 ms of finding a round by its id); and the
keyset pages still go through every round once, across months and back."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.gaming_day import gaming_day_of
from rounds.partitions import month_of, partitions_ensure
from rounds.selectors import shoe_neighbours
from rounds.views import RoundListView
from tests.rounds.test_pages import demo, listed, login  # noqa: F401 (demo: a fixture)
from tests.rounds.test_partitions import cutoff, ingest_at, planned_months

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]

URL = reverse("rounds:round_list")


def month_before(month: date) -> date:
    return month_of(month - timedelta(days=1))


def rounds_over_three_months() -> tuple[list, date]:
    """Two rounds two months ago, one last month, two this month, and this month's first day: the
    list's rounds, newest played first."""
    this = month_of(gaming_day_of(datetime.now(UTC)))
    last = month_before(this)
    before = month_before(last)
    if connection.vendor == "postgresql":
        partitions_ensure([before, last, this])
    days = [before.replace(day=3), before.replace(day=20), last.replace(day=10), this, this]
    rounds = [ingest_at(cutoff(day) + timedelta(hours=1, minutes=n), f"-M{n}") for n, day in enumerate(days)]
    return rounds[::-1], this


def every_page(client) -> list[list[str]]:
    page = client.get(URL)
    pages = [listed(page)]
    while page.context["older_query"]:
        page = client.get(f"{URL}?{page.context['older_query']}")
        pages.append(listed(page))
    return pages


def test_keyset_pages_go_through_every_round_once_across_months_and_back(client, monkeypatch):
    rounds, _ = rounds_over_three_months()
    monkeypatch.setattr(RoundListView, "per_page", 2)
    login(client, "compliance")
    ids = [r.round_id for r in rounds]
    pages = every_page(client)
    assert pages == [ids[0:2], ids[2:4], ids[4:]]

    page = client.get(f"{URL}?{client.get(URL).context['older_query']}")
    page = client.get(f"{URL}?{page.context['older_query']}")
    assert listed(page) == ids[4:]
    page = client.get(f"{URL}?{page.context['newer_query']}")
    assert listed(page) == ids[2:4]
    page = client.get(f"{URL}?{page.context['newer_query']}")
    assert listed(page) == ids[0:2]
    assert page.context["newer_query"] is None  # the first page again

    # Oldest first reads across the months too.
    oldest = client.get(URL, {"sort": "opened_at"})
    assert listed(oldest) == ids[::-1][:2]


def partitioned_queries(queries) -> list[str]:
    """The SELECTs of `queries` that read a table of rounds, to be planned again."""
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and "rounds_" in q["sql"]]


@pytest.mark.postgres
def test_the_newest_page_plans_only_this_months_partitions_and_later(client, monkeypatch):
    rounds, this = rounds_over_three_months()
    monkeypatch.setattr(RoundListView, "per_page", 1)  # this month's two rounds fill it
    login(client, "compliance")
    with CaptureQueriesContext(connection) as captured:
        assert listed(client.get(URL)) == [rounds[0].round_id]
    months = set().union(*(planned_months(sql, None) for sql in partitioned_queries(captured)))
    assert months and min(months) == this, months


@pytest.mark.postgres
def test_a_round_page_plans_only_its_months_partitions(client):
    """The middle round of a shoe of three, played two months ago."""
    day = month_before(month_before(month_of(gaming_day_of(datetime.now(UTC))))).replace(day=3)
    partitions_ensure([month_of(day)])
    shoe = [
        ingest_at(cutoff(day) + timedelta(hours=number), f"-P{number}", shoe="-MID", number=number)
        for number in (1, 2, 3)
    ]
    login(client, "compliance")
    with CaptureQueriesContext(connection) as captured:
        page = client.get(reverse("rounds:round_detail", args=[shoe[1].round_id]))
    assert page.status_code == 200 and shoe[0].round_id in page.content.decode()
    planned = {sql: planned_months(sql, None) for sql in partitioned_queries(captured)}
    assert set().union(*planned.values()) == {month_of(day)}
    assert all(len(months) <= 1 for months in planned.values()), planned


def test_a_rounds_neighbours_in_its_shoe_are_found_across_days_and_months():
    """Rounds of one shoe: the second on the last gaming day of a month, the third more than a
    month later (a shoe left paused); each finds the others."""
    this = month_of(gaming_day_of(datetime.now(UTC)))
    last = month_before(this)
    before = month_before(last)
    if connection.vendor == "postgresql":
        partitions_ensure([before, last, this])
    days = [before.replace(day=27), last - timedelta(days=1), this + timedelta(days=1)]
    rounds = [
        ingest_at(cutoff(day) + timedelta(hours=2), f"-N{number}", shoe="-LONG", number=number)
        for number, day in enumerate(days, start=1)
    ]
    assert shoe_neighbours(rounds[0]) == (None, rounds[1])
    assert shoe_neighbours(rounds[1]) == (rounds[0], rounds[2])
    assert shoe_neighbours(rounds[2]) == (rounds[1], None)
