"""A round document with a NUL character in an id is not a round: 400 naming the field, nothing
stored (tests/test_api_fuzz.py's probe found every such id a server error on PostgreSQL, which
cannot store a NUL character)."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from rounds.models import Round
from tests.api_support import client_as

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"


@pytest.fixture
def game_server(db):
    call_command("seed_demo", stdout=io.StringIO())
    return client_as("game_server")


@pytest.mark.parametrize(
    ("where", "field"),
    [
        (lambda doc: doc, "round_id"),
        (lambda doc: doc, "table"),
        (lambda doc: doc, "shoe"),
        (lambda doc: doc["spots"][0], "player"),
        (lambda doc: doc["bets"][1], "bet_id"),
    ],
)
def test_a_nul_character_in_an_id_is_400_naming_it(game_server, where, field):
    document = json.loads((EXAMPLES / "deluxe-split-double-behind.json").read_text())
    where(document)[field] += "\x00"
    response = game_server.post("/api/rounds/", document, format="json")
    assert response.status_code == 400
    [(name, messages)] = response.json().items()
    assert name.endswith(field) and messages == ["must not contain a NUL character"]
    assert not Round.objects.exists()
