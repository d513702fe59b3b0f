"""A damaged archived month in a real browser: the round page says the month's archive is damaged,
which file and what differs, and what to do (the check command in its own box), with ways back; it
fits at 1400 and 390 px (the file's long sha256 wraps). PostgreSQL: the archive drops partitions."""

import pytest
from playwright.sync_api import expect

from archive.checks import verdicts_forget
from tests.archive.damage_support import CHECK_DLX1, dlx1_march, returned_changed
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_archived_round import archived_march  # noqa: F401 (a fixture)
from tests.browser.test_every_page_fits import OVERFLOWING

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_a_damaged_month_says_so_and_what_to_do(page, archived_march):  # noqa: F811
    history, _ = archived_march
    verdicts_forget()
    month = dlx1_march(history)
    returned_changed(month)
    log_in(page, "compliance", "compliance-demo")

    for width in (1400, 390):
        page.set_viewport_size({"width": width, "height": 900})
        response = page.goto(f"/rounds/{month.round_id}/")
        assert response.status == 409
        assert page.locator("h1").inner_text() == "The archive of DLX1 2026-03 is damaged"
        assert "bets.parquet" in page.locator("dl.facts").inner_text()
        assert (
            "sha256" in page.locator("dl.facts").inner_text()
            or "bytes" in page.locator("dl.facts").inner_text()
        )
        steps = page.locator(".archive-damage ol li")
        assert steps.count() == 3 and "archive's copy" in steps.nth(0).inner_text()
        assert page.locator(".archive-damage ol code").inner_text() == CHECK_DLX1
        expect(page.locator(".archive-damage a", has_text="Home")).to_be_visible()
        assert page.evaluate(OVERFLOWING) == []
        screenshot(page, f"archive-damaged-{width}")
