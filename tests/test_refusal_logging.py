"""A refused request is one log line (core/log_filters.py): every 403, from a page, the API or the
CSRF check, is one WARNING naming the method, the path and the user, with no traceback. A server
error keeps its traceback."""

import logging

import pytest
from django.test import Client
from django.urls import path, reverse
from rest_framework.test import APIClient

from core.log_filters import RefusalOneLine
from tests.factories import table, user

pytestmark = pytest.mark.django_db


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom)]


def refusals(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name.startswith("django.")]


def test_a_page_refused_is_one_line_naming_the_user_and_route(client, caplog):
    table("DLX1")
    client.force_login(user("compliance"))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="django"):
        response = client.get("/tables/DLX1/edit/")
    assert response.status_code == 403
    (record,) = refusals(caplog)
    assert record.levelno == logging.WARNING
    assert record.getMessage() == "Forbidden: GET /tables/DLX1/edit/ by compliance-user (403)"
    assert record.exc_info is None and record.exc_text is None


def test_an_api_refusal_is_one_line_naming_the_user_and_route(caplog):
    api = APIClient()
    api.force_authenticate(user("game_server"))
    with caplog.at_level(logging.INFO, logger="django"):
        response = api.post(reverse("api:table-list"), {"code": "NEW1"})
    assert response.status_code == 403
    (record,) = refusals(caplog)
    assert record.levelno == logging.WARNING
    assert record.getMessage() == "Forbidden: POST /api/tables/ by game_server-user (403)"
    assert record.exc_info is None


def test_a_refusal_of_the_csrf_check_is_one_line_with_its_reason(caplog):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user("supervisor"))
    with caplog.at_level(logging.INFO, logger="django"):
        response = browser.post("/tables/new/", {"code": "NEW1"})
    assert response.status_code == 403
    (record,) = refusals(caplog)
    assert record.levelno == logging.WARNING
    assert record.getMessage() == (
        "Forbidden: POST /tables/new/ by supervisor-user (403): CSRF cookie not set."
    )
    assert record.exc_info is None


def test_a_path_cannot_forge_a_second_line(client, caplog):
    client.force_login(user("compliance"))
    with caplog.at_level(logging.INFO, logger="django"):
        response = client.get("/tables/X%0AForbidden:%20GET%20by%20boss%20(403)/edit/")
    assert response.status_code == 403
    (record,) = refusals(caplog)
    assert record.getMessage() == (
        "Forbidden: GET /tables/X\\nForbidden: GET by boss (403)/edit/ by compliance-user (403)"
    )


@pytest.mark.urls("tests.test_refusal_logging")
def test_a_server_error_keeps_its_traceback(caplog):
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.INFO, logger="django"):
        response = client.get("/boom/")
    assert response.status_code == 500
    (record,) = refusals(caplog)
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError


def test_the_line_holds_when_logging_is_configured_twice(caplog):
    """Configuring logging again (logging.config.dictConfig adds a logger's filters without
    removing those it has) puts a second filter on the CSRF logger: the second pass must not
    rewrite the line without its reason (it did, in CI, after a test configured logging again)."""
    csrf_logger = logging.getLogger("django.security.csrf")
    second = RefusalOneLine()
    csrf_logger.addFilter(second)
    try:
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(user("supervisor"))
        with caplog.at_level(logging.INFO, logger="django"):
            response = browser.post("/tables/new/", {"code": "NEW1"})
    finally:
        csrf_logger.removeFilter(second)
    assert response.status_code == 403
    (record,) = refusals(caplog)
    assert record.getMessage() == (
        "Forbidden: POST /tables/new/ by supervisor-user (403): CSRF cookie not set."
    )
