"""What a browser or a proxy may keep (issue 44): every page a signed-in user opens, every API answer,
every export (CSV, XLSX) and PDF is sent with `Cache-Control: no-store`, so that nothing of a
signed-in user's stays in a shared cache or on a shared computer's disk after sign-out. The public
rule sheets keep their own caching (an ETag, and the API's `public, max-age`) for anonymous visitors.
No page may be framed: `X-Frame-Options: DENY` and CSP's `frame-ancestors 'none'` say the same.

Every page is walked, as each staff role, with the world tests/test_page_query_fuzz.py builds."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.services import token_create
from tests.test_page_query_fuzz import is_list, pages, url_of, world  # noqa: F401
from tests.test_permissions import PUBLIC

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("world")]

STAFF = ("supervisor", "compliance", "customer-service")
NOT_STORED = "no-store"


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))  # seed_demo's
    return client


def assert_not_stored(response, what: str) -> None:
    cache_control = response.get("Cache-Control", "")
    assert NOT_STORED in cache_control, f"{what} answered {response.status_code} with {cache_control!r}"
    assert "public" not in cache_control, what


@pytest.mark.parametrize("username", STAFF)
def test_every_page_a_signed_in_user_opens_is_not_stored(username):
    client = signed_in(username)
    opened = 0
    for name, pattern in sorted(pages().items()):
        if name in PUBLIC or name == "reports:chart":
            continue  # a run's chart never changes: kept privately (tested below)
        url = url_of(name, pattern)
        response = client.get(url)
        if response.status_code in (403, 405):
            continue  # not this role's page: its refusal is a page too
        assert_not_stored(response, f"{name} ({url})")
        opened += 1
        if is_list(name, pattern) and response.status_code == 200:
            for export in ("csv", "xlsx"):
                exported = client.get(url, {"_export": export})
                if exported.status_code == 200:
                    assert_not_stored(exported, f"{name} as {export}")
    assert opened >= 8


def test_a_refused_page_and_a_missing_one_are_not_stored():
    client = signed_in("customer-service")
    assert_not_stored(client.get(reverse("tables:table_list")), "a 403")
    assert_not_stored(client.get("/no-such-page/"), "a 404")


def test_report_pdfs_are_not_stored():
    from reports.models import ReportDocument

    document = ReportDocument.objects.order_by("pk").first()
    client = signed_in("compliance")
    response = client.get(reverse("reports:document_download", args=[document.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert_not_stored(response, "a report PDF")
    api = APIClient()
    api.force_authenticate(get_user_model().objects.get(username="compliance"))
    response = api.get(f"/api/reports/documents/{document.pk}/download/")
    assert response.status_code == 200
    assert_not_stored(response, "a report PDF from the API")


def test_a_runs_chart_keeps_its_private_caching():
    response = signed_in("compliance").get(url_of("reports:chart", pages()["reports:chart"]))
    assert response.status_code == 200
    cache_control = response["Cache-Control"]
    assert "private" in cache_control and "public" not in cache_control and NOT_STORED not in cache_control


API_READS = [
    "/api/tables/",
    "/api/tables/DLX1/",
    "/api/players/",
    "/api/players/P1001/",
    "/api/personal-limits/",
    "/api/table-limits/",
    "/api/rounds/",
    "/api/reports/runs/",
    "/api/schema/",
    "/api/docs/",
]


@pytest.mark.parametrize("username", STAFF)
def test_every_api_answer_is_not_stored_by_session_or_token(username):
    user = get_user_model().objects.get(username=username)
    by_session = APIClient()
    by_session.force_login(user)
    by_token = APIClient()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)[1]}")
    for client in (by_session, by_token):
        for url in API_READS:
            assert_not_stored(client.get(url), url)  # 200, or 403 for a role that may not read it
        assert_not_stored(client.get("/api/players/NOPE/"), "an API 404")
        assert_not_stored(client.post("/api/players/", {"external_id": ""}, format="json"), "an API 4xx")


def test_api_refusals_without_credentials_are_not_stored():
    assert_not_stored(APIClient().get("/api/tables/"), "an API 401")
    bad_token = APIClient()
    bad_token.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert_not_stored(bad_token.get("/api/tables/"), "an API 401 for a bad token")


def test_the_public_rule_sheets_keep_their_caching_for_anonymous_visitors():
    from tables.models import ConfigurationOdds, Table, TableConfiguration
    from tables.odds import configuration_odds_compute
    from tables.services import table_set_status

    table = Table.objects.get(code="DLX1")
    for configuration in TableConfiguration.objects.filter(table=table):
        if not ConfigurationOdds.objects.filter(configuration=configuration).exists():
            configuration_odds_compute(configuration=configuration)
    supervisor = get_user_model().objects.get(username="supervisor")
    if table.status == "open":  # seed_demo's, opened without a record of it: closed, then opened
        table_set_status(table=table, status="closed", changed_by=supervisor, reason="Shift end")
    table_set_status(table=table, status="open", changed_by=supervisor, reason="Shift start")
    page = Client().get(reverse("sheets:sheet", args=["DLX1"]))
    assert page.status_code == 200 and page["ETag"]
    assert NOT_STORED not in page.get("Cache-Control", "")
    assert (
        Client().get(reverse("sheets:sheet", args=["DLX1"]), HTTP_IF_NONE_MATCH=page["ETag"]).status_code
        == 304
    )
    pdf = Client().get(reverse("sheets:sheet_pdf", args=["DLX1"]))
    assert pdf.status_code == 200 and NOT_STORED not in pdf.get("Cache-Control", "")
    rules = APIClient().get("/api/tables/DLX1/rules/")
    assert rules.status_code == 200
    assert "public" in rules["Cache-Control"] and NOT_STORED not in rules["Cache-Control"]


def test_no_page_may_be_framed():
    for client, url in ((signed_in("compliance"), "/"), (Client(), reverse("login")), (APIClient(), "/api/")):
        response = client.get(url)
        assert response["X-Frame-Options"] == "DENY", url
        directives = dict(
            (part.strip().split(" ", 1) + [""])[:2] for part in response["Content-Security-Policy"].split(";")
        )
        assert directives["frame-ancestors"] == "'none'", url
