"""POST /api/limits/check: may this player stake this amount on this kind at this table? Refusals
say why in words; bad input is 400 naming the field; a game server's call takes a few queries."""

import pytest
from rest_framework.test import APIClient

from accounts.services import token_create
from tests.api_support import client_as, make_player, make_table, set_personal, user

URL = "/api/limits/check"


@pytest.fixture
def game_server(db):
    """A game server's client, authenticated by token as in production."""
    make_table("DLX1", limits={"main": ("5.00", "500.00"), "pair": ("1.00", "100.00")})
    make_player("P1001")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user('game_server'))[1]}")
    return client


def check(client, amount="10.00", **fields):
    return client.post(URL, {"player": "P1001", "table": "DLX1", "kind": "main", "amount": amount, **fields})


def test_an_allowed_stake(game_server):
    response = check(game_server, "10.00")
    assert response.status_code == 200
    assert response.json() == {
        "allowed": True,
        "min_stake": "5.00",
        "max_stake": "500.00",
        "currency": "EUR",
        "reason": None,
        "sources": ["table DLX1: 5.00–500.00"],
    }


@pytest.mark.parametrize(
    ("amount", "reason"),
    [("4.99", "4.99 is below the minimum 5.00 EUR."), ("500.01", "500.01 is above the maximum 500.00 EUR.")],
)
def test_outside_the_table_range(game_server, amount, reason):
    body = check(game_server, amount).json()
    assert (body["allowed"], body["reason"]) == (False, reason)


def test_a_personal_limit_narrows_the_range(game_server):
    from limits.models import Player

    set_personal(Player.objects.get(), max_stake="50.00")
    body = check(game_server, "60.00").json()
    assert (body["allowed"], body["max_stake"]) == (False, "50.00")
    assert body["reason"] == "60.00 is above the maximum 50.00 EUR."
    assert body["sources"][1] == "personal (all kinds at every table): — to 50.00 EUR"


def test_insurance_is_half_the_main_range(game_server):
    body = check(game_server, "2.50", kind="insurance").json()
    assert (body["allowed"], body["min_stake"], body["max_stake"]) == (True, "2.50", "250.00")


def test_no_stake_fits_when_the_limits_do_not_meet(game_server):
    from limits.models import Player

    set_personal(Player.objects.get(), min_stake="600.00")
    body = check(game_server, "600.00").json()
    assert body["allowed"] is False
    assert body["reason"].startswith("No stake fits: the table and the player's personal limits leave 600.00")


def test_a_trial_account_may_not_take_a_seat(game_server):
    make_player("T1", account_type="trial")
    body = check(game_server, "10.00", player="T1").json()
    assert (body["allowed"], body["reason"]) == (False, "A trial account may not take a seat.")


def test_a_player_in_another_currency(game_server):
    make_player("G1", currency="GBP")
    body = check(game_server, "10.00", player="G1").json()
    assert body["allowed"] is False
    assert body["reason"] == "Player G1 plays in GBP; DLX1 is in EUR."


def test_a_kind_the_table_does_not_offer(game_server):
    body = check(game_server, "10.00", kind="lucky_trio").json()
    assert body == {
        "allowed": False,
        "min_stake": None,
        "max_stake": None,
        "currency": "EUR",
        "reason": "DLX1 does not offer Lucky Trio.",
        "sources": [],
    }


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"player": "NOPE"}, "player"),
        ({"table": "NOPE"}, "table"),
        ({"kind": "roulette"}, "kind"),
        ({"amount": "10.001"}, "amount"),
        ({"amount": 10.001}, "amount"),
        ({"amount": "0"}, "amount"),
        ({"amount": "0.00"}, "amount"),
        ({"amount": "-5.00"}, "amount"),
        ({"amount": "ten"}, "amount"),
        ({"amount": None}, "amount"),
        ({"stake": "10.00"}, "stake"),
    ],
)
def test_bad_input_is_400_naming_the_field(game_server, fields, field):
    response = check(game_server, **{"amount": "10.00", **fields})
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert response.json()[field][0]


def test_a_json_number_amount_is_refused_as_in_a_round_document(game_server):
    response = game_server.post(URL, {"player": "P1001", "table": "DLX1", "kind": "main", "amount": 10.5})
    assert response.status_code == 400
    assert "never a JSON number" in response.json()["amount"][0]


def test_a_check_takes_a_handful_of_queries(game_server, django_assert_max_num_queries):
    from limits.models import Player

    player = Player.objects.get()
    set_personal(player, max_stake="400.00")
    set_personal(player, kind="main", max_stake="300.00")
    set_personal(player, game="classic", max_stake="20.00")
    check(game_server)  # warm-up: content types and the like
    # token+user, user perms, group perms, player, table, configuration, table limit, personal limits
    with django_assert_max_num_queries(8):
        body = check(game_server, "250.00").json()
    assert (body["allowed"], body["max_stake"]) == (True, "300.00")


def test_only_a_caller_with_the_permission_checks(db):
    make_table()
    make_player()
    assert check(client_as(None)).status_code == 401
    for role in ("supervisor", "compliance", "customer_service", "game_server"):
        assert check(client_as(role)).status_code == 200
    assert client_as("game_server").get(URL).status_code == 405
