"""The navigation's search box (portal.search): any id, straight to its page when one thing matches,
a list when several do, a message when none does, and never what the user may not see."""

from urllib.parse import quote

import pytest
from django.urls import reverse

from rounds.models import Bet, Incident
from tables.models import Table
from tests.rounds.corrections_support import boundless_shoe, demo, demo_user, ingest  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


def search(client, query: str):
    return client.get(reverse("search"), {"q": query})


@pytest.fixture
def boundless_round():
    document = boundless_shoe("BND1-S0904", players=60, seed=5)[0]
    return ingest(document)


def test_one_match_goes_straight_to_its_page(client, boundless_round):
    client.force_login(demo_user("supervisor"))
    last = Bet.objects.filter(round=boundless_round).order_by("-id").first()
    expected = {
        "BND1": reverse("tables:table_detail", args=["BND1"]),
        "bnd1": reverse("tables:table_detail", args=["BND1"]),  # a table code in any case
        boundless_round.round_id: boundless_round.get_absolute_url(),
        f"  {boundless_round.round_id} ": boundless_round.get_absolute_url(),
        "BND1-S0904": f"{reverse('rounds:round_list')}?shoe=BND1-S0904",
        last.player.external_id: reverse("limits:player_detail", args=[last.player.external_id]),
    }
    for query, url in expected.items():
        response = search(client, query)
        assert response.status_code == 302 and response["Location"] == url, query


def test_a_bet_opens_the_page_of_spots_that_holds_it(client, boundless_round):
    client.force_login(demo_user("compliance"))
    bet = Bet.objects.filter(round=boundless_round).order_by("-id").first()  # the last player's
    response = search(client, bet.bet_id)
    assert (
        response["Location"] == f"{boundless_round.get_absolute_url()}?spots=3#bet-{bet.pk}"
    )  # 60 players, 25 a page
    assert f'id="bet-{bet.pk}"' in client.get(response["Location"]).content.decode()


def test_an_incident_by_its_number_only_for_those_who_may_see_incidents(client):
    table = Table.objects.get(code="DLX1")
    incident = Incident.objects.create(table=table, kind="network_failure")
    client.force_login(demo_user("supervisor"))
    for query in (str(incident.pk), f"#{incident.pk}", f"incident {incident.pk}"):
        assert search(client, query)["Location"] == reverse("rounds:incident_detail", args=[incident.pk])
    client.force_login(demo_user("customer-service"))
    response = search(client, str(incident.pk))
    assert response.status_code == 200
    assert "Nothing you may see is called" in response.content.decode()


def test_several_matches_are_listed_and_none_is_said(client, boundless_round):
    client.force_login(demo_user("supervisor"))
    Table.objects.filter(code="CLS1").update(code="BND1-S0904")  # a table coded as a shoe is named
    html = search(client, "BND1-S0904").content.decode()
    assert html.count('<li><span class="subtle">') == 2 and "Table" in html and "Shoe" in html
    html = search(client, "no-such-id").content.decode()
    assert "Nothing you may see is called" in html and "no-such-id" in html


@pytest.mark.parametrize("query", ["\x00", "x" * 10_000, "%", "' OR 1=1 --", "#", "incident 99999999999999"])
def test_odd_queries_are_answered_not_failed(client, query):
    client.force_login(demo_user("compliance"))
    assert search(client, query).status_code == 200, quote(query[:20])


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = search(client, "BND1")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
