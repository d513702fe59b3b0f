"""A round document with an id PostgreSQL cannot store (a NUL character in it, or more than 64
characters) is not a round: 400 naming the field, nothing stored. Both were server errors on
PostgreSQL, found by probing what tests/test_api_fuzz.py found elsewhere."""

import io
import json

import pytest
from django.core.management import call_command

from rounds.models import Round
from tests.api_support import client_as
from tests.fixtures import round_document

WHERE = {
    "round_id": lambda document: document,
    "table": lambda document: document,
    "shoe": lambda document: document,
    "player": lambda document: document["spots"][0],
    "bet_id": lambda document: document["bets"][1],
}


@pytest.fixture
def game_server(db):
    call_command("seed_demo", stdout=io.StringIO())
    return client_as("game_server")


@pytest.mark.parametrize("field", list(WHERE))
@pytest.mark.parametrize(
    ("suffix", "message"),
    [("\x00", "must not contain a NUL character"), ("x" * 64, "must be at most 64 characters")],
    ids=["nul", "long"],
)
def test_an_id_postgresql_cannot_store_is_400_naming_it(game_server, field, suffix, message):
    document = round_document("deluxe-split-double-play-behind")
    WHERE[field](document)[field] += suffix
    response = game_server.post("/api/rounds/", document, format="json")
    assert response.status_code == 400
    [(name, messages)] = response.json().items()
    assert name.endswith(field) and messages == [message]
    assert not Round.objects.exists()


def test_an_id_of_64_characters_is_taken(game_server):
    document = round_document("deluxe-split-double-play-behind")
    document["round_id"] = "R" * 64
    assert game_server.post("/api/rounds/", document, format="json").status_code == 201


@pytest.mark.parametrize(
    ("place", "field", "message"),
    [
        (
            lambda document: document.__setitem__("round_id", document["round_id"] + "\ud800"),
            "round_id",
            "'DLX1-S0412-023\\ud800' is not an id: only the characters A-Z a-z 0-9 . _ : -",
        ),
        (
            lambda document: document["bets"][1].__setitem__("bet_id", "B-\udfff"),
            "bets[1].bet_id",
            "'B-\\udfff' is not an id: only the characters A-Z a-z 0-9 . _ : -",
        ),
        (
            lambda document: document.__setitem__("note\ud83d", "x"),
            "document",
            "holds a lone surrogate (such as \\ud800): not Unicode text",
        ),
    ],
    ids=["round_id", "bet_id", "key"],
)
def test_a_lone_surrogate_is_400_naming_where(game_server, place, field, message):
    """JSON's \\uXXXX escapes can carry half of a surrogate pair, which is no Unicode text: it
    could be neither hashed nor stored (a server error before). In an id it is outside the id
    alphabet; elsewhere (a key) it is named as what it is."""
    document = round_document("deluxe-split-double-play-behind")
    place(document)
    body = json.dumps(document)  # ensure_ascii: the surrogate travels as an escape, as a server's would
    assert "\\ud" in body
    response = game_server.post("/api/rounds/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {field: [message]}
    assert not Round.objects.exists()
