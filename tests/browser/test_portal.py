"""Each role uses its pages in a real browser: supervisors configure tables, customer service
sets personal limits, compliance reads without changing anything."""

import re

import pytest
from playwright.sync_api import expect

from limits.models import PersonalLimit
from tables.models import Table
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser


def test_a_supervisor_creates_a_table_and_changes_its_paytable(page, demo):
    log_in(page, "supervisor", "supervisor-demo")
    page.click("text=Tables")
    page.click("text=New table")
    page.fill("input[name=code]", "DLX2")
    page.fill("input[name=name]", "Deluxe Blackjack 2")
    page.select_option("select[name=game]", "deluxe")
    page.select_option("select[name=currency]", "EUR")
    page.fill("input[name=studio]", "Studio Malta C")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/DLX2/$"))
    assert page.locator("h1").inner_text().startswith("DLX2")

    page.click("text=Propose a configuration change")
    page.fill("input[name=pair__mixed_pair]", "6")
    page.fill("textarea[name=reason], input[name=reason]", "Pair paytable of the new studio")
    screenshot(page, "supervisor-configuration-form")
    page.click("button:has-text('Propose version 2')")
    page.wait_for_url(re.compile(r"/tables/DLX2/proposal/\?version=2$"))
    page.click("button:has-text('Log out')")

    # A second supervisor approves it (Celery runs eagerly here: its odds exist already).
    log_in(page, "supervisor-2", "supervisor-2-demo")
    page.goto("/tables/DLX2/proposal/?version=2")
    page.fill("#decision textarea[name=comment]", "Checked against the studio's sheet")
    page.click("button:has-text('Approve version 2')")
    page.wait_for_load_state()
    page.goto("/tables/DLX2/")
    expect(page.get_by_text("6:1").first).to_be_visible()
    screenshot(page, "supervisor-table-detail")
    versions = Table.objects.get(code="DLX2").configurations.order_by("version")
    assert [v.rule_set.side_option("pair").odds("mixed_pair") for v in versions] == [5, 6]
    assert [v.status for v in versions] == ["approved", "approved"]


def test_a_bad_paytable_shows_the_error_beside_its_field_and_saves_nothing(page, demo):
    log_in(page, "supervisor", "supervisor-demo")
    page.goto("/tables/DLX1/configuration/")
    page.fill("input[name=pair__perfect_pair]", "0")
    page.fill("textarea[name=reason], input[name=reason]", "try a zero")
    page.click("main form button[type=submit]")
    # Waits for the answer to the post: a click may return before it has arrived.
    expect(page.get_by_text("odds must be above 0")).to_be_visible()
    screenshot(page, "supervisor-configuration-error")
    assert Table.objects.get(code="DLX1").configurations.count() == 1


def test_customer_service_lowers_then_raises_a_limit_and_sees_it_pending(page, demo):
    log_in(page, "customer-service", "customer-service-demo")
    page.goto("/limits/players/P1003/")
    page.click("text=Set a personal limit")
    page.click("text=Show this limit")
    page.fill("input[name=max_stake]", "50.00")
    page.fill("textarea[name=reason], input[name=reason]", "Player asked for a lower maximum")
    page.click("text=Save the limit")
    page.wait_for_url(re.compile(r"/limits/players/P1003/$"))
    assert PersonalLimit.objects.get(player__external_id="P1003").max_stake == 50

    page.click("text=Set a personal limit")
    page.click("text=Show this limit")
    page.fill("input[name=max_stake]", "80.00")
    page.fill("textarea[name=reason], input[name=reason]", "Player asked to raise it again")
    page.click("text=Save the limit")
    page.wait_for_url(re.compile(r"/limits/players/P1003/$"))
    assert page.locator(".badge-pending").first.inner_text().startswith("pending until")
    screenshot(page, "customer-service-player-pending-raise")
    raised = PersonalLimit.objects.filter(player__external_id="P1003").order_by("-id").first()
    assert raised.max_stake == 80 and raised.replaces.max_stake == 50


def test_compliance_reads_tables_but_is_offered_no_change(page, demo):
    log_in(page, "compliance", "compliance-demo")
    page.goto("/tables/BND1/")
    expect(page.get_by_text("Bust Bonus").first).to_be_visible()
    assert page.locator("text=Change configuration").count() == 0
    screenshot(page, "compliance-table-detail")
    response = page.goto("/tables/BND1/configuration/")
    assert response.status == 403
