"""The navigation's search box in a real browser: an id typed and Enter pressed opens its page, at
1440 px and in the 390 px menu."""

import re

import pytest
from django.core.management import call_command

from rounds.ingest import round_ingest
from tests.browser.conftest import log_in, screenshot
from tests.fixtures import round_document

pytestmark = pytest.mark.browser


@pytest.fixture
def a_round(transactional_db):
    call_command("seed_demo", verbosity=0)
    return round_ingest(document=round_document("deluxe-split-double-play-behind")).round


def test_an_id_in_the_search_box_opens_its_page(page, a_round):
    log_in(page, "compliance", "compliance-demo")
    box = page.get_by_placeholder("Find an id")
    box.fill(a_round.round_id)
    box.press("Enter")
    page.wait_for_url(re.compile(rf"/rounds/{a_round.round_id}/$"))
    assert a_round.round_id in page.locator("h1").inner_text()

    page.get_by_placeholder("Find an id").fill("nothing-is-called-this")
    page.get_by_placeholder("Find an id").press("Enter")
    page.wait_for_url(re.compile(r"/search/\?q=nothing-is-called-this$"))
    assert "Nothing you may see is called" in page.locator("main").inner_text()
    screenshot(page, "search-nothing")

    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("details.menu > summary").click()
    page.get_by_placeholder("Find an id").fill("DLX1")
    page.get_by_placeholder("Find an id").press("Enter")
    page.wait_for_url(re.compile(r"/tables/DLX1/$"))
