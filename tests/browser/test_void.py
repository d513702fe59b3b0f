"""A void with four eyes in a real browser: supervisor A proposes it from the round page, supervisor
B approves it; every bet gets a line that nets it to what it wagered, and the round page says
"Voided"."""

import re

import pytest
from playwright.sync_api import expect

from rounds.models import Bet, RoundCorrection, Void
from tests.browser.conftest import log_in, log_out, screenshot
from tests.rounds.corrections_support import corrections_urls, wrongly_paid  # noqa: F401

pytestmark = pytest.mark.browser


def test_supervisor_a_proposes_a_void_and_supervisor_b_approves_it(page, demo):
    round_ = wrongly_paid()
    log_in(page, "supervisor", "supervisor-demo")
    page.goto(f"/rounds/{round_.round_id}/")
    screenshot(page, "void-round-before")
    page.click("#voids a:has-text('Propose a void of this round')")
    page.wait_for_url(re.compile(r"/rounds/voids/new/\?round="))
    assert "7 bets in all" in page.locator("table.void-lines tfoot").inner_text().lower()
    page.fill("textarea[name=reason]", "The shuffler jammed mid-round: malfunction, all plays and pays void")
    screenshot(page, "void-propose")
    page.click("button:has-text('Propose the void')")
    page.wait_for_url(re.compile(r"/rounds/voids/\d+/$"))
    expect(page.get_by_text("another supervisor decides")).to_be_visible()
    assert page.locator("button:has-text('Approve the void')").count() == 0
    screenshot(page, "void-proposed")
    log_out(page)

    log_in(page, "supervisor-2", "supervisor-2-demo")
    page.goto(f"/rounds/{round_.round_id}/")
    page.fill("#voids textarea[name=comment]", "Checked the studio log: the shuffler stopped")
    screenshot(page, "void-round-decide")
    page.click("#voids button:has-text('Approve the void')")
    page.wait_for_url(re.compile(r"/rounds/voids/\d+/$"))
    expect(page.get_by_text("7 bet(s) voided, each returned what it wagered")).to_be_visible()
    screenshot(page, "void-approved")

    void = Void.objects.get()
    assert (void.status, void.proposed_by.username, void.decided_by.username) == (
        "approved",
        "supervisor",
        "supervisor-2",
    )
    lines = {line.bet_id: line for line in void.lines.all()}
    for bet in Bet.objects.filter(round=round_):
        line = lines.pop(bet.pk)
        assert (line.reversed_returned, line.returned_stake) == (bet.returned, bet.wagered)
        assert bet.returned - line.reversed_returned + line.returned_stake == bet.wagered
    assert lines == {}
    assert RoundCorrection.objects.get(round=round_).kind == "voided"

    page.goto(f"/rounds/{round_.round_id}/")
    heading = page.locator("h1").inner_text()
    assert "Voided" in heading
    screenshot(page, "void-round-after")
    page.goto("/rounds/voids/")
    screenshot(page, "void-list")
    page.goto("/rounds/?outcome=voided")
    assert round_.round_id in page.locator("table.round-list").inner_text()
    screenshot(page, "void-round-list")
