"""The notifications in a real browser: a supervisor chooses tables and monitors and sends a test; a
supervisor adds a webhook and sees its secret once."""

import pytest
from playwright.sync_api import expect

from notifications.models import Delivery, Subscription, WebhookEndpoint
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser


def test_a_supervisor_chooses_tables_and_monitors_and_sends_a_test(page, demo):
    log_in(page, "supervisor", "supervisor-demo")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Alerts").click()
    page.get_by_role("navigation", name="Alerts").get_by_role("link", name="Notifications").click()
    page.wait_for_url("**/notifications/")
    expect(page.locator("#what-reaches-you")).to_contain_text("You have not chosen")
    form = page.locator("#subscription")
    form.get_by_label("Email address").fill("floor-pager@casino.example")
    form.get_by_label("DLX1").check()
    form.get_by_label("BND1").check()
    for box in form.locator(".field-monitors input").all():  # the role's monitors come ticked
        box.set_checked(box.get_attribute("value") == "silent_table")
    form.get_by_label("At least").select_option("2")
    screenshot(page, "notifications-subscription")
    form.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    expect(page.locator("#what-reaches-you")).to_contain_text("BND1, DLX1 · Open but silent · critical only")
    chosen = Subscription.objects.get(user__username="supervisor")
    assert sorted(table.code for table in chosen.tables.all()) == ["BND1", "DLX1"]

    page.get_by_role("button", name="Send a test").click()
    expect(page.locator(".messages")).to_have_text("A test was sent by email to floor-pager@casino.example.")
    assert Delivery.objects.get().address == "floor-pager@casino.example"
    page.locator("#send-test").get_by_role("link", name="Deliveries").click()
    page.wait_for_url("**/notifications/deliveries/")
    expect(page.locator("tbody")).to_contain_text("floor-pager@casino.example")


def test_a_supervisor_adds_a_webhook_and_sees_its_secret_once(page, demo):
    log_in(page, "supervisor", "supervisor-demo")
    page.goto("/notifications/webhooks/")
    add = page.locator("#webhook-add")
    add.get_by_label("Name").fill("Floor pager")
    add.get_by_label("URL").fill("https://pager.example/pitboss")
    add.get_by_label("CLS1").check()
    add.get_by_role("button", name="Add").click()
    secret = WebhookEndpoint.objects.get().secret
    expect(page.locator("#webhook-secret")).to_have_text(secret)
    expect(page.locator("#secret")).to_contain_text("shown only this once")
    screenshot(page, "notifications-webhook-secret")
    page.get_by_role("link", name="Every webhook").click()
    page.wait_for_url("**/notifications/webhooks/")
    expect(page.locator("tbody")).to_contain_text("Floor pager")
    assert secret not in page.content()
    page.get_by_role("link", name="Floor pager").click()
    expect(page.locator("h1")).to_contain_text("Floor pager")
    assert secret not in page.content()

    page.get_by_role("button", name="Rotate secret").click()
    rotated = WebhookEndpoint.objects.get().secret
    assert rotated != secret
    expect(page.locator("#webhook-secret")).to_have_text(rotated)
    expect(page.locator("#secret")).to_contain_text("The previous secret still signs until")
