"""Every API error is JSON with a message, and the schema says which errors each operation gives.
Found by tests/test_api_fuzz.py: an id its URL pattern refuses (`/api/incidents/0.5/`) was
answered by Django's HTML 404, one with a NUL character was a server error on PostgreSQL, and
operations documented none of their 400, 401, 403, 404, 415."""

import json
import re

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

from tests.api_support import client_as, user


def generated_schema() -> dict:
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


@pytest.mark.django_db
@pytest.mark.parametrize("role", [None, "supervisor"])
def test_an_api_url_that_matches_nothing_is_a_json_404(role):
    response = client_as(role).get("/api/incidents/0.5/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/players/P1001%00/", "/api/rounds/R%00/", "/api/tables/DLX1%00/"])
def test_an_api_url_with_a_nul_character_is_a_json_404(url):
    """Found on PostgreSQL, which cannot compare a NUL character: the lookup was a server error."""
    response = client_as("supervisor").get(url)
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
def test_a_page_url_with_a_nul_character_is_a_404():
    browser = Client()
    browser.force_login(user("supervisor"))
    assert browser.get("/limits/players/P1001%00/").status_code == 404


@pytest.mark.django_db
def test_a_page_url_that_matches_nothing_is_still_the_html_page():
    response = client_as("supervisor").get("/nowhere/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_every_operation_documents_its_errors_with_the_error_body():
    schema = generated_schema()
    assert schema["components"]["schemas"]["Error"]["properties"] == {"detail": {"type": "string"}}
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            public = operation.get("security") == [{}]  # a rule sheet: no credentials, throttled per address
            expected = set() if public else {"401", "403", "429"}
            if "requestBody" in operation:
                expected |= {"400", "413", "415"}
            if "{" in path:
                expected.add("404")
            assert expected <= set(operation["responses"]), where
            if public:
                assert not {"401", "403"} & set(operation["responses"]), where
                assert "Retry-After" in operation["responses"]["429"]["description"], where
            for status_code, response in operation["responses"].items():
                if status_code.startswith("4"):
                    assert response["content"] == error, f"{where} {status_code}"


def test_a_time_of_day_is_described_as_drf_writes_it():
    cutoff = generated_schema()["components"]["schemas"]["ReportRun"]["properties"]["cutoff"]
    assert "format" not in cutoff  # `format: time` demands a UTC offset, which "06:00:00" has not
    assert re.match(cutoff["pattern"], "06:00:00")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "role, method, url, body",
    [
        ("customer_service", "patch", "/api/players/P1001/", {"detail": "x", "reason": "typo"}),
        ("game_server", "post", "/api/rounds/", {"rounds": [], "detail": "x"}),
    ],
)
def test_a_body_field_named_detail_is_refused_in_a_string_detail(role, method, url, body):
    """Found by tests/test_api_fuzz.py: a field the request does not take is an error under its own
    name, and one named `detail` gave {"detail": ["Not taken here ..."]}, where every error answer's
    `detail` is a string (the API's error schema): a client reading it as the message broke."""
    from tests.factories import player

    player("P1001")
    response = getattr(client_as(role), method)(url, body, format="json")
    assert response.status_code == 400, response.content
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "detail" in detail and "Not taken here" in detail, detail
