"""Incidents and re-settlements in a real browser: a supervisor pauses a table with an incident,
cancels the round the game server sent as cancelled and sees the refunds; compliance proposes a
re-settlement of a wrongly paid round and a supervisor approves it."""

import re

import pytest
from playwright.sync_api import expect

from rounds.models import Adjustment, Refund
from tables.models import Table
from tests.browser.conftest import log_in, log_out, screenshot
from tests.fixtures import round_document
from tests.rounds.corrections_support import (  # noqa: F401
    corrections_urls,
    ingest,
    wrongly_paid,
)  # noqa: F401

pytestmark = pytest.mark.browser


def test_a_supervisor_opens_an_incident_and_cancels_the_round(page, demo):
    log_in(page, "supervisor", "supervisor-demo")
    page.goto("/tables/CLS1/")
    page.click("text=Open an incident")
    page.select_option("select[name=kind]", "network_failure")
    page.fill("textarea[name=note]", "Video stream froze during the deal")
    screenshot(page, "incident-open-form")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/rounds/incidents/\d+/$"))
    assert Table.objects.get(code="CLS1").status == "paused"

    # The game server could not complete the round: it sends it as cancelled, and it joins the incident.
    round_ = ingest(round_document("classic-network-failure-refunds"))
    page.fill("textarea[name=note-text]", "Studio confirms the network dropped")
    page.click("button:has-text('Add the note')")
    page.wait_for_load_state()
    expect(page.get_by_text("Studio confirms the network dropped")).to_be_visible()

    page.select_option("select[name=cancel-round]", round_.round_id)
    page.fill("textarea[name=cancel-reason]", "Network failure: the round cannot be finished")
    screenshot(page, "incident-open")
    page.click("button:has-text('Cancel the round and refund')")
    page.wait_for_load_state()
    expect(page.get_by_text("6 refund(s) recorded")).to_be_visible()
    refunds = page.locator("section:has(h2:has-text('Refunds'))")
    assert "77.50" in refunds.inner_text() and "blackjack paid 3:2" in refunds.inner_text()
    screenshot(page, "incident-cancelled")
    page.goto("/rounds/incidents/")
    screenshot(page, "incident-list")
    assert Refund.objects.count() == 6 and Table.objects.get(code="CLS1").status == "open"


def test_compliance_proposes_a_resettlement_and_a_supervisor_approves(page, demo):
    round_ = wrongly_paid()
    log_in(page, "compliance", "compliance-demo")
    page.goto(f"/rounds/{round_.round_id}/")
    page.fill("#corrections textarea[name=reason]", "D23-1 was paid 5.00 short of the split and double")
    screenshot(page, "round-corrections-propose")
    page.click("#corrections button:has-text('Propose the re-settlement')")
    page.wait_for_url(re.compile(r"/rounds/resettlements/\d+/$"))
    expect(page.get_by_text("a supervisor decides")).to_be_visible()
    assert page.locator("button:has-text('Approve')").count() == 0
    screenshot(page, "resettlement-proposed")
    log_out(page)

    log_in(page, "supervisor", "supervisor-demo")
    page.goto(f"/rounds/{round_.round_id}/")
    page.fill("#corrections textarea[name=comment]", "Checked against the video")
    page.click("#corrections button:has-text('Approve')")
    page.wait_for_url(re.compile(r"/rounds/resettlements/\d+/$"))
    expect(page.get_by_text("1 adjustment(s) recorded")).to_be_visible()
    screenshot(page, "resettlement-approved")
    page.goto(f"/rounds/{round_.round_id}/")
    screenshot(page, "round-corrections-approved")
    page.goto("/rounds/resettlements/")
    screenshot(page, "resettlement-list")
    assert Adjustment.objects.get().amount == 5
