"""Each role's work queue on the home page, in a real browser: a supervisor and a compliance officer
sign in, read their queues' counts, and follow one to the filtered list it counts."""

import re

import pytest
from django.core.management import call_command

from rounds import services
from tables.models import Table
from tests.browser.conftest import log_in, screenshot
from tests.rounds.corrections_support import demo_user, wrongly_paid

pytestmark = pytest.mark.browser

DAY = "2026-11-28"  # the day the fixture rounds were played (tests/fixtures/README.md)


@pytest.fixture
def work(transactional_db):
    """Two wrongly paid rounds of DLX1 (findings, not reviewed), one proposed for re-settlement by
    compliance; an open incident pausing CLS1."""
    call_command("seed_demo", verbosity=0)
    services.resettlement_propose(round_=wrongly_paid(), proposed_by=demo_user("compliance"), reason="short")
    wrongly_paid("-2")
    services.incident_open(
        table=Table.objects.get(code="CLS1"),
        kind="malfunction",
        opened_by=demo_user("supervisor"),
        note="shuffler jammed",
    )


def queue_count(page, key: str) -> str:
    return page.locator(f"#queue-{key} .queue-count strong").inner_text()


def test_a_supervisor_follows_the_count_of_re_settlements_to_decide(page, work):
    log_in(page, "supervisor", "supervisor-demo")
    page.goto("/")
    assert queue_count(page, "incidents") == "1"
    assert queue_count(page, "paused") == "1"
    assert queue_count(page, "resettlements") == "1"
    assert queue_count(page, "voids") == "0"
    assert "proposed by compliance" in page.locator("#queue-resettlements").inner_text()
    assert page.locator("#queue-review").count() == 0  # compliance's queue
    screenshot(page, "home-supervisor")
    page.click("#queue-resettlements .queue-count a")
    page.wait_for_url(re.compile(r"/rounds/resettlements/\?status=proposed$"))
    assert "DLX1-S0412-023-W" in page.locator("main").inner_text()


def test_compliance_follows_a_table_days_rounds_to_review(page, work):
    log_in(page, "compliance", "compliance-demo")
    page.goto("/")
    assert queue_count(page, "review") == "2"
    assert page.locator("#queue-incidents").count() == 0  # the supervisor's queue
    screenshot(page, "home-compliance")
    page.click(f"#queue-review a:has-text('DLX1 · {DAY}')")
    page.wait_for_url(
        re.compile(
            rf"/rounds/\?table=DLX1&day={DAY}&finding_class=money&finding_class=dealer&finding_class=other"
            r"&reviewed=false$"
        )
    )
    main = page.locator("main").inner_text()
    assert "DLX1-S0412-023-W" in main and "DLX1-S0412-023-2" in main
