"""The round list and the round page keep rows in the cache (templates/rounds/round_list.html,
includes/round_table.html, round_detail.html): cached rows are never another round's, another
page's, an older state's or another time zone's."""

import random
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.services import time_zone_set
from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from rounds import services
from rounds.models import Bet, Round
from rounds.review import round_review
from tests.rounds.corrections_support import boundless_shoe, demo, demo_user, ingest, wrongly_paid  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


def login(client, username: str) -> None:
    client.force_login(demo_user(username))


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def row_of(html: str, round_id: str) -> str:
    """The round list's row of the round."""
    return re.search(rf'<tr [^>]*>\s*<td class="code"><a href="[^"]*">{round_id}</a>.*?</tr>', html, re.S)[0]


def rows_of(html: str) -> str:
    """The round page from its spots to its document (the spots, the bets, corrections if any)."""
    shown = html.split('<section class="panel" id="spots">', 1)[1]
    return shown.split('<details class="panel raw-document"', 1)[0]


def listed(client) -> str:
    response = client.get(reverse("rounds:round_list"))
    assert response.status_code == 200
    return response.content.decode()


def test_a_listed_round_shows_its_review_and_its_correction_once_made(client):
    round_ = wrongly_paid()
    login(client, "compliance")
    row = row_of(listed(client), round_.round_id)
    assert "to review" in row and "badge-completed" in row
    assert row_of(listed(client), round_.round_id) == row  # from the cache

    round_review(round_=round_, reviewed_by=demo_user("compliance"), comment="Short paid.")
    assert "badge-reviewed" in row_of(listed(client), round_.round_id)

    resettlement = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="Short paid."
    )
    services.resettlement_approve(resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok")
    assert "badge-resettled" in row_of(listed(client), round_.round_id)


def test_each_user_sees_the_cached_rows_and_filters_in_their_own_time_zone(client):
    round_ = wrongly_paid()
    Round.objects.filter(pk=round_.pk).update(opened_at=datetime(2026, 3, 1, 14, 5, tzinfo=UTC))
    time_zone_set(user=demo_user("supervisor"), time_zone="America/New_York")
    login(client, "compliance")  # no choice: the gaming day's zone, Europe/Malta
    malta = listed(client)
    shown = '<time datetime="2026-03-01T15:05:00+01:00" title="2026-03-01 14:05 UTC">2026-03-01 15:05 CET'
    assert shown in row_of(malta, round_.round_id)
    assert "Opened from (Europe/Malta)" in malta

    new_york = Client()
    login(new_york, "supervisor")
    html = listed(new_york)
    row = row_of(html, round_.round_id)
    assert "2026-03-01 09:05 EST" in row and "CET" not in row
    assert "Opened from (America/New_York)" in html and "Europe/Malta" not in html
    assert row_of(listed(client), round_.round_id) == row_of(malta, round_.round_id)


def test_the_filter_form_shows_the_query_it_is_asked_with(client):
    login(client, "compliance")
    for game in ("deluxe", "boundless", "deluxe"):
        html = client.get(reverse("rounds:round_list"), {"game": game}).content.decode()
        assert re.findall(r'<option value="(\w+)" selected>', html) == [game]
    html = client.get(reverse("rounds:round_list"), {"day": "not a day"}).content.decode()
    assert "Enter a valid date." in html


def test_a_round_page_shows_the_rows_of_its_round_its_page_and_its_filter(client):
    documents = simulate_shoe(
        preset("boundless"),
        table="BND1",
        shoe_id="BND1-S0902",
        players=60,
        rng=random.Random(3),
        start=datetime.now(UTC) - timedelta(hours=2),
    )
    rounds = [ingest(document) for document in documents[:2]]
    login(client, "compliance")
    for round_ in rounds:
        own_bets = {str(pk) for pk in Bet.objects.filter(round=round_).values_list("pk", flat=True)}
        seen_spots, seen_bets = [], []
        for query in ("", "?spots=2", "?spots=3", "?findings=1"):
            html = rows_of(client.get(round_.get_absolute_url() + query).content.decode())
            assert rows_of(client.get(round_.get_absolute_url() + query).content.decode()) == html
            spots = re.findall(r'<tbody id="spot-([\w-]+)"', html)
            bets = re.findall(r'<tr id="bet-(\d+)"', html)
            assert set(bets) <= own_bets
            if query != "?findings=1":
                seen_spots += spots
                seen_bets += bets
        assert len(seen_spots) == len(set(seen_spots)) == 60
        assert sorted(seen_bets) == sorted(own_bets)


def test_a_finding_links_to_the_page_of_players_that_holds_its_bet(client):
    """Found trying the portal as compliance (issue 19): a finding on a Boundless round linked to
    #bet-<id>, which was on page 10 of 12, not on the page shown."""
    document = boundless_shoe("BND1-S0903", players=60, seed=4)[0]
    last_player = document["spots"][-1]["player"] if "spots" in document else None
    bet = next(b for b in reversed(document["bets"]) if b["kind"] == "main")
    bet["returned"] = str(Decimal(bet["returned"]) + Decimal("1.00"))  # paid one too many
    round_ = ingest(document)
    stored = Bet.objects.get(round=round_, bet_id=bet["bet_id"])
    assert last_player is None or stored.spot == str(last_player)
    login(client, "compliance")
    html = client.get(round_.get_absolute_url()).content.decode()
    links = re.findall(rf'href="([^"]*)#bet-{stored.pk}"', html)
    assert links == ["?spots=3"]  # 60 players, 25 a page
    page = client.get(round_.get_absolute_url() + links[0]).content.decode()
    assert f'id="bet-{stored.pk}"' in page
    assert re.findall(rf'href="([^"]*)#bet-{stored.pk}"', page) == [""]  # already on this page
