"""Format 1 takes only its documented shapes (issue 16). Each case here was a 500 or was stored
before: now it is a 400 naming the field, with nothing stored."""

import io

import pytest
from django.core.management import call_command

from limits.models import Player
from rounds.models import Bet, Round, Shoe
from tests.api_support import client_as
from tests.fixtures import round_document

DOCUMENT = "deluxe-split-double-play-behind"


@pytest.fixture
def game_server(db):
    call_command("seed_demo", stdout=io.StringIO())
    return client_as("game_server")


def stored() -> tuple[int, int, int, int]:
    return Round.objects.count(), Bet.objects.count(), Shoe.objects.count(), Player.objects.count()


def refused(client, document: dict) -> dict:
    """The answer to `document`, which must be a 400 that stores nothing."""
    before = stored()
    response = client.post("/api/rounds/", document, format="json")
    assert response.status_code == 400, response.content
    assert stored() == before
    return response.json()


def cancelled(document: dict) -> dict:
    return {**document, "status": "cancelled", "cancel_reason": "malfunction"}


@pytest.mark.parametrize(
    ("place", "field"),
    [
        (lambda d: d.__setitem__("round_id", "DLX1/S9/1"), "round_id"),
        (lambda d: d["spots"][0].__setitem__("player", "GS/P1001"), "spots[0].player"),
        (lambda d: d["bets"][1].__setitem__("bet_id", "B 1"), "bets[1].bet_id"),
        (lambda d: d.__setitem__("shoe", "S#1"), "shoe"),
        (lambda d: d.__setitem__("round_id", ".."), "round_id"),
        (lambda d: d.__setitem__("round_id", "..."), "round_id"),
        (lambda d: d.__setitem__("round_id", "R?x=1"), "round_id"),
        (lambda d: d.__setitem__("round_id", "Rü"), "round_id"),
        (lambda d: d["bets"][0].__setitem__("player", "P%2F1"), "bets[0].player"),
        (lambda d: d["spots"][0].__setitem__("spot", "2 "), "spots[0].spot"),
        (lambda d: d.__setitem__("round_id", "incidents"), "round_id"),
        (lambda d: d.__setitem__("round_id", "players"), "round_id"),
    ],
    ids=[
        "slash-round",
        "slash-player",
        "space-bet",
        "hash-shoe",
        "dots",
        "only-dots",
        "query",
        "non-ascii",
        "percent",
        "trailing-space-spot",
        "page-word-incidents",
        "page-word-players",
    ],
)
def test_an_id_outside_the_alphabet_is_400_naming_it(game_server, place, field):
    document = round_document(DOCUMENT)
    place(document)
    errors = refused(game_server, document)
    assert list(errors) == [field]


@pytest.mark.parametrize(
    ("place", "field"),
    [
        (lambda d: d.__setitem__("status", ["completed"]), "status"),
        (lambda d: d.__setitem__("status", {"completed": True}), "status"),
        (lambda d: cancelled(d) | {"cancel_reason": ["malfunction"]}, "cancel_reason"),
        (lambda d: cancelled(d) | {"cancel_reason": {}}, "cancel_reason"),
        (lambda d: d["bets"][0].__setitem__("kind", ["main"]), "bets[0].kind"),
        (
            lambda d: d["spots"][0]["hands"][0].__setitem__(
                "actions", [{"action": "auto_stand", "requested": ["hit"]}, "double"]
            ),
            "spots[0].hands[0].actions[0].requested",
        ),
        (
            lambda d: d["spots"][0]["hands"][0].__setitem__(
                "actions", [{"action": ["auto_stand"]}, "double"]
            ),
            "spots[0].hands[0].actions[0].action",
        ),
        (lambda d: d.__setitem__("number", 2**31), "number"),
        (lambda d: d.__setitem__("number", 2**70), "number"),
        (lambda d: d["spots"][0].__setitem__("seat", 99999), "spots[0].seat"),
        (lambda d: d["spots"][0].__setitem__("seat", -1), "spots[0].seat"),
        (lambda d: d["bets"][0].__setitem__("stake", "1234567890123.00"), "bets[0].stake"),
        (lambda d: d["bets"][0].__setitem__("returned", "9" * 13), "bets[0].returned"),
        (lambda d: d["spots"][0]["hands"][1].__setitem__("cards", ["2C"] * 30), "spots[0].hands[1].cards"),
        (lambda d: d.__setitem__("dealer", ["2C"] * 30), "dealer"),
        (lambda d: d.__setitem__("opened_at", "0001-01-01T00:00+14:00"), "opened_at"),
        (lambda d: d.__setitem__("opened_at", "9999-12-31"), "opened_at"),
        (lambda d: d.__setitem__("opened_at", "9999-12-31T23:59:59-14:00"), "opened_at"),
        (lambda d: d.__setitem__("closed_at", "9999-12-31T23:59:59-14:00"), "closed_at"),
        (lambda d: d["spots"][0].__setitem__("hands", {}), "spots[0].hands"),
        (
            lambda d: d["spots"][0]["hands"][0].__setitem__("actions", {"stand": 1}),
            "spots[0].hands[0].actions",
        ),
        (lambda d: d["spots"][0]["hands"][0].__setitem__("cards", {"6D": 1}), "spots[0].hands[0].cards"),
        (lambda d: d.__setitem__("spots", {}), "spots"),
        (lambda d: d.__setitem__("bets", {}), "bets"),
    ],
    ids=[
        "status-list",
        "status-object",
        "cancel-reason-list",
        "cancel-reason-object",
        "kind-list",
        "requested-list",
        "action-list",
        "number-2^31",
        "number-2^70",
        "seat-99999",
        "seat-negative",
        "stake-13-digits",
        "returned-13-digits",
        "hand-30-cards",
        "dealer-30-cards",
        "opened-year-1",
        "opened-9999-no-zone",
        "opened-9999",
        "closed-9999",
        "hands-object",
        "actions-object",
        "cards-object",
        "spots-object",
        "bets-object",
    ],
)
def test_a_value_of_the_wrong_type_or_range_is_400_naming_it(game_server, place, field):
    document = round_document(DOCUMENT)
    document = place(document) or document
    errors = refused(game_server, document)
    assert list(errors) == [field]


def test_the_largest_values_in_range_are_taken(game_server):
    document = round_document(DOCUMENT)
    document["number"] = 2**31 - 1
    document["bets"][0]["stake"] = "999999999999.99"
    response = game_server.post("/api/rounds/", document, format="json")
    assert response.status_code == 201, response.content
