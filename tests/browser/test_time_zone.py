"""A supervisor chooses their time zone in a real browser, from their name in the header, and from then on
sees a round's times in it, with UTC when pointing at them; another user still sees the gaming day's."""

from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from rounds.ingest import round_ingest
from rounds.models import Round
from tests.browser.conftest import log_in, screenshot
from tests.fixtures import round_document

pytestmark = pytest.mark.browser

OPENED = datetime(2026, 3, 1, 14, 5, tzinfo=UTC)


@pytest.fixture
def round_id(transactional_db):
    call_command("seed_demo", verbosity=0)
    round_ = round_ingest(document=round_document("deluxe-split-double-play-behind")).round
    Round.objects.filter(pk=round_.pk).update(opened_at=OPENED)
    return round_.round_id


def opened(page):
    return page.locator("dl.facts dt:text-is('Opened') + dd time")


def test_a_chosen_zone_shows_every_time_in_it_with_utc_on_hover(page, round_id):
    log_in(page, "supervisor", "supervisor-demo")
    page.goto(f"/rounds/{round_id}/")
    assert opened(page).inner_text() == "2026-03-01 15:05 CET"  # nothing chosen: the gaming day's zone

    # One's name leads to one's preferences (its role beside it is left out below 1500 px, for room).
    page.locator("a.who", has_text="supervisor").click()
    page.wait_for_url("**/accounts/preferences/")
    page.get_by_label("Time zone").select_option("America/New_York")
    screenshot(page, "preferences-time-zone")
    page.get_by_role("button", name="Save").click()
    assert "Times are now shown in America/New_York." in page.locator(".messages").inner_text()

    page.goto(f"/rounds/{round_id}/")
    assert opened(page).inner_text() == "2026-03-01 09:05 EST"
    assert opened(page).get_attribute("title") == "2026-03-01 14:05 UTC"
    assert opened(page).get_attribute("datetime") == "2026-03-01T09:05:00-05:00"
    page.goto("/rounds/?table=DLX1&opened_after=2026-03-01T09:05&opened_before=2026-03-01T09:06")
    expect(page.get_by_text("Opened from (America/New_York)")).to_be_visible()
    assert page.locator("table.round-list tbody tr").count() == 1  # 09:05 typed is 14:05 UTC
    row_time = page.locator("table.round-list tbody tr time")
    assert row_time.inner_text() == "2026-03-01 09:05 EST"
    assert row_time.get_attribute("title") == "2026-03-01 14:05 UTC"


def test_a_bad_zone_is_refused_at_its_field(page, round_id):
    log_in(page, "compliance", "compliance-demo")
    page.goto("/accounts/preferences/")
    # A select offers only known zones: a page changed by hand (or an old form) posts another.
    page.locator("#id_time_zone").evaluate(
        "select => { select.add(new Option('Mars/Olympus_Mons', 'Mars/Olympus_Mons')); "
        "select.value = 'Mars/Olympus_Mons'; }"
    )
    page.get_by_role("button", name="Save").click()
    field = page.locator(".field-time_zone")
    assert "“Mars/Olympus_Mons” is not a time zone" in field.locator(".field-error").inner_text()
    page.goto(f"/rounds/{round_id}/")
    assert opened(page).inner_text() == "2026-03-01 15:05 CET"
