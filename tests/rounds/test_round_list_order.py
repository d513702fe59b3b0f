"""The round list: newest played first whatever the order rounds arrived in, sortable by time
played, table, wagered, returned and findings with keyset pages that hold in every order, and the
codes of each round's findings (on the page and in the CSV)."""

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from rounds.views import RoundListView
from tests.rounds.test_pages import demo, listed, login, simulated_rounds  # noqa: F401 (demo: a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]

URL = reverse("rounds:round_list")


def every_page(client, query: dict) -> list[str]:
    """The ids on every page, first to last, following the "Older" links."""
    page = client.get(URL, query)
    ids = listed(page)
    while page.context["older_query"]:
        page = client.get(f"{URL}?{page.context['older_query']}")
        ids += listed(page)
    return ids


def test_rounds_are_listed_newest_played_first_not_in_the_order_they_arrived(client):
    now = datetime.now(UTC)
    later = simulated_rounds(table="DLX1", shoe="DLX1-S0901", start=now - timedelta(hours=1))
    earlier = simulated_rounds(table="DLX1", shoe="DLX1-S0902", start=now - timedelta(hours=5))
    login(client, "compliance")
    played = sorted(later + earlier, key=lambda r: r.opened_at, reverse=True)
    assert every_page(client, {}) == [r.round_id for r in played]
    # The later shoe arrived first, so by arrival (id) the earlier shoe's rounds would lead.
    assert listed(client.get(URL))[0] == later[-1].round_id


@pytest.mark.parametrize(
    ("sort", "key", "reverse"),
    [
        ("wagered", lambda r: (r.wagered, r.pk), False),
        ("-wagered", lambda r: (r.wagered, r.pk), True),
        ("-returned", lambda r: (r.returned, r.pk), True),
        ("finding_count", lambda r: (r.finding_count, r.pk), False),
        ("opened_at", lambda r: (r.opened_at, r.pk), False),
        ("table", lambda r: (r.table.code, -r.opened_at.timestamp(), -r.pk), False),
        ("-table", lambda r: (r.table.code, r.opened_at, r.pk), True),
    ],
)
def test_every_order_pages_by_keyset_through_every_round_once(client, monkeypatch, sort, key, reverse):
    classic = simulated_rounds(table="CLS1", game="classic", shoe="CLS1-S0900")
    rounds = simulated_rounds(table="DLX1") + classic
    monkeypatch.setattr(RoundListView, "per_page", 4)
    login(client, "compliance")
    expected = [r.round_id for r in sorted(rounds, key=key, reverse=reverse)]
    assert every_page(client, {"sort": sort}) == expected

    # And back: from the last page, "Newer" walks the same order backwards.
    page = client.get(URL, {"sort": sort})
    pages = [listed(page)]
    while page.context["older_query"]:
        page = client.get(f"{URL}?{page.context['older_query']}")
        pages.append(listed(page))
    for shown in reversed(pages[:-1]):
        page = client.get(f"{URL}?{page.context['newer_query']}")
        assert listed(page) == shown


def test_sorted_by_table_and_filtered_by_one_the_pages_hold_that_tables_rounds_only(client, monkeypatch):
    classic = simulated_rounds(table="CLS1", game="classic", shoe="CLS1-S0900")
    simulated_rounds(table="DLX1")
    monkeypatch.setattr(RoundListView, "per_page", 4)
    login(client, "compliance")
    newest_first = sorted(classic, key=lambda r: (r.opened_at, r.pk), reverse=True)
    assert every_page(client, {"sort": "table", "table": "CLS1"}) == [r.round_id for r in newest_first]


def test_a_sort_link_starts_the_new_order_at_its_first_page(client, monkeypatch):
    simulated_rounds()
    monkeypatch.setattr(RoundListView, "per_page", 4)
    login(client, "compliance")
    second = client.get(f"{URL}?{client.get(URL).context['older_query']}")
    html = second.content.decode()
    links = re.findall(r'<th [^>]*>\s*<a href="\?([^"]*)">', html)
    assert links and all("sort=" in link and "before=" not in link and "after=" not in link for link in links)


def test_the_list_and_its_csv_show_each_rounds_finding_codes(client):
    rounds = simulated_rounds()
    with_findings = [r for r in rounds if r.finding_count]
    assert with_findings, "the simulated shoe breaks a limit in some rounds"
    round_ = with_findings[0]
    codes = sorted({f.code for f in round_.findings.all()})
    login(client, "compliance")
    html = client.get(URL).content.decode()
    row = re.search(rf'<a href="/rounds/{round_.round_id}/">.*?</tr>', html, re.S)[0]
    assert re.findall(r'<span class="badge badge-code">([^<]*)</span>', row) == codes

    response = client.get(URL, {"_export": "csv"})
    exported = {row["Round"]: row for row in csv.DictReader(io.StringIO(response.getvalue().decode()))}
    assert exported[round_.round_id]["Finding codes"] == " ".join(codes)
    clean = next(r for r in rounds if not r.finding_count)
    assert exported[clean.round_id]["Finding codes"] == ""
