"""Two administrators in a real browser: one creates a compliance officer's account (inactive, its first
password shown once), the other approves it with a fresh code; the new officer then signs in with that
password and is sent to enrol a second factor. The first administrator's own page offers no change."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from staff.models import AccountChange
from tests.browser.conftest import log_in, log_out, screenshot

pytestmark = pytest.mark.browser


def test_one_administrator_asks_for_a_compliance_account_and_another_approves_it(page, demo):
    log_in(page, "administrator", "administrator-demo")
    page.goto("/staff/users/new/")
    page.fill("input[name=username]", "nadia")
    page.fill("input[name=email]", "nadia@casino.example")
    page.select_option("select[name=role]", "Compliance")
    page.fill("textarea[name=reason]", "Joins compliance on Monday, HR-1077")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/staff/users/new/$"))
    expect(page.locator("#awaiting")).to_contain_text("inactive, with no role, until another administrator")
    password = page.locator("#first-password code").inner_text()
    screenshot(page, "administrator-user-created")
    nadia = get_user_model().objects.get(username="nadia")
    assert not nadia.is_active and not nadia.groups.exists()
    # The page that showed the password is the only one: the account's page does not.
    page.goto(f"/staff/users/{nadia.pk}/")
    assert password not in page.content()
    # Their own account: no form, and a word on why.
    own = get_user_model().objects.get(username="administrator")
    page.goto(f"/staff/users/{own.pk}/")
    assert page.locator("main form").count() == 0
    log_out(page)

    log_in(page, "administrator-2", "administrator-2-demo")
    change = AccountChange.objects.get(user=nadia)
    page.goto(f"/staff/changes/{change.pk}/")
    page.fill("textarea[name=decision-note]", "Checked with HR: starts Monday")
    page.click("button:has-text('Approve and apply')")
    page.wait_for_url(re.compile(rf"/staff/changes/{change.pk}/$"))
    expect(page.get_by_text("approved and applied").first).to_be_visible()
    screenshot(page, "administrator-change-approved")
    nadia.refresh_from_db()
    assert nadia.is_active and list(nadia.groups.values_list("name", flat=True)) == ["Compliance"]
    log_out(page)

    # The new officer signs in with the first password and must enrol before anything else.
    page.goto("/accounts/login/")
    page.fill("input[name=login]", "nadia")
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/2fa/totp/activate/"))
