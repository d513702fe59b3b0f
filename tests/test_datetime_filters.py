"""Date-and-time filters (core/filters.py, in the rounds' and tables' filtersets) take any
offset Python reads and refuse, naming the field, a moment that is no date in UTC. Found by
tests/test_api_fuzz.py: `opened_before=2946-03-15T03:43:59+22:35` was a server error on
PostgreSQL (it takes offsets up to 15:59), `0001-01-01T00:00:00+01:00` one on SQLite."""

from datetime import UTC, date, datetime

import pytest
from django.test import Client

from rounds.services import incident_open
from tests.api_support import client_as, make_table, user


@pytest.fixture
def incident(db):
    return incident_open(table=make_table(), kind="other", opened_by=user("supervisor"), note="filters")


@pytest.mark.parametrize(
    ("url", "field"),
    [("/api/incidents/", "opened_before"), ("/api/tables/DLX1/status-changes/", "changed_after")],
)
@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00"])
def test_a_moment_outside_the_years_1_to_9999_in_utc_is_400_naming_the_field(incident, url, field, moment):
    response = client_as("supervisor").get(url, {field: moment})
    assert response.status_code == 400
    assert response.json() == {field: ["Enter a date and time within the years 1 to 9999 in UTC."]}


def test_any_offset_python_reads_is_taken_as_that_moment_in_utc(incident):
    opened = incident.opened_at.astimezone(UTC)
    assert opened < datetime(2100, 1, 1, tzinfo=UTC)
    api = client_as("supervisor")
    # 2100-01-01T22:35+22:35 is 2100-01-01T00:00Z: after the incident; 1999-12-31 before it.
    assert api.get("/api/incidents/", {"opened_before": "2100-01-01T22:35:00+22:35"}).json()["count"] == 1
    assert api.get("/api/incidents/", {"opened_before": "1999-12-31T23:00:00-22:35"}).json()["count"] == 0


def test_the_rounds_page_shows_the_error_instead_of_failing(db):
    browser = Client()
    browser.force_login(user("compliance"))
    response = browser.get("/rounds/", {"opened_after": "0001-01-01T00:00:00+01:00"})
    assert response.status_code == 400  # the filter refuses it, naming the field
    assert "Enter a date and time within the years 1 to 9999 in UTC." in response.content.decode()


def test_every_date_input_is_typed_as_iso_not_in_the_browsers_locale():
    """Found trying the portal (issue 19): the play record's period and the report run's day were
    the browser's date inputs, shown as mm/dd/yyyy in en-US."""
    from reports.views import ReportRunStartForm
    from rounds.forms import PlayRecordPeriodForm

    for form in (PlayRecordPeriodForm(initial={"first": date(2026, 11, 1)}), ReportRunStartForm()):
        for field in form:
            if field.name == "reason":  # a run after a sign-off says why: words, not a date
                continue
            html = str(field)
            if 'name="first"' in html:
                assert 'value="2026-11-01"' in html
            assert 'type="text"' in html and 'placeholder="YYYY-MM-DD"' in html, html
