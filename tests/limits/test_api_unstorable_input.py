"""Input PostgreSQL cannot compare or store is a 400 naming the field: a table or player named
with a NUL character (tests/test_api_fuzz.py found the limit check a server error), and a reason
longer than the 100 characters a history record keeps."""

import pytest

from tests.api_support import client_as, make_player, make_table

NUL = "Null characters are not allowed."
TOO_LONG = "Ensure this field has no more than 100 characters."


@pytest.fixture
def world(db):
    make_table()
    make_player()


def test_the_limit_check_refuses_a_nul_character(world):
    body = {"player": "P1001\x00", "table": "DLX1\x00", "kind": "main", "amount": "10.00"}
    response = client_as("game_server").post("/api/limits/check", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"player": [NUL], "table": [NUL]}


def test_setting_a_table_limit_refuses_a_nul_character(world):
    body = {"table": "DLX1\x00", "kind": "main", "min_stake": "1.00", "max_stake": "5.00", "reason": "r"}
    response = client_as("supervisor").post("/api/table-limits/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"table": [NUL]}


@pytest.mark.parametrize(
    ("role", "method", "url", "body"),
    [
        (
            "supervisor",
            "post",
            "/api/table-limits/",
            {"table": "DLX1", "kind": "main", "min_stake": "1.00", "max_stake": "5.00"},
        ),
        ("customer_service", "post", "/api/players/", {"external_id": "P2", "currency": "EUR"}),
        ("customer_service", "patch", "/api/players/P1001/", {"display_name": "Pat B."}),
    ],
)
def test_a_reason_longer_than_its_history_keeps_is_refused(world, role, method, url, body):
    client = client_as(role)
    response = getattr(client, method)(url, {**body, "reason": "x" * 101}, format="json")
    assert response.status_code == 400
    assert response.json() == {"reason": [TOO_LONG]}
    assert getattr(client, method)(url, {**body, "reason": "x" * 100}, format="json").status_code < 300
