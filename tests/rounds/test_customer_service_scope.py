"""Customer service reaches rounds only through players (issue 44): no round list, round export, round
page or raw document, as pages or in the API; a round or bet it looks up opens the player's play
record at that round; and no page shows it a link to a round page it cannot open. Supervisors and
compliance keep every round page."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rounds.access import play_record_at
from rounds.models import Bet
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo, demo_user, ingest, renamed  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]

STAFF = ("supervisor", "compliance", "customer-service")
ROUND_READERS = {"supervisor", "compliance"}


@pytest.fixture
def played():
    """The Deluxe fixture round (five players; P7102 bets D23-3 and D23-7), and a later round of the
    same players under other ids."""
    round_ = ingest(round_document("deluxe-split-double-play-behind"))
    later = ingest(renamed(round_document("deluxe-split-double-play-behind"), "-L"))
    return round_, later


def round_urls(round_) -> list[str]:
    return [
        reverse("rounds:round_list"),
        reverse("rounds:round_list") + "?_export=csv",
        reverse("rounds:round_list") + "?_export=xlsx",
        reverse("rounds:round_list") + f"?shoe={round_.shoe.code}",
        reverse("rounds:round_detail", args=[round_.round_id]),
        reverse("rounds:round_document", args=[round_.round_id]),
    ]


@pytest.mark.parametrize("username", STAFF)
def test_only_supervisors_and_compliance_open_round_pages_exports_and_documents(client, played, username):
    round_, _ = played
    client.force_login(demo_user(username))
    expected = 200 if username in ROUND_READERS else 403
    for url in round_urls(round_):
        assert client.get(url).status_code == expected, url


@pytest.mark.parametrize("username", STAFF)
def test_only_supervisors_and_compliance_read_rounds_in_the_api(played, username):
    round_, _ = played
    api = APIClient()
    api.force_authenticate(demo_user(username))
    expected = 200 if username in ROUND_READERS else 403
    assert api.get("/api/rounds/").status_code == expected
    assert api.get(f"/api/rounds/{round_.round_id}/").status_code == expected


@pytest.mark.parametrize("username", STAFF)
def test_everyone_who_reads_play_records_still_does(client, played, username):
    client.force_login(demo_user(username))
    assert client.get(reverse("rounds:play_record", args=["P7102"])).status_code == 200


def test_a_bet_looked_up_opens_its_players_play_record_at_its_round(client, played):
    round_, later = played
    client.force_login(demo_user("customer-service"))
    response = client.get(reverse("search"), {"q": "D23-3"})
    assert response.status_code == 302
    assert response["Location"] == play_record_at("P7102", round_.round_id, round_.gaming_day)
    page = client.get(response["Location"])
    assert page.status_code == 200
    shown = {bet.bet_id for bet in page.context["table"].data}
    assert shown == {"D23-3", "D23-7"}  # that round's bets of the player: not the later round's


def test_a_round_looked_up_lists_the_play_record_of_each_of_its_players(client, played):
    round_, _ = played
    client.force_login(demo_user("customer-service"))
    response = client.get(reverse("search"), {"q": round_.round_id})
    assert response.status_code == 200
    html = response.content.decode()
    players = sorted(set(Bet.objects.filter(round=round_).values_list("player__external_id", flat=True)))
    assert len(players) == 5
    for player in players:
        url = play_record_at(player, round_.round_id, round_.gaming_day)
        assert f'href="{url}"'.replace("&", "&amp;") in html
    assert f'href="{round_.get_absolute_url()}"' not in html


def test_a_round_of_one_player_opens_that_play_record(client, played):
    document = renamed(round_document("deluxe-split-double-play-behind"), "-1")
    document["bets"] = [bet for bet in document["bets"] if bet["player"] == "P7101"]
    spots = {bet["spot"] for bet in document["bets"]}
    document["spots"] = [spot for spot in document["spots"] if spot["spot"] in spots]
    alone = ingest(document)
    client.force_login(demo_user("customer-service"))
    response = client.get(reverse("search"), {"q": alone.round_id})
    assert response["Location"] == play_record_at("P7101", alone.round_id, alone.gaming_day)


@pytest.mark.parametrize("username", ["compliance", "supervisor"])
def test_those_who_read_rounds_still_open_the_round_page(client, played, username):
    round_, _ = played
    client.force_login(demo_user(username))
    response = client.get(reverse("search"), {"q": round_.round_id})
    assert response["Location"] == round_.get_absolute_url()


def test_the_play_record_links_round_pages_only_for_those_who_may_open_them(client, played):
    round_, _ = played
    url = reverse("rounds:play_record", args=["P7102"])
    link = f'href="{round_.get_absolute_url()}"'
    # In both orders: the rows are kept in the cache, and must not carry one role's links to another.
    for first, second in (("customer-service", "compliance"), ("compliance", "customer-service")):
        for username in (first, second):
            client.force_login(demo_user(username))
            html = client.get(url).content.decode()
            assert (link in html) == (username != "customer-service"), username
            assert round_.round_id in html


def test_the_navigation_and_home_offer_customer_service_no_round_list(client, played):
    client.force_login(demo_user("customer-service"))
    html = client.get("/").content.decode()
    assert f'href="{reverse("rounds:round_list")}"' not in html
    client.force_login(demo_user("compliance"))
    assert f'href="{reverse("rounds:round_list")}"' in client.get("/").content.decode()
