"""A table's rule sheet is public from its first opening (issue 43): before it, its pages, PDFs and API
answer 404 saying it is not open yet (a time asked before it, likewise); once opened, a table keeps its
public sheet when it closes. Staff previews of a version are not affected."""

from datetime import timedelta
from urllib.parse import quote

import pytest
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time
from rest_framework.test import APIClient

from tables.models import Table, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import table_set_status
from tests.factories import table, user

pytestmark = pytest.mark.django_db

PUBLIC = ["/rules/DLX1/", "/rules/DLX1/fil/", "/rules/DLX1/pdf/", "/rules/DLX1/fil/pdf/"]
API = "/api/tables/DLX1/rules/"


@pytest.fixture
def created():
    """DLX1 as table_create leaves it, with its odds: closed, never opened. The moment it was made."""
    moment = timezone.now() - timedelta(days=2)
    with freeze_time(moment):
        dlx = table("DLX1")
        for configuration in TableConfiguration.objects.filter(table=dlx):
            configuration_odds_compute(configuration=configuration)
    return moment


def set_status(status: str, reason: str):
    table_set_status(table=Table.objects.get(code="DLX1"), status=status, changed_by=user(), reason=reason)


def answers(at=None) -> list:
    query = "" if at is None else f"?at={quote(at.isoformat(), safe='')}"
    pages = [Client().get(url + query) for url in PUBLIC]
    api = APIClient().get(API + query)
    return [*pages, api]


def assert_not_open_yet(responses):
    for response in responses:
        assert response.status_code == 404, (response.request["PATH_INFO"], response.status_code)
    *pages, api = responses
    for page in pages:
        assert "Not open yet" in page.text and '<main class="sheet">' in page.text
    assert "not open yet" in api.json()["detail"]


def test_a_table_never_opened_has_no_public_sheet(created):
    assert_not_open_yet(answers())
    assert_not_open_yet(answers(created + timedelta(hours=1)))


def test_its_first_opening_makes_it_public_and_closing_keeps_it(created):
    set_status("open", "Shift start")
    assert [response.status_code for response in answers()] == [200] * 5
    set_status("closed", "Shift end")
    assert [response.status_code for response in answers()] == [200] * 5


def test_a_time_before_the_first_opening_shows_no_sheet(created):
    """The first version is in force from the table's creation; the sheet is public from its opening,
    a day later: a time between them is answered as a table not open yet then."""
    with freeze_time(created + timedelta(days=1)):
        set_status("open", "Shift start")
    assert_not_open_yet(answers(created + timedelta(hours=12)))
    assert [response.status_code for response in answers(created + timedelta(days=1, hours=1))] == [200] * 5


def test_a_paused_table_that_was_opened_keeps_its_sheet(created):
    set_status("open", "Shift start")
    set_status("paused", "Incident")
    assert [response.status_code for response in answers()] == [200] * 5


def test_a_staff_preview_needs_no_opening(created):
    supervisor = Client()
    supervisor.force_login(user("supervisor"))
    response = supervisor.get("/rules/DLX1/versions/1/")
    assert response.status_code == 200 and "Configuration version 1" in response.text
