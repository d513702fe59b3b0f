"""An archived round in a real browser: its page opens from the archive with its cards drawn and a
banner saying where it is kept; the re-settlement and incident pages of archived rounds say how to
restore their month; the play record lists the archived bets (PostgreSQL: the archive drops
partitions)."""

import re
from pathlib import Path

import pytest

from archive.drop import month_drop
from archive.services import month_export, month_verify
from archive.storage import archive_location
from rounds.models import Bet, Incident
from tests.archive.support import MARCH, history_make
from tests.browser.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.postgres]
RESTORE = re.compile(r"python manage\.py archive_restore (DLX1|CLS1) 2026-03")


@pytest.fixture
def archived_march(transactional_db, settings, tmp_path):
    settings.PITBOSS_HOT_MONTHS = 6
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    history = history_make()
    player = Bet.objects.filter(round=history.march[1]).select_related("player").first().player
    location = archive_location()
    for table in (history.dlx1, history.cls1):
        month_export(table, MARCH, location=location)
        month_verify(table, MARCH)
    month_drop(MARCH)
    return history, player.external_id


def test_an_archived_round_and_its_corrections_open_from_the_archive(page, archived_march):
    history, player = archived_march
    _, wrong, _, cancelled = history.march
    log_in(page, "supervisor", "supervisor-demo")

    page.goto(f"/search/?q={wrong.round_id}")
    page.wait_for_url(re.compile(rf"/rounds/{wrong.round_id}/$"))
    banner = page.locator(".archive-banner")
    assert banner.is_visible() and "From the archive (month 2026-03" in banner.inner_text()
    assert page.locator("#spots .playing-card").count() >= 4  # the deal drawn from the archived rows
    assert "5.00" in page.locator(".resettlement").inner_text()  # its adjustment, read back
    screenshot(page, "archived-round")

    page.goto("/rounds/resettlements/")
    row = page.locator("tbody tr", has_text=wrong.round_id)
    assert "DLX1" in row.inner_text()
    row.locator("a").first.click()  # the re-settlement's own page
    assert RESTORE.search(page.locator(".archive-refusal").inner_text())
    screenshot(page, "archived-resettlement")

    incident = Incident.objects.get(round=cancelled.pk)
    page.goto(f"/rounds/incidents/{incident.pk}/")
    assert cancelled.round_id in page.locator("dl.facts").inner_text()
    assert RESTORE.search(page.locator(".archive-refusal").first.inner_text())
    screenshot(page, "archived-incident")

    page.goto(f"/rounds/players/{player}/?first=2026-03-01&last=2026-04-30")
    assert "archived months" in page.locator(".archive-months").inner_text()
    assert page.locator("#archived-bets tbody tr").count() >= 1
    screenshot(page, "archived-play-record")

    with page.expect_download() as download:
        page.click("#archived-bets >> text=/Export all \\d+ as CSV/")
    rows = Path(download.value.path()).read_text().splitlines()
    assert download.value.suggested_filename == f"play-record-{player}-archived-2026-03-01-2026-04-30.csv"
    assert "Bet" in rows[0].split(",") and len(rows) - 1 == page.locator("#archived-bets tbody tr").count()
