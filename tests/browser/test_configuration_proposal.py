"""A configuration change in a real browser: one supervisor proposes a new Pair paytable, sees what it
changes and the RTP of every bet kind before and after (tests run Celery eagerly: the odds are worked
out when the proposal commits), with the warning for a falling RTP. The Pair falls more than a point,
past the guardrail: three people decide it. The proposer writes why, a second supervisor cannot approve
it yet, a compliance officer approves it, then the second supervisor does.
"""

import re

import pytest
from playwright.sync_api import expect

from accounts.services import user_create
from tables.models import TableConfiguration
from tables.selectors import configuration_in_force
from tests import factories
from tests.browser.conftest import log_in, log_out, screenshot
from tests.second_factor_support import enrolled_if_required

pytestmark = pytest.mark.browser


@pytest.fixture
def deluxe(transactional_db):
    table = factories.table("DLX1")  # its version 1's odds are worked out as it commits
    for username in ("ana", "ben"):
        enrolled_if_required(
            user_create(username=username, password=f"{username}-pw-demo", role="Supervisor")
        )
    enrolled_if_required(user_create(username="clara", password="clara-pw-demo", role="Compliance"))
    return table


def test_a_paytable_past_the_guardrail_is_approved_by_three_people(page, deluxe):
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
    expect(page.get_by_text("another supervisor approves or rejects it")).to_be_visible()
    needs = page.locator("#approvals")
    assert "It crosses the guardrail: Pair (97.1154 % → 93." in needs.inner_text()
    assert needs.locator("li").all_inner_texts() == [
        "The proposer's reason for the fall of the RTP",
        "A compliance officer's approval",
        "A supervisor's approval (not the proposer's)",
    ]
    page.click("#fall-reason button")  # empty: refused, naming the field
    page.wait_for_load_state()
    assert "This field is required." in page.locator("#fall-reason").inner_text()
    page.fill("#fall-reason textarea[name=rtp_fall_reason]", "Quiet hours: the Pair still returns above 93 %")
    page.click("#fall-reason button")
    page.wait_for_load_state()
    assert page.locator("#approvals li").count() == 2
    screenshot(page, "configuration-proposal-page")
    assert configuration_in_force(deluxe).version == 1
    log_out(page)

    log_in(page, "ben", "ben-pw-demo")
    page.goto("/tables/DLX1/")
    screenshot(page, "configuration-proposal-open-table-page")
    page.click("text=see what it changes and its RTP")
    assert page.locator("button:has-text('Approve version 2')").count() == 0  # compliance first
    expect(page.locator("#awaiting-compliance")).to_be_visible()
    log_out(page)

    log_in(page, "clara", "clara-pw-demo")
    page.goto("/")
    page.locator("a:has-text('DLX1 · version 2')").click()
    assert "Quiet hours: the Pair still returns above 93 %" in page.locator("#fall-reason-text").inner_text()
    assert page.locator("#decision").count() == 0  # no supervisor's form for compliance
    page.fill("#compliance-decision textarea[name=comment]", "Above the floor; the sheet is updated")
    screenshot(page, "configuration-proposal-compliance")
    page.click("button:has-text('Approve for compliance')")
    page.wait_for_load_state()
    expect(
        page.get_by_text("approved for compliance; a supervisor's approval puts it in force")
    ).to_be_visible()
    assert configuration_in_force(deluxe).version == 1
    log_out(page)

    log_in(page, "ben", "ben-pw-demo")
    page.goto("/tables/DLX1/proposal/")
    assert "clara" in page.locator("#compliance-approval").inner_text()
    page.fill("#decision textarea[name=comment]", "Checked against the operator's sheet")
    page.click("button:has-text('Approve version 2')")
    page.wait_for_load_state()
    expect(page.get_by_text("DLX1: version 2 approved, in force from")).to_be_visible()
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
    assert (version.needs_compliance, version.compliance_approved_by.username) == (True, "clara")
    assert version.rules["side_options"]["pair"] == {
        "paytable": {"mixed_pair": "4", "coloured_pair": "10", "perfect_pair": "30", "suited_trips": "50"},
        "max_round": 30,
    }
    assert version.decided_at == version.valid_from and configuration_in_force(deluxe) == version
