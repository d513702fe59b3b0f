"""Compliance recalls a round in a real browser: the cards are drawn, the wrong payout is shown on
its bet, and the round is signed off."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from rounds.ingest import round_ingest
from rounds.models import Round
from tests.browser.conftest import log_in, screenshot
from tests.fixtures import round_document

pytestmark = pytest.mark.browser


@pytest.fixture
def split_round(transactional_db):
    call_command("seed_demo", verbosity=0)
    document = round_document("deluxe-split-double-play-behind")
    next(bet for bet in document["bets"] if bet["bet_id"] == "D23-3")["returned"] = "25.00"  # pays 30.00
    return round_ingest(document=document).round


def test_compliance_recalls_a_split_round_with_a_wrong_payout(page, split_round):
    log_in(page, "compliance", "compliance-demo")
    page.click("nav >> text=Rounds")
    page.get_by_label("Has findings").select_option("true")
    page.click("form.filters button[type=submit]")
    page.click(f"text={split_round.round_id}")
    page.wait_for_url(re.compile(rf"/rounds/{split_round.round_id}/\?list=.*has_findings%3Dtrue.*$"))

    cards = page.locator("#spots .playing-card")
    assert cards.count() == 8  # seat 2's two split hands (3 + 3 cards) and seat 5's blackjack
    diamond = page.locator('#spots .playing-card[data-card="6D"]')
    assert diamond.inner_text().split() == ["6", "♦"]
    assert "red" in diamond.get_attribute("class")
    assert diamond.evaluate("e => getComputedStyle(e).color") == "rgb(200, 16, 46)"
    ten = page.locator('.deal .playing-card[data-card="TS"]')  # the facilitator's hole card
    assert ten.inner_text().split() == ["10", "♠"]
    assert ten.evaluate("e => getComputedStyle(e).color") == "rgb(17, 24, 39)"
    box = diamond.bounding_box()
    assert box["width"] > 25 and box["height"] > box["width"]  # drawn as a card, not a bare code

    finding = page.locator("#findings li.finding")
    assert finding.count() >= 1
    assert "wrong_returned" in page.locator("#findings").inner_text()
    bet_row = page.locator("#bets tr.has-finding")
    assert bet_row.count() == 1
    assert "D23-3" in bet_row.inner_text() and "5.00" in bet_row.inner_text()
    screenshot(page, "compliance-round-recall")

    # The document as received is fetched when its panel is opened.
    page.click("details.raw-document summary")
    page.locator("details.raw-document pre", has_text=f'"round_id": "{split_round.round_id}"').wait_for()

    page.fill("textarea[name=comment]", "Short-paid blackjack: re-settlement to follow.")
    page.click("text=Sign off as reviewed")
    page.wait_for_url(re.compile(rf"/rounds/{split_round.round_id}/\?list=.*has_findings%3Dtrue.*$"))
    expect(page.locator(".signed-off")).to_be_visible()
    assert Round.objects.get(pk=split_round.pk).reviewed_by.username == "compliance"
