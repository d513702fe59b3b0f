"""The personal-limit page saves exactly the scope its selects show when Save is pressed.

Customer service picks Bust Bonus at BND1 in the selects, types a maximum of 3 and saves: the
stored setting is Bust Bonus at BND1, never "all kinds at every table" (which is in force at
once and takes 24 hours to undo). A validation error keeps what the selects show.
"""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from limits.models import PersonalLimit
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser

PLAYER = "P1003"  # seed_demo's player without a personal limit
URL = f"/limits/players/{PLAYER}/limits/set/"


@pytest.fixture
def agent_page(page, transactional_db):
    call_command("seed_demo", verbosity=0)
    log_in(page, "customer-service", "customer-service-demo")
    return page


def stored_scopes() -> list[tuple]:
    rows = PersonalLimit.objects.filter(player__external_id=PLAYER).select_related("table").order_by("id")
    return [(row.kind, row.table.code if row.table else None, row.game, row.max_stake) for row in rows]


def selects(page) -> tuple[str, str, str]:
    return tuple(page.locator(f"select[name={name}]").input_value() for name in ("kind", "table", "game"))


def save(page) -> None:
    page.get_by_role("button", name="Save the limit").click()
    page.wait_for_load_state()


def test_the_scope_picked_in_the_selects_is_the_scope_saved(agent_page):
    page = agent_page
    page.goto(f"/limits/players/{PLAYER}/")
    page.click("text=Set a personal limit")
    screenshot(page, "personal-limit-scope-before")
    page.select_option("select[name=kind]", label="Bust Bonus")
    page.select_option("select[name=table]", "BND1")
    page.fill("input[name=max_stake]", "3")
    page.fill("textarea[name=reason], input[name=reason]", "Player asked for small Bust Bonus bets")
    save(page)

    # The page was showing "all kinds at every table": it now shows Bust Bonus at BND1 and what is
    # in force there, and saves nothing until the agent confirms.
    if not re.search(r"/limits/players/P1003/$", page.url):
        assert stored_scopes() == []
        assert "Bust Bonus at BND1" in page.locator("section.panel").inner_text()
        assert selects(page) == ("bust_bonus", "BND1", "")
        assert page.locator("input[name=max_stake]").input_value() == "3"
        screenshot(page, "personal-limit-scope-confirm")
        save(page)
    page.wait_for_url(re.compile(r"/limits/players/P1003/$"))
    assert stored_scopes() == [("bust_bonus", "BND1", "", 3)]
    assert "Bust Bonus at BND1" in page.locator("main").inner_text()


def test_a_validation_error_keeps_the_scope_in_the_selects(agent_page):
    page = agent_page
    page.goto(URL)
    page.select_option("select[name=kind]", label="Bust Bonus")
    page.select_option("select[name=table]", "BND1")
    page.fill("input[name=min_stake]", "5")
    page.fill("input[name=max_stake]", "3")  # a minimum above the maximum
    page.fill("textarea[name=reason], input[name=reason]", "Player asked")
    save(page)
    expect(page.get_by_text("is above the maximum")).to_be_visible()
    screenshot(page, "personal-limit-scope-error")
    assert selects(page) == ("bust_bonus", "BND1", "")
    assert "Bust Bonus at BND1" in page.locator("section.panel").inner_text()
    assert stored_scopes() == []

    page.fill("input[name=min_stake]", "")
    save(page)
    page.wait_for_url(re.compile(r"/limits/players/P1003/$"))
    assert stored_scopes() == [("bust_bonus", "BND1", "", 3)]


def test_show_this_limit_shows_the_scope_picked_and_keeps_what_was_typed(agent_page):
    page = agent_page
    page.goto(URL)
    page.select_option("select[name=kind]", label="Bust Bonus")
    page.select_option("select[name=table]", "BND1")
    page.fill("input[name=max_stake]", "3")
    page.get_by_role("button", name="Show this limit").click()
    page.wait_for_load_state()
    assert "Bust Bonus at BND1" in page.locator("section.panel").inner_text()
    assert selects(page) == ("bust_bonus", "BND1", "")
    assert page.locator("input[name=max_stake]").input_value() == "3"
    assert stored_scopes() == []
    page.fill("textarea[name=reason], input[name=reason]", "Player asked")
    save(page)
    page.wait_for_url(re.compile(r"/limits/players/P1003/$"))
    assert stored_scopes() == [("bust_bonus", "BND1", "", 3)]
