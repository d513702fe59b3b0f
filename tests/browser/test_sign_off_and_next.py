"""Compliance clears a filtered list in a real browser: from the list, open the first round, then
"Sign off and next" through the rest, back to the list when it is cleared."""

import re

import pytest
from django.core.management import call_command

from tests.browser.conftest import log_in, screenshot
from tests.rounds.test_pages import simulated_rounds

pytestmark = pytest.mark.browser


@pytest.fixture
def rounds_to_review(transactional_db):
    call_command("seed_demo", verbosity=0)
    return [r for r in simulated_rounds() if r.finding_count]


def test_sign_off_and_next_clears_the_list(page, rounds_to_review):
    assert len(rounds_to_review) >= 2
    log_in(page, "compliance", "compliance-demo")
    page.goto("/rounds/?table=DLX1&has_findings=true&reviewed=false")
    newest_first = sorted(rounds_to_review, key=lambda r: (r.opened_at, r.pk), reverse=True)
    page.click(f"text={newest_first[0].round_id}")
    for index, round_ in enumerate(newest_first):
        page.wait_for_url(re.compile(rf"/rounds/{round_.round_id}/\?list="))
        page.fill("#review textarea[name=comment]", f"Checked {index}.")
        if index == 0:
            screenshot(page, "sign-off-and-next")
        page.click("text=Sign off and next")
    page.wait_for_url(re.compile(r"/rounds/\?table=DLX1&has_findings=true&reviewed=false$"))
    assert "That was the last round of the list." in page.locator("main").inner_text()
    assert page.locator("table.round-list tbody tr").count() == 1  # "No round matches."
