"""Compliance clears a filtered list in sequence: "Sign off and next" signs the round off and opens
the next round of the list it came from, in the list's order, keeping its filters."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from rounds.models import Round
from tests.rounds.test_pages import demo, listed, login, simulated_rounds  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]

URL = reverse("rounds:round_list")


def sign_off_and_next(client, round_id: str, list_query: str, comment="Checked.") -> str:
    response = client.post(
        reverse("rounds:round_review", args=[round_id]), {"comment": comment, "list": list_query, "next": "1"}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


def test_sign_off_and_next_walks_the_filtered_list_in_its_order(client):
    rounds = simulated_rounds() + simulated_rounds(table="CLS1", game="classic", shoe="CLS1-S0900")
    to_review = [r for r in rounds if r.finding_count and r.table.code == "DLX1"]
    assert len(to_review) >= 2
    login(client, "compliance")
    query = {"table": "DLX1", "has_findings": "true", "reviewed": "false", "sort": "-wagered"}
    page = client.get(URL, query)
    first = listed(page)[0]
    link = re.search(rf'href="(/rounds/{first}/\?list=[^"]+)"', page.content.decode())[1]
    html = client.get(link.replace("&amp;", "&")).content.decode()
    assert "Sign off and next" in html
    list_query = re.search(r'name="list" value="([^"]*)"', html)[1].replace("&amp;", "&")
    assert parse_qs(list_query) == {key: [value] for key, value in query.items()}

    expected = [r.round_id for r in sorted(to_review, key=lambda r: (r.wagered, r.pk), reverse=True)]
    visited = [first]
    location = sign_off_and_next(client, first, list_query)
    while urlsplit(location).path != URL:
        round_id = urlsplit(location).path.strip("/").split("/")[-1]
        assert parse_qs(urlsplit(location).query)["list"] == [list_query]
        visited.append(round_id)
        location = sign_off_and_next(client, round_id, list_query)
    assert visited == expected
    assert parse_qs(urlsplit(location).query) == {key: [value] for key, value in query.items()}
    assert not Round.objects.filter(round_id__in=expected, reviewed_at__isnull=True).exists()
    assert listed(client.get(URL, query)) == []


def test_without_a_list_the_page_offers_only_the_sign_off(client):
    round_ = next(r for r in simulated_rounds() if r.finding_count)
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    assert "Sign off as reviewed" in html and "Sign off and next" not in html
