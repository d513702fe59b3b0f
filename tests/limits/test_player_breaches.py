"""A player's limit breaches for customer service: their count and the last one on the player page
(a panel rounds registers in limits.player_panels), each breaching bet marked on the play record,
and the play record's "Breached a limit" filter, all without a query per bet."""

import copy
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from limits.models import Player
from limits.services import personal_limit_set
from rounds.access import play_record_at
from rounds.ingest import round_ingest
from rounds.models import Bet, Finding
from tests.factories import user
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db


def variant(document: dict, round_id: str, number: int, seconds: int) -> dict:
    """The same round under another id, its bets renamed, opened `seconds` from now."""
    changed = copy.deepcopy(document)
    changed["round_id"] = round_id
    changed["number"] = number
    for bet in changed["bets"]:
        bet["bet_id"] = f"{round_id}:{bet['bet_id']}"
    moment = (timezone.now() + timedelta(seconds=seconds)).astimezone(timezone.UTC)
    changed["opened_at"] = changed["closed_at"] = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    return changed


@pytest.fixture
def world():
    """A round played before and two after the main bet's player lowered their maximum below it."""
    call_command("seed_demo", verbosity=0)
    base = round_document("deluxe-split-double-play-behind")
    main = next(bet for bet in base["bets"] if bet["kind"] == "main")
    round_ingest(document=variant(base, "R-1", 1, seconds=-300))
    player = Player.objects.get(external_id=main["player"])
    personal_limit_set(
        player=player,
        max_stake=Decimal(main["stake"]) - 1,
        changed_by=user("customer_service"),
        reason="asked",
    )
    round_ingest(document=variant(base, "R-2", 2, seconds=1))
    round_ingest(document=variant(base, "R-3", 3, seconds=2))
    return {"player": player, "main": main}


def breached_bet_ids(player) -> set[str]:
    breaches = Finding.objects.filter(code="limit_breached", bet__player=player)
    return set(breaches.values_list("bet__bet_id", flat=True))


def test_the_player_page_shows_the_count_of_breaches_and_the_last(client, world):
    player, main = world["player"], world["main"]
    breached = breached_bet_ids(player)
    assert f"R-2:{main['bet_id']}" in breached and f"R-3:{main['bet_id']}" in breached
    assert not any(bet_id.startswith("R-1:") for bet_id in breached)
    client.force_login(user("customer_service"))
    response = client.get(reverse("limits:player_detail", args=[player.external_id]))
    html = response.content.decode()
    assert "Limit breaches" in html
    assert f'<dd class="breach-count">{len(breached)}</dd>' in html
    breaches = Finding.objects.filter(code="limit_breached", bet__player=player)
    last = breaches.order_by("-round__opened_at", "-id")[0]
    assert last.round.round_id == "R-3"
    # Customer service opens no round page: the last breach's round opens the player's play record
    # at that round (rounds.access); compliance, who may, gets the round page.
    at_round = play_record_at(player.external_id, "R-3", last.round.gaming_day).replace("&", "&amp;")
    assert f'href="{at_round}"' in html
    assert reverse("rounds:round_detail", args=["R-3"]) not in html
    client.force_login(user("compliance"))
    compliance_html = client.get(reverse("limits:player_detail", args=[player.external_id])).content.decode()
    assert f'href="{reverse("rounds:round_detail", args=["R-3"])}"' in compliance_html
    assert last.bet.bet_id in html and last.message in html
    assert reverse("rounds:play_record", args=[player.external_id]) + "?breached=yes" in html


def test_a_player_without_breaches_shows_none(client, world):
    other = Bet.objects.exclude(player=world["player"]).filter(round__round_id="R-2").first().player
    assert not breached_bet_ids(other)
    client.force_login(user("customer_service"))
    html = client.get(reverse("limits:player_detail", args=[other.external_id])).content.decode()
    assert '<dd class="breach-count">0</dd>' in html
    assert "No bet of this player breached a limit." in html
    assert "?breached=yes" not in html


def play_record(client, player, **params):
    return client.get(reverse("rounds:play_record", args=[player.external_id]), params)


def marked_rows(html: str) -> dict[str, bool]:
    """Each bet id on the page: whether its row carries the breach mark."""
    rows = {}
    bets = list(Bet.objects.values_list("bet_id", flat=True))
    for row in html.split("<tr")[1:]:
        for bet in bets:
            if f">{bet}<" in row:
                rows[bet] = "badge-finding" in row and ">breached<" in row
    return rows


def test_the_play_record_marks_each_breaching_bet_and_filters_them(client, world):
    player = world["player"]
    breached = breached_bet_ids(player)
    client.force_login(user("customer_service"))
    response = play_record(client, player)
    assert "Breached a limit" in response.content.decode()
    rows = marked_rows(response.content.decode())
    assert set(Bet.objects.filter(player=player).values_list("bet_id", flat=True)) == set(rows)
    assert {bet for bet, marked in rows.items() if marked} == breached
    only = marked_rows(play_record(client, player, breached="yes").content.decode())
    assert set(only) == breached and all(only.values())
    every = marked_rows(play_record(client, player, breached="").content.decode())
    assert set(every) == set(rows)


def test_the_breach_mark_costs_no_query_per_bet(client, world):
    """The mark is an annotation of the page's bet query: more bets and breaches, same queries."""
    player = world["player"]
    client.force_login(user("customer_service"))

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert play_record(client, player).status_code == 200
        return len(captured)

    before = queries()
    base = round_document("deluxe-split-double-play-behind")
    for number in range(4, 8):
        round_ingest(document=variant(base, f"R-{number}", number, seconds=number))
    assert len(breached_bet_ids(player)) >= 6
    assert queries() == before


def test_the_player_page_with_breaches_keeps_its_query_pin(client, world, django_assert_max_num_queries):
    client.force_login(user("customer_service"))
    url = reverse("limits:player_detail", args=[world["player"].external_id])
    client.get(url)
    with django_assert_max_num_queries(14):  # tests/limits/test_pages.py's pin for the player page
        client.get(url)
