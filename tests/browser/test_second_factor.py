"""The second factor in a real browser (issue 53): a supervisor's first sign-in enrols an authenticator
from the secret the page shows and sees the recovery codes once; the next sign-in asks for a code, which a
recovery code may stand in for."""

import re

import pytest

from accounts.services import user_create
from demo.second_factor import totp_code
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def password(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", "pw-" + username)
    page.click("main form button[type=submit]")


def test_a_supervisor_enrols_at_first_sign_in_then_gives_a_code_each_time(page):
    user_create(username="sam", password="pw-sam", role="Supervisor")
    password(page, "sam")
    page.wait_for_url("**/accounts/2fa/totp/activate/")
    page.goto("/tables/")  # every page sends to enrolment until it is done
    page.wait_for_url("**/accounts/2fa/totp/activate/")
    screenshot(page, "second-factor-enrol")
    secret = re.search(r"\b([A-Z2-7]{32})\b", page.content()).group(1)
    page.fill("input[name=code]", totp_code(secret))
    page.click("main form button[type=submit]")
    page.wait_for_url("**/accounts/2fa/recovery-codes/")
    codes = page.input_value("textarea").split()
    assert len(codes) == 10 and all(re.fullmatch(r"\d{8}", code) for code in codes)
    screenshot(page, "second-factor-recovery-codes")
    page.goto("/accounts/2fa/recovery-codes/")
    assert page.locator("textarea").count() == 0  # shown once

    page.click("header form button[type=submit]")  # log out
    password(page, "sam")
    page.wait_for_url("**/accounts/2fa/authenticate/")
    screenshot(page, "second-factor-code")
    page.fill("input[name=code]", codes[0])  # a recovery code in place of the phone's
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/" not in url)
    assert "Signed in as sam (Supervisor)" in page.inner_text("main")
