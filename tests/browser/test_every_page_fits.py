"""Every page of the portal, as each role sees it, at 1440, 1280 and 390 px: nothing is cut off or
pokes out sideways (a wide table scrolls inside its own box), and each page is kept as a screenshot
in var/screenshots/pages/ to be looked at."""

import pytest
from django.test import override_settings

from tests.browser.conftest import SCREENSHOTS, log_in
from tests.test_page_query_fuzz import build_world, pages, url_of
from tests.walk_support import OWN_SECOND_FACTOR_PAGES, SIGN_IN_PAGES

pytestmark = pytest.mark.browser

WIDTHS = (1440, 1280, 390)
# The demo's users; a game server uses the API.
STAFF = ("supervisor", "compliance", "customer-service", "administrator")
# Pages that are not pages of the portal to look at: downloads, the API's documents.
NOT_SHOWN = {"reports:document_download", "reports:chart", "rounds:round_document", "logout"}
NOT_SHOWN |= {"alerts:fault_pdf", "regulator:day_pack"}
# Prometheus's text exposition: thousands of lines for a scraper, not a page to look at.
NOT_SHOWN |= {"metrics"}
# Parts that htmx polls into their pages (the floor, a table's live page): checked inside them.
NOT_SHOWN |= {"floor:tiles", "floor:table_live_figures"}
# What pokes out sideways: a shown element past the page's right edge whose overflow is not
# scrolled by a box of its own (the closed menu's links are laid out, but not shown).
OVERFLOWING = """() => {
    const width = document.documentElement.clientWidth;
    const scrolled = element => {
        for (let node = element.parentElement; node; node = node.parentElement) {
            const overflow = getComputedStyle(node).overflowX;
            if ((overflow === "auto" || overflow === "scroll") && node.clientWidth <= width) return true;
        }
        return false;
    };
    return [...document.querySelectorAll("body *")]
        .filter(element => element.checkVisibility({visibilityProperty: true}))
        .filter(element => element.getBoundingClientRect().right > width + 1 && !scrolled(element))
        .slice(0, 5)
        .map(element => element.tagName.toLowerCase() + (element.className ? "." + element.className : ""));
}"""


@pytest.fixture
def world(transactional_db, tmp_path):
    with override_settings(PITBOSS_REPORTS_DIR=tmp_path):
        yield build_world(tmp_path)


@pytest.mark.parametrize("role", STAFF)
def test_every_page_a_role_opens_fits_at_1440_1280_and_390_px(page, world, role):
    urls = {name: url_of(name, pattern) for name, pattern in sorted(pages().items()) if name not in NOT_SHOWN}
    log_in(page, role, f"{role}-demo")
    folder = SCREENSHOTS / "pages"
    folder.mkdir(parents=True, exist_ok=True)
    problems, shown = [], 0
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for name, url in urls.items():
            response = page.goto(url)
            if response.status in (403, 405):
                continue  # not this role's page (tests/test_permissions.py holds who sees what)
            if name in SIGN_IN_PAGES | OWN_SECOND_FACTOR_PAGES and response.status in (401, 404):
                # Not here: no provider set up (404), no sign-in failed (401), no TOTP to switch off.
                continue
            assert response.status == 200, f"{name} ({url}) answered {response.status} to {role}"
            shown += 1
            if overflowing := page.evaluate(OVERFLOWING):
                problems.append(f"{name} at {width} px: {', '.join(overflowing)}")
            page.screenshot(path=str(folder / f"{role}-{width}-{name.replace(':', '-')}.png"), full_page=True)
    assert shown >= 2 * 5
    assert not problems, "\n".join(problems)
