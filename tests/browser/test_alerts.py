"""The alerts in a real browser: a supervisor claims an alert and resolves it with the incident opened
for it; a supervisor proposes a less sensitive threshold and compliance approves it."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from alerts.models import Alert, Threshold
from alerts.services import alert_raise
from rounds.services import incident_open
from tables.models import Table
from tests.browser.conftest import log_in, screenshot
from tests.rounds.corrections_support import demo_user

pytestmark = pytest.mark.browser


def test_a_supervisor_claims_an_alert_and_resolves_it_with_its_incident(page, demo):
    dlx = Table.objects.get(code="DLX1")
    alert = alert_raise(
        table=dlx,
        monitor="silent_table",
        measure=Decimal(14),
        threshold=Decimal(10),
        summary="Open, and no round has arrived for 14 minutes (threshold 10).",
    )
    incident = incident_open(table=dlx, kind="other", opened_by=demo_user("supervisor"), note="Stream froze.")
    log_in(page, "supervisor", "supervisor-demo")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Alerts").click()
    page.wait_for_url("**/alerts/")
    page.get_by_role("link", name=str(alert.pk), exact=True).click()
    page.wait_for_url(f"**/alerts/{alert.pk}/")

    page.locator("#claim").get_by_role("button", name="Claim").click()
    expect(page.locator(".messages")).to_have_text(f"Alert {alert.pk} is yours.")
    expect(page.locator("#claim")).to_have_count(0)

    resolve = page.locator("#resolve")
    resolve.get_by_label("What was found and done").fill("The encoder restarted; the stream is back.")
    resolve.get_by_label("Recorded in").select_option("incident")
    resolve.get_by_label("Its number").fill(str(incident.pk))
    resolve.get_by_role("button", name="Resolve").click()
    expect(page.locator(".messages")).to_have_text(f"Alert {alert.pk} resolved.")
    expect(page.locator("h1 .badge-resolved")).to_have_text("Resolved")
    page.get_by_role("link", name=f"Incident {incident.pk}").click()
    page.wait_for_url(f"**/rounds/incidents/{incident.pk}/")
    assert Alert.objects.get(pk=alert.pk).resolved_by.username == "supervisor"


def test_compliance_approves_a_less_sensitive_threshold(page, demo):
    log_in(page, "supervisor", "supervisor-demo")
    page.goto("/alerts/thresholds/")
    propose = page.locator("#propose")
    propose.get_by_label("Monitor").select_option("big_win")
    propose.get_by_label("Game").select_option("boundless")
    propose.get_by_label("New threshold").fill("20000")
    propose.get_by_label("Why").fill("High-roller tables: 10,000 is every evening.")
    propose.get_by_role("button", name="Propose").click()
    expect(page.locator(".messages")).to_contain_text("awaits a compliance officer's approval")
    change = Threshold.objects.get()
    expect(page.locator(f"#pending-{change.pk}")).to_contain_text("A compliance officer approves or refuses")
    page.get_by_role("button", name="Log out").click()

    log_in(page, "compliance", "compliance-demo")
    page.goto("/alerts/thresholds/")
    pending = page.locator(f"#pending-{change.pk}")
    pending.get_by_label("Note").fill("Agreed for the Boundless tables.")
    screenshot(page, "alerts-threshold-pending")
    pending.get_by_role("button", name="Approve").click()
    expect(page.locator(".messages")).to_have_text("Approved: Win above amount 10,000 → 20,000 is in force.")
    expect(page.locator("#pending")).to_contain_text("No change awaits a decision.")
    assert Threshold.objects.get().decided_by.username == "compliance"
