"""A configuration change in a real browser: one supervisor proposes a new Pair paytable, sees what it
changes and the RTP of every bet kind before and after (tests run Celery eagerly: the odds are worked
out when the proposal commits), with the warning for a falling RTP; a second supervisor approves it.
"""

import re

import pytest

from accounts.services import user_create
from tables.models import TableConfiguration
from tables.selectors import configuration_in_force
from tests import factories
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture
def deluxe(transactional_db):
    table = factories.table("DLX1")  # its version 1's odds are worked out as it commits
    for username in ("ana", "ben"):
        user_create(username=username, password=f"{username}-pw-demo", role="Supervisor")
    return table


def log_out(page):
    page.click("button:has-text('Log out')")


def test_a_supervisor_proposes_a_paytable_and_a_second_one_approves_it(page, deluxe):
    log_in(page, "ana", "ana-pw-demo")
    page.goto("/tables/DLX1/")
    page.click("text=Propose a configuration change")
    page.fill("input[name=seats]", "99999999999")
    page.fill("input[name=pair__mixed_pair]", "1e308")
    page.fill("input[name=pair__max_round]", "101")
    page.click("button:has-text('Propose version 2')")
    page.wait_for_load_state()
    errors = page.locator(".field-error").all_inner_texts()  # every one in one submit
    assert len(errors) == 4, errors  # seats, odds, max round, and the missing reason
    screenshot(page, "configuration-proposal-errors")
    assert TableConfiguration.objects.count() == 1
    page.fill("input[name=seats]", "7")
    page.fill("input[name=pair__mixed_pair]", "4")
    page.fill("input[name=pair__max_round]", "30")
    page.fill("textarea[name=reason]", "Pair pays 4:1 on a mixed pair in the quiet hours")
    screenshot(page, "configuration-proposal-form")
    page.click("button:has-text('Propose version 2')")
    page.wait_for_url(re.compile(r"/tables/DLX1/proposal/\?version=2$"))

    changes = page.locator("#rule-changes").inner_text()
    assert "Pair: mixed pair\t5:1\t4:1" in changes
    assert "Pair: max round\tno limit\t30" in changes
    rtp = page.locator("#rtp-preview").inner_text()
    assert "computing…" not in rtp
    assert re.search(r"Pair\s+97\.1154 %\s+93\.\d{4} %\s+-3\.\d{4} pp", rtp), rtp
    assert re.search(r"Main \(maximum\)\s+99\.5169 %\s+99\.5169 %\s+\+0\.0000 pp", rtp), rtp
    assert "Pair: the RTP falls 3." in page.locator("#rtp-warnings").inner_text()
    assert page.locator("button:has-text('Approve version 2')").count() == 0  # not for the proposer
    assert page.get_by_text("another supervisor approves or rejects it").is_visible()
    screenshot(page, "configuration-proposal-page")
    assert configuration_in_force(deluxe).version == 1
    log_out(page)

    log_in(page, "ben", "ben-pw-demo")
    page.goto("/tables/DLX1/")
    screenshot(page, "configuration-proposal-open-table-page")
    page.click("text=see what it changes and its RTP")
    page.fill("#decision textarea[name=comment]", "Checked against the operator's sheet")
    page.click("button:has-text('Approve version 2')")
    page.wait_for_load_state()
    assert page.get_by_text("DLX1: version 2 approved, in force from").is_visible()
    page.goto("/tables/DLX1/")
    assert "version 2, since" in page.locator("h2:has-text('Configuration in force')").inner_text()
    screenshot(page, "configuration-proposal-table-page")

    version = TableConfiguration.objects.get(table=deluxe, version=2)
    assert (version.status, version.created_by.username, version.decided_by.username) == (
        "approved",
        "ana",
        "ben",
    )
    assert version.decision_comment == "Checked against the operator's sheet"
    assert version.rules["side_options"]["pair"] == {
        "paytable": {"mixed_pair": "4", "coloured_pair": "10", "perfect_pair": "30", "suited_trips": "50"},
        "max_round": 30,
    }
    assert version.decided_at == version.valid_from and configuration_in_force(deluxe) == version
