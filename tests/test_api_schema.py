"""The OpenAPI schema is valid without a warning, and its docs are served by the app itself
(Swagger UI and Redoc from drf-spectacular-sidecar's static files, nothing from a CDN)."""

import re

import pytest
import yaml
from django.contrib.staticfiles import finders
from django.core.management import call_command

from tests.api_support import client_as

ENDPOINTS = {
    "/api/tables/": {"get", "post"},
    "/api/tables/{code}/": {"get", "patch"},
    "/api/tables/{code}/status": {"post"},
    "/api/tables/{code}/configurations/": {"get", "post"},
    "/api/tables/{code}/status-changes/": {"get"},
    "/api/tables/{code}/rules/": {"get"},
    "/api/table-configurations/": {"get"},
    "/api/table-configurations/{id}/": {"get"},
    "/api/table-configurations/{id}/approve": {"post"},
    "/api/table-configurations/{id}/compliance-approve": {"post"},
    "/api/table-configurations/{id}/compliance-reject": {"post"},
    "/api/table-configurations/{id}/fall-reason": {"post"},
    "/api/table-configurations/{id}/reject": {"post"},
    "/api/published-rtps/": {"get", "post"},
    "/api/table-limits/": {"get", "post"},
    "/api/table-limits/{id}/": {"get"},
    "/api/table-limits/{id}/history/": {"get"},
    "/api/players/": {"get", "post"},
    "/api/players/{external_id}/": {"get", "patch"},
    "/api/players/{external_id}/personal-limits/": {"get", "post"},
    "/api/personal-limits/": {"get"},
    "/api/personal-limits/{id}/": {"get"},
    "/api/limits/check": {"post"},
    "/api/resettlements/": {"get", "post"},
    "/api/resettlements/{id}/": {"get"},
    "/api/resettlements/{id}/approve": {"post"},
    "/api/resettlements/{id}/reject": {"post"},
    "/api/incidents/": {"get", "post"},
    "/api/incidents/{id}/": {"get"},
    "/api/incidents/{id}/notes": {"get", "post"},
    "/api/incidents/{id}/resume": {"post"},
    "/api/incidents/{id}/cancel-round": {"post"},
    "/api/voids/": {"get", "post"},
    "/api/voids/{id}/": {"get"},
    "/api/voids/{id}/approve": {"post"},
    "/api/voids/{id}/reject": {"post"},
    "/api/rounds/": {"get", "post"},
    "/api/rounds/{round_id}/": {"get"},
    "/api/reports/runs/": {"get", "post"},
    "/api/reports/runs/{id}/": {"get"},
    "/api/reports/runs/{id}/sign/": {"post"},
    "/api/reports/daily-figures/": {"get"},
    "/api/reports/daily-figures/{id}/": {"get"},
    "/api/reports/table-summaries/": {"get"},
    "/api/reports/table-summaries/{id}/": {"get"},
    "/api/reports/exposure/": {"get"},
    "/api/reports/exposure/{id}/": {"get"},
    "/api/reports/documents/": {"get"},
    "/api/reports/documents/{id}/": {"get"},
    "/api/reports/documents/{id}/download/": {"get"},
    "/api/reports/{day}/pack/": {"get"},
    "/api/floor/": {"get"},
    "/api/floor/{code}/": {"get"},
    "/api/alerts/": {"get"},
    "/api/alerts/{id}/": {"get"},
    "/api/alerts/faults/": {"get"},
    "/api/alerts/faults/{id}/": {"get"},
}


def test_the_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    paths = {path: set(operations) - {"parameters"} for path, operations in schema["paths"].items()}
    assert paths == ENDPOINTS
    money = schema["components"]["schemas"]["LimitCheckResult"]["properties"]["min_stake"]
    assert money["type"] == "string" and money["format"] == "decimal"
    assert_only_the_rule_sheets_are_public(schema)


# The players' rule sheets are the API's only public operation (issue 20): no credentials, so no 401
# or 403 either; its 429 is its own, per client address (issue 43, sheets/throttle.py).
PUBLIC_OPERATIONS = {("/api/tables/{code}/rules/", "get")}


def assert_only_the_rule_sheets_are_public(schema):
    public = set()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            if operation.get("security") == [{}]:
                public.add((path, method))
                assert not {"401", "403"} & set(operation["responses"]), (path, method)
                assert "address" in operation["responses"]["429"]["description"], (path, method)
            else:
                assert operation["security"] and {} not in operation["security"], (path, method)
    assert public == PUBLIC_OPERATIONS


@pytest.mark.django_db
def test_the_schema_needs_a_login():
    assert client_as(None).get("/api/schema/").status_code == 401
    response = client_as("compliance").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/limits/check" in response.json()["paths"]


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "asset"), [("/api/docs/", "swagger-ui-dist"), ("/api/redoc/", "redoc")])
def test_the_docs_load_nothing_from_the_internet(url, asset):
    assert client_as(None).get(url).status_code == 401
    response = client_as("supervisor").get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert f"/static/drf_spectacular_sidecar/{asset}/" in html
    assert "/api/schema/" in html or f'src="{url}?script="' in html
    external = re.findall(r"""(?:src|href)=["'](https?:)?//""", html)
    assert external == [], "the docs page loads something from another host"
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert inline == [], "an inline script, which the Content-Security-Policy blocks"
    assert "'unsafe-inline'" not in response["Content-Security-Policy"].split("script-src")[1].split(";")[0]
    for path in re.findall(r"/static/(drf_spectacular_sidecar/[^\"'?]+)", html):
        assert finders.find(path), f"{path} is not among the static files"


@pytest.mark.django_db
def test_swagger_ui_gets_its_start_up_script_from_the_app():
    response = client_as("supervisor").get("/api/docs/", {"script": ""})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in response.content.decode()
    assert "/api/schema/" in response.content.decode()
