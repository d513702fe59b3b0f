"""A compliance officer's day in a real browser: find a flagged round, propose its re-settlement, a
supervisor approves it, compliance runs the day's reports and downloads the PDF, which carries the
corrected figures."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from reports.models import DailyFigures
from tests.browser.conftest import log_in, screenshot
from tests.pdf_text import pdf_text
from tests.rounds.corrections_support import wrongly_paid

pytestmark = pytest.mark.browser

DAY = "2026-11-28"  # the day the fixture rounds were played (tests/fixtures/README.md)


@pytest.fixture
def demo(transactional_db, settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    call_command("seed_demo", verbosity=0)


def test_compliance_corrects_a_round_and_downloads_the_days_pdf(page, demo, tmp_path):
    round_ = wrongly_paid()
    log_in(page, "compliance", "compliance-demo")
    page.goto("/rounds/?has_findings=true")
    page.click(f"a:has-text('{round_.round_id}')")
    page.wait_for_url(re.compile(rf"/rounds/{round_.round_id}/\?list=has_findings%3Dtrue$"))
    assert page.locator(".finding, .has-finding").count() > 0
    page.fill("#corrections textarea[name=reason]", "D23-1 was paid 5.00 short")
    page.click("#corrections button:has-text('Propose the re-settlement')")
    page.wait_for_url(re.compile(r"/rounds/resettlements/\d+/$"))
    page.click("button:has-text('Log out')")

    log_in(page, "supervisor", "supervisor-demo")
    page.goto(f"/rounds/{round_.round_id}/")
    page.fill("#corrections textarea[name=comment]", "Checked against the video")
    page.click("#corrections button:has-text('Approve')")
    page.wait_for_url(re.compile(r"/rounds/resettlements/\d+/$"))
    page.click("button:has-text('Log out')")

    log_in(page, "compliance", "compliance-demo")
    page.goto("/reports/runs/new/")
    page.fill("input[name=day]", DAY)
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/reports/runs/"))
    expect(page.get_by_text("Succeeded").first).to_be_visible()
    screenshot(page, "report-runs")

    page.goto(f"/reports/daily/?day={DAY}")
    screenshot(page, "report-daily")
    main = DailyFigures.objects.get(day=DAY, table_code="DLX1", kind="main")
    assert f"{main.observed_rtp} %" in page.locator("main").inner_text()

    page.goto("/reports/")
    screenshot(page, "report-archive")
    with page.expect_download() as download_info:
        page.locator("tr:has-text('Daily RTP report') a:has-text('Download PDF')").click()
    pdf = tmp_path / "downloaded.pdf"
    download_info.value.save_as(pdf)
    text = pdf_text(pdf)
    assert DAY in text and "DLX1" in text
    assert f"{main.returned:,}" in text  # returned with the approved adjustment
