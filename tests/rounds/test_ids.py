"""Ids (issue 16): round, bet, shoe, spot and player ids are 1 to 64 ASCII characters of
[A-Za-z0-9._:-], not only dots, and every route that takes an id accepts every valid one. A player id
with a slash made the player unmanageable (the player page was a 404, so no limit could be set)."""

import io

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack.document import RESERVED_PLAYER_IDS, RESERVED_ROUND_IDS, id_problem
from limits.models import Player
from tests.api_support import client_as, user
from tests.fixtures import round_document

ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-"
valid_ids = st.text(ID_ALPHABET, min_size=1, max_size=64).filter(lambda value: value.strip("."))


@pytest.mark.parametrize(
    "value", ["DLX1/S9/1", "GS/P1001", "..", ".", "a b", "ü", "a#b", "a?b", "a%2F", "", " ", "x" * 65]
)
def test_id_problem_names_what_is_wrong(value):
    assert id_problem(value)


@given(valid_ids)
def test_every_id_of_the_alphabet_is_an_id(value):
    assert id_problem(value) is None


def first_segments(patterns, prefix: str) -> set[str]:
    """The literal first path segments of `patterns` under `prefix` ("incidents" of "incidents/new/")."""
    found = set()
    for pattern in patterns:
        text = str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            continue
        assert isinstance(pattern, URLPattern)
        if text.startswith(prefix):
            head = text[len(prefix) :].split("/")[0]
            if head and "<" not in head:
                found.add(head)
    return found


def test_the_reserved_ids_are_exactly_the_page_words_where_an_id_would_be():
    rounds_patterns = get_resolver().url_patterns
    [rounds_urls] = [p for p in rounds_patterns if str(p.pattern) == "rounds/"]
    [limits_urls] = [p for p in rounds_patterns if str(p.pattern) == "limits/"]
    assert first_segments(rounds_urls.url_patterns, "") == RESERVED_ROUND_IDS
    assert first_segments(limits_urls.url_patterns, "players/") == RESERVED_PLAYER_IDS


@pytest.fixture
def seeded(db):
    call_command("seed_demo", stdout=io.StringIO())


def staff_client(role: str) -> Client:
    client = Client()
    client.force_login(user(role))
    return client


@pytest.mark.django_db
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(round_id=valid_ids.filter(lambda v: v not in RESERVED_ROUND_IDS), player_id=valid_ids)
def test_every_route_that_takes_an_id_accepts_every_valid_one(seeded, round_id, player_id):
    with transaction.atomic():  # each example starts from the seeded tables alone
        round_and_player_pages_answer(round_id, player_id)
        transaction.set_rollback(True)


def round_and_player_pages_answer(round_id: str, player_id: str) -> None:
    document = round_document("deluxe-split-double-play-behind")
    document["round_id"] = round_id
    document["shoe"] = f"S{round_id}"[:64]
    player_id = player_id if player_id not in RESERVED_PLAYER_IDS else f"{player_id}1"
    for spot in document["spots"][:1]:
        old = spot["player"]
        spot["player"] = player_id
        for bet in document["bets"]:
            if bet["player"] == old:
                bet["player"] = player_id
    for bet in document["bets"]:
        bet["bet_id"] = f"{bet['bet_id']}-{round_id}"[:64]
    game_server = client_as("game_server")
    response = game_server.post("/api/rounds/", document, format="json")
    assert response.status_code in (200, 201), response.content
    compliance, agent = staff_client("compliance"), staff_client("customer_service")
    for client, url in [
        (compliance, reverse("rounds:round_detail", args=[round_id])),
        (compliance, reverse("rounds:round_document", args=[round_id])),
        (compliance, reverse("rounds:play_record", args=[player_id])),
        (agent, reverse("limits:player_detail", args=[player_id])),
        (agent, reverse("limits:player_update", args=[player_id])),
        (agent, reverse("limits:personal_limit_set", args=[player_id])),
        (agent, reverse("api:player-personal-limits", args=[player_id])),
        (compliance, reverse("api:round-detail", args=[round_id])),
        (agent, reverse("api:player-detail", args=[player_id])),
    ]:
        assert client.get(url).status_code == 200, url
    assert Player.objects.filter(external_id=player_id).exists()
