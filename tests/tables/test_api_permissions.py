"""Who may call which table endpoint: Supervisor reads and writes, Compliance reads, Customer service
and Game server get 403, anonymous 401. A refused write changes nothing."""

import pytest

from tables.models import Table, TableConfiguration, TableStatusChange
from tests.api_support import ROLES, assert_denied, client_as, make_table

READS = [
    "/api/tables/",
    "/api/tables/DLX1/",
    "/api/tables/DLX1/configurations/",
    "/api/tables/DLX1/status-changes/",
    "/api/table-configurations/",
]
READERS = {"supervisor", "compliance"}

WRITES = [
    (
        "post",
        "/api/tables/",
        {"code": "CLS9", "name": "Classic 9", "game": "classic", "currency": "EUR", "studio": "B"},
        201,
    ),
    ("patch", "/api/tables/DLX1/", {"name": "Deluxe One", "reason": "renamed"}, 200),
    ("post", "/api/tables/DLX1/status", {"status": "open", "reason": "shift start"}, 201),
    (
        "post",
        "/api/tables/DLX1/configurations/",
        {
            "changes": {"side_options": {"pair": {"paytable": {"mixed_pair": "6"}}}},
            "reason": "promo",
            "seen_version": 1,
        },
        201,
    ),
]
WRITERS = {"supervisor"}


def snapshot():
    return (
        list(Table.objects.values_list("code", "name", "status")),
        TableConfiguration.objects.count(),
        TableStatusChange.objects.count(),
    )


@pytest.mark.django_db
@pytest.mark.parametrize("role", [*ROLES, None])
@pytest.mark.parametrize("url", READS)
def test_reading_tables(role, url):
    make_table()
    response = client_as(role).get(url)
    if role in READERS:
        assert response.status_code == 200, response.content
    else:
        assert_denied(response, role)


@pytest.mark.django_db
@pytest.mark.parametrize("role", [*ROLES, None])
@pytest.mark.parametrize(("method", "url", "body", "success"), WRITES)
def test_writing_tables(role, method, url, body, success):
    make_table()
    before = snapshot()
    response = getattr(client_as(role), method)(url, body)
    if role in WRITERS:
        assert response.status_code == success, response.content
        assert snapshot() != before
    else:
        assert_denied(response, role)
        assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "delete"])
def test_it_offers_no_replace_or_delete(method):
    make_table()
    response = getattr(client_as("supervisor"), method)("/api/tables/DLX1/", {"name": "x", "reason": "y"})
    # PUT: 405; DELETE: 403 first, as nobody has delete_table.
    assert response.status_code == {"put": 405, "delete": 403}[method]
    assert response.json()["detail"]
    assert Table.objects.get().name == "Table DLX1"


@pytest.mark.django_db
def test_a_token_works_and_a_bad_one_is_401():
    from rest_framework.test import APIClient

    from accounts.services import token_create
    from tests.api_support import user

    make_table()
    _, key = token_create(user=user("compliance"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/tables/").status_code == 200
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/tables/")
    assert response.status_code == 401
    assert response.json()["detail"]
