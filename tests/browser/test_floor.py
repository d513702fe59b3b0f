"""The floor in a real browser: a tile changes by itself when a round arrives (htmx polling, under the
pages' CSP), and the floor reads at 390 px."""

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from rounds.ingest import round_ingest
from tests.browser.conftest import log_in, screenshot

# Rounds dealt over the last minutes, read as today's: tests/conftest.py gaming_day_clear_of_now.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("gaming_day_clear_of_now")]


def deluxe_rounds(count: int) -> list[dict]:
    documents = simulate_shoe(
        preset("deluxe"),
        table="DLX1",
        shoe_id="DLX1-WATCHED",
        players=5,
        rng=random.Random(4),
        start=datetime.now(UTC) - timedelta(minutes=20),
        cancel_rate=0,
    )
    return [json.loads(json.dumps(document)) for document in documents[:count]]


def test_a_tile_changes_when_a_round_arrives(page, demo):
    first, second = deluxe_rounds(2)
    round_ingest(document=first)
    errors = []  # scripts that failed, and anything the CSP refused (the favicon's 404 is neither)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None,
    )
    log_in(page, "supervisor", "supervisor-demo")
    page.goto("/floor/")
    rounds = page.locator("#tile-DLX1 .tile-rounds-hour")
    assert rounds.inner_text() == "1"
    round_ingest(document=second)
    # No reload: the tiles poll every 5 s and swap themselves in.
    expect(rounds).to_have_text("2", timeout=15_000)
    assert page.url.endswith("/floor/")
    assert errors == []  # nothing refused by the CSP, no eval
    page.locator("#tile-DLX1").click()
    page.wait_for_url("**/floor/DLX1/")
    assert "DLX1-WATCHED" in page.locator(".live-groups").first.inner_text()
    screenshot(page, "floor-table-live")


def test_the_floor_reads_at_390_px(page, demo):
    round_ingest(document=deluxe_rounds(1)[0])
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, "compliance", "compliance-demo")
    page.goto("/floor/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    tile = page.locator("#tile-DLX1")
    box = tile.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert "Rounds, last hour" in tile.inner_text()
    screenshot(page, "floor-390")
