"""A table or player named with a NUL character is a 400 naming the field (tests/test_api_fuzz.py
found the limit check a server error on PostgreSQL, which cannot compare a NUL character)."""

import pytest

from tests.api_support import client_as, make_player, make_table

NUL = "Null characters are not allowed."


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
