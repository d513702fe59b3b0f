"""A table with an open incident is never shown as just "Open": in a real browser, the tables list and
the table page show the incident beside the status, and its link leads to the incident."""

import re

import pytest

from rounds.services import incident_open
from tables.services import table_set_status
from tests import factories
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser


def test_the_open_incident_shows_beside_the_status_and_links_to_it(page, transactional_db):
    dlx = factories.table("DLX1")
    factories.table("BND1")
    supervisor = factories.user("supervisor", "supervisor")
    supervisor.set_password("supervisor-pw-demo")
    supervisor.save()
    table_set_status(table=dlx, status="open", changed_by=supervisor, reason="Shift start")
    incident = incident_open(table=dlx, kind="network_failure", opened_by=supervisor, note="Stream froze")

    log_in(page, "supervisor", "supervisor-pw-demo")
    page.goto("/tables/")
    row = page.locator("tr:has(a:text-is('DLX1'))")
    assert f"Incident {incident.pk} open: network failure" in row.inner_text()
    assert page.locator("tr:has(a:text-is('BND1')) .table-alert").count() == 0
    screenshot(page, "tables-list-open-incident")
    page.goto("/tables/DLX1/")
    screenshot(page, "table-page-open-incident")
    page.locator("h1 .table-alert").click()
    page.wait_for_url(re.compile(rf"/rounds/incidents/{incident.pk}/$"))
