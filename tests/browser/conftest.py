"""Browser tests: Playwright for Python driving Debian's Chromium against a live server.

No browser is downloaded: Playwright launches /usr/bin/chromium. Every test here is marked
`browser` with `pytestmark` (skipped on a machine without Chromium, a failure in CI).
"""

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between page actions are ordinary synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(os.environ.get("PITBOSS_SCREENSHOTS", "var/screenshots"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium, live_server, transactional_db):
    context = chromium.new_context(base_url=live_server.url, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def log_in(page, username: str, password: str) -> None:
    """Through the sign-in page: the password, then, for a user with a second factor, a code (each
    is accepted once: the next period's, then the last one's, if the moment's was used already)."""
    page.goto("/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    if "/accounts/2fa/authenticate/" not in page.url:
        return
    from django.contrib.auth import get_user_model

    from tests.second_factor_support import code_of

    user = get_user_model().objects.get(username=username)
    for steps in (0, 1, -1):
        page.fill("input[name=code]", code_of(user, steps))
        page.click("main form button[type=submit]")
        page.wait_for_load_state()
        if "/accounts/2fa/authenticate/" not in page.url:
            return
    raise AssertionError(f"No code of {username} was accepted")


def log_out(page) -> None:
    page.click("button:has-text('Log out')")


@pytest.fixture
def demo(transactional_db):
    """The demo's tables, players and users (seed_demo), for a test that signs in as them."""
    from django.core.management import call_command

    call_command("seed_demo", verbosity=0)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
