"""The report page of a day with a payout beyond the paytable (issue 44), in Chromium at 1440 and
390 px: the flag is shown above the figures, naming the bet, and nothing pokes out sideways (a wide
observed RTP of 100,000,000.0000 % included). Screenshots in var/screenshots/."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from core.gaming_day import gaming_day
from reports.daily import table_day_compute
from reports.models import ReportRun, RunStatus
from rounds.ingest import round_ingest
from tables.models import Table
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_every_page_fits import OVERFLOWING
from tests.reports.test_beyond_paytable import absurd_pair_round
from tests.reports.test_jobs import DAY

pytestmark = pytest.mark.browser


def test_the_flag_is_shown_above_the_figures_and_fits(page):
    call_command("seed_demo", stdout=StringIO())
    table = Table.objects.get(code="DLX1")
    configuration_odds_compute(configuration=configuration_in_force(table))
    document = absurd_pair_round()
    round_ingest(document=document)
    bounds = gaming_day(DAY)
    run = ReportRun.objects.create(
        day=DAY,
        trigger="command",
        time_zone=bounds.time_zone,
        cutoff=bounds.cutoff,
        status=RunStatus.SUCCEEDED,
    )
    table_day_compute(table=table, day=DAY, run=run)

    log_in(page, "compliance", "compliance-demo")
    for width in (1440, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{reverse('reports:daily_report')}?run={run.pk}")
        flag = page.locator("#beyond-paytable")
        expect(flag).to_be_visible()
        assert "1 payout beyond the paytable at DLX1" in flag.inner_text()
        assert f"of round {document['round_id']}" in flag.inner_text()
        assert flag.bounding_box()["y"] < page.locator("table").first.bounding_box()["y"]
        assert page.evaluate(OVERFLOWING) == []
        screenshot(page, f"report-beyond-paytable-{width}")
