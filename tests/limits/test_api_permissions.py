"""Who may call which players-and-limits endpoint. Supervisor: table limits, reads players and
personal limits. Compliance: reads. Customer service: players and personal limits, no table limits.
Game server: the limit check only. Anonymous: 401. A refused write changes nothing."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from limits.models import PersonalLimit, Player, TableLimit
from tests.api_support import ROLES, assert_denied, client_as, make_player, make_table

# Every role that plays a part at the tables asks the limit check; the administrator does not.
AT_THE_TABLES = set(ROLES) - {"administrator"}
READS = [
    ("/api/table-limits/", {"supervisor", "compliance"}),
    ("/api/table-limits/{limit}/", {"supervisor", "compliance"}),
    ("/api/table-limits/{limit}/history/", {"supervisor", "compliance"}),
    ("/api/players/", {"supervisor", "compliance", "customer_service"}),
    ("/api/players/P1001/", {"supervisor", "compliance", "customer_service"}),
    ("/api/players/P1001/personal-limits/", {"supervisor", "compliance", "customer_service"}),
    ("/api/personal-limits/", {"supervisor", "compliance", "customer_service"}),
]
WRITES = [
    (
        "post",
        "/api/table-limits/",
        {"table": "DLX1", "kind": "behind", "min_stake": "1.00", "max_stake": "100.00", "reason": "open"},
        {"supervisor"},
        201,
    ),
    ("post", "/api/players/", {"external_id": "P2002", "currency": "EUR"}, {"customer_service"}, 201),
    ("patch", "/api/players/P1001/", {"status": "suspended", "reason": "asked"}, {"customer_service"}, 200),
    (
        "post",
        "/api/players/P1001/personal-limits/",
        {"max_stake": "50.00", "reason": "asked by the player", "seen_setting": 0},
        {"customer_service"},
        201,
    ),
    (
        "post",
        "/api/limits/check",
        {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"},
        AT_THE_TABLES,
        200,
    ),
]


@pytest.fixture
def limit_id(db):
    make_table()
    make_player()
    return TableLimit.objects.get().pk


def snapshot():
    return (
        list(TableLimit.objects.values_list("kind", "min_stake", "max_stake")),
        TableLimit.history.count(),
        list(Player.objects.values_list("external_id", "status")),
        PersonalLimit.objects.count(),
    )


@pytest.mark.parametrize("role", [*ROLES, None])
@pytest.mark.parametrize(("url", "allowed"), READS)
def test_reading(limit_id, role, url, allowed):
    response = client_as(role).get(url.format(limit=limit_id))
    if role in allowed:
        assert response.status_code == 200, response.content
    else:
        assert_denied(response, role)


@pytest.mark.parametrize("role", [*ROLES, None])
@pytest.mark.parametrize(("method", "url", "body", "allowed", "success"), WRITES)
def test_writing(limit_id, role, method, url, body, allowed, success):
    before = snapshot()
    response = getattr(client_as(role), method)(url, body)
    if role in allowed:
        assert response.status_code == success, response.content
        assert (snapshot() != before) == (method != "post" or "check" not in url)
    else:
        assert_denied(response, role)
        assert snapshot() == before


@pytest.mark.parametrize(("url", "allowed"), READS)
def test_a_user_without_a_role_reads_nothing(limit_id, url, allowed):
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("nobody", password="pw-nobody"))
    assert client.get(url.format(limit=limit_id)).status_code == 403
    check = {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"}
    assert client.post("/api/limits/check", check).status_code == 403
