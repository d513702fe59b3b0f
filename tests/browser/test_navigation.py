"""The portal's frame in a real browser: the navigation shows each role the lists it may open and
no other, collapses into a menu at 390 px with Log out readable, and an error page has a way back."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser

NAV_LINKS = "header nav[aria-label=Main] a"


def rgb(css_color: str) -> tuple[float, ...]:
    """The channels of a computed `rgb(r, g, b)` or `rgba(r, g, b, a)`."""
    return tuple(float(part) for part in re.findall(r"[\d.]+", css_color))


def contrast(foreground: str, background: str) -> float:
    """WCAG's contrast ratio of two opaque colours."""

    def luminance(color: str) -> float:
        channels = [c / 255 for c in rgb(color)[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


# The colour drawn behind an element: its own background or that of the nearest ancestor with one.
BACKGROUND_BEHIND = """element => {
    for (let node = element; node; node = node.parentElement) {
        const color = getComputedStyle(node).backgroundColor;
        if (color !== "transparent" && !color.startsWith("rgba(0, 0, 0, 0)")) return color;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
}"""


def test_at_390_px_the_navigation_is_a_menu_that_opens_with_log_out_readable(page, demo):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, "supervisor", "supervisor-demo")
    log_out = page.get_by_role("button", name="Log out")
    menu = page.locator("header summary", has_text="Menu")
    expect(menu).to_be_visible()
    assert not log_out.is_visible() and not page.locator(NAV_LINKS).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing pokes out sideways

    menu.click()
    expect(log_out).to_be_visible()
    expect(page.locator(f"{NAV_LINKS}:text-is('Incidents')")).to_be_visible()
    color = log_out.evaluate("element => getComputedStyle(element).color")
    background = log_out.evaluate(BACKGROUND_BEHIND)
    assert rgb(color)[:3] != rgb(background)[:3]
    assert contrast(color, background) >= 4.5, (color, background)
    box = log_out.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    screenshot(page, "navigation-menu-390")

    log_out.click()
    page.wait_for_url(re.compile(r"/accounts/(login|logout)/"))
    page.goto("/")
    assert "/accounts/login/" in page.url


def test_at_1440_px_the_navigation_is_a_bar_without_a_menu_button(page, demo):
    page.set_viewport_size({"width": 1440, "height": 900})
    log_in(page, "supervisor", "supervisor-demo")
    expect(page.locator("header summary")).not_to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    expect(page.locator(NAV_LINKS).last).to_be_visible()


def nav_links(page) -> dict[str, str]:
    return {link.inner_text(): link.get_attribute("href") for link in page.locator(NAV_LINKS).all()}


def test_a_supervisor_has_incidents_and_re_settlements_in_the_navigation(page, demo):
    log_in(page, "supervisor", "supervisor-demo")
    links = nav_links(page)
    assert links["Incidents"] == "/rounds/incidents/"
    assert links["Re-settlements"] == "/rounds/resettlements/"
    page.click(f"{NAV_LINKS}:text-is('Incidents')")
    page.wait_for_url("**/rounds/incidents/")
    active = page.locator(f"{NAV_LINKS}.active")
    assert active.all_inner_texts() == ["Incidents"]  # not Rounds as well


def test_compliance_has_re_settlements_and_customer_service_neither(page, demo):
    log_in(page, "compliance", "compliance-demo")
    assert "Re-settlements" in nav_links(page)
    page.click("button:has-text('Log out')")
    log_in(page, "customer-service", "customer-service-demo")
    links = nav_links(page)
    assert "Incidents" not in links and "Re-settlements" not in links and "Voids" not in links
    assert "Tables" not in links and "Reports" not in links
    assert "Rounds" not in links  # rounds only through players' play records (rounds.access)
    assert {"Home", "Players", "Personal limits"} <= set(links)


@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("supervisor", "supervisor-demo"),
        ("compliance", "compliance-demo"),
        ("customer-service", "customer-service-demo"),
    ],
)
def test_every_link_in_a_roles_navigation_opens(page, demo, username, password):
    log_in(page, username, password)
    for label, href in nav_links(page).items():
        response = page.goto(href)
        assert response.status == 200, (label, href, response.status)


def test_an_error_page_is_a_portal_page_with_the_way_back(page, demo):
    log_in(page, "compliance", "compliance-demo")
    response = page.goto("/rounds/20261201-NOPE-S0001-001/")
    assert response.status == 404
    expect(page.locator("header .brand")).to_be_visible()
    expect(page.get_by_role("heading", name="There is no page here")).to_be_visible()
    screenshot(page, "error-404")
    page.get_by_role("link", name="Back to Rounds").click()
    page.wait_for_url("**/rounds/")
    assert page.locator("h1").inner_text() == "Rounds"

    page.goto("/tables/DLX1/edit/")
    expect(page.get_by_role("heading", name="You may not open this page")).to_be_visible()
    page.get_by_role("link", name="Home", exact=True).last.click()
    page.wait_for_url(lambda url: url.endswith("/"))
