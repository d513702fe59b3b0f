"""Customer service reaches rounds only through players, in a real browser (issue 44): a bet id typed
in the search box opens its player's play record at that round, whose round ids link nowhere; a round
id lists the play record of each of its players; the navigation has no Rounds."""

import re

import pytest
from django.core.management import call_command

from rounds.ingest import round_ingest
from tests.browser.conftest import log_in, screenshot
from tests.fixtures import round_document

pytestmark = pytest.mark.browser


@pytest.fixture
def a_round(transactional_db):
    call_command("seed_demo", verbosity=0)
    return round_ingest(document=round_document("deluxe-split-double-play-behind")).round


def search(page, query: str) -> None:
    box = page.get_by_placeholder("Find an id")
    box.fill(query)
    box.press("Enter")


def test_customer_service_looks_a_bet_and_a_round_up_through_the_players(page, a_round):
    log_in(page, "customer-service", "customer-service-demo")
    assert page.locator("nav a", has_text=re.compile(r"^Rounds$")).count() == 0

    search(page, "D23-3")  # P7102's main bet
    page.wait_for_url(re.compile(rf"/rounds/players/P7102/\?round={a_round.round_id}&"))
    rows = page.locator("table.play-record tbody tr")
    assert sorted(rows.locator("td:nth-child(4)").all_inner_texts()) == ["D23-3", "D23-7"]
    assert rows.locator("a").count() == 0  # no link to a round page it may not open
    assert page.locator(f'a[href^="/rounds/{a_round.round_id}/"]').count() == 0
    screenshot(page, "customer-service-bet-in-play-record")

    search(page, a_round.round_id)
    page.wait_for_url(re.compile(r"/search/\?q="))
    links = page.locator("main li a")
    assert links.count() == 5  # one play record per player of the round
    screenshot(page, "customer-service-round-players")
    links.filter(has_text="P7201").click()
    page.wait_for_url(re.compile(r"/rounds/players/P7201/\?round="))
    assert page.locator("table.play-record tbody td:nth-child(4)").all_inner_texts() == ["D23-4"]

    response = page.goto(a_round.get_absolute_url())
    assert response.status == 403
