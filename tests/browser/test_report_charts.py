"""The report pages' charts in a real browser: the daily job drew them for three played days, the
daily report shows each trend as an image that loads, switches from 30 to 90 days by a link, fits a
phone's width; the exposure report shows each option's hits against expected."""

import re

import pytest
from playwright.sync_api import expect

from reports.models import ChartSubject, ReportChart
from tests.browser.conftest import log_in, screenshot
from tests.reports.chart_support import LAST_DAY, days_played, days_reported

pytestmark = pytest.mark.browser


@pytest.fixture
def charted(transactional_db, settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    return days_reported(days_played(3))


def all_loaded(page, images) -> list[str]:
    """Scroll each image into view (they load lazily), wait for it, and return their addresses."""
    sources = []
    for index in range(images.count()):
        image = images.nth(index)
        image.scroll_into_view_if_needed()
        page.wait_for_function(
            "image => image.complete && image.naturalWidth > 0", arg=image.element_handle()
        )
        sources.append(image.get_attribute("src"))
    return sources


def charts_stored(run, subject, **kwargs) -> int:
    """The run's charts, counted before the browser asks for a page: on SQLite the live server shares
    the test's in-memory database connection, and a query here while the page's images load used it
    from two threads at once (the flaky SQLite error this test used to give)."""
    return ReportChart.objects.filter(run=run, subject=subject, **kwargs).count()


def test_the_daily_report_shows_each_trend_and_switches_to_90_days(page, charted):
    thirty_days = charts_stored(charted, ChartSubject.TREND, window_days=30, message="")
    log_in(page, "compliance", "compliance-demo")
    page.goto(f"/reports/daily/?day={LAST_DAY}")
    images = page.locator("#trend figure.chart img")
    assert images.count() == thirty_days > 0
    thirty = all_loaded(page, images)
    expect(
        page.get_by_text("One gaming day with figures", exact=False).first
    ).to_be_visible()  # CLS1 played once
    screenshot(page, "report-trends-30")

    page.click("#trend a:has-text('90 days')")
    page.wait_for_url(re.compile(r"trend=90"))
    assert "RTP trend, 90 gaming days" in page.locator("#trend h2").inner_text()
    assert page.locator("#trend a[aria-current]").inner_text() == "90 days"
    ninety = all_loaded(page, images)
    assert len(ninety) == len(thirty) and not set(ninety) & set(thirty)

    page.set_viewport_size({"width": 390, "height": 900})
    first = images.first
    first.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    box = first.bounding_box()
    assert 300 < box["width"] <= 390 and box["height"] / box["width"] == pytest.approx(240 / 432, abs=0.01)
    screenshot(page, "report-trends-390")


def test_the_exposure_report_shows_each_options_hits_chart(page, charted):
    hits = charts_stored(charted, ChartSubject.HITS)
    log_in(page, "compliance", "compliance-demo")
    page.goto(f"/reports/exposure/?day={LAST_DAY}")
    images = page.locator("figure.chart img")
    assert images.count() == hits > 0
    all_loaded(page, images)
    assert images.first.get_attribute("alt").startswith("Hits per pattern of ")  # what it shows, in words
    screenshot(page, "report-hits")
