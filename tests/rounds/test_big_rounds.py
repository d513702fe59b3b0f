"""Big bodies: POST /api/rounds/ takes a round of thousands of Boundless players (issue 16: a
6,500-player round, 2.8 MB as json.dumps writes it, got Django's HTML "Bad Request" from the global
2.5 MiB upload limit), up to PITBOSS_ROUND_BODY_LIMIT; above it, a JSON 413 stating the limit, and
nothing stored. Every other route keeps Django's small default (DATA_UPLOAD_MAX_MEMORY_SIZE)."""

import io
import json
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from accounts.services import token_create
from blackjack.rules import preset
from blackjack.simulate import simulate
from core.parsers import BodyTooLarge, read_body
from rounds.models import Bet, Round, Shoe
from tests.fixtures import round_document

pytestmark = pytest.mark.django_db
URL = "/api/rounds/"
ROUND_MODELS = (Round, Shoe, Bet)


def boundless_round(players: int) -> dict:
    """The first round of a simulated Boundless shoe at BND1 with `players` players."""
    documents = simulate(
        preset("boundless"),
        table="BND1",
        shoes=1,
        players=players,
        seed=16,
        start=datetime(2026, 11, 28, 8, tzinfo=UTC),
    )
    return next(documents)


@pytest.fixture
def game_server(db) -> APIClient:
    """seed_demo's world, and a client with its game server's API token."""
    call_command("seed_demo", stdout=io.StringIO())
    _, key = token_create(user=get_user_model().objects.get(username="game-server"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def counts() -> list[int]:
    return [model.objects.count() for model in ROUND_MODELS]


def test_a_round_of_ten_thousand_players_is_stored(game_server):
    document = boundless_round(10_000)
    body = json.dumps(document)  # as a game server writes it: default json.dumps
    assert len(body.encode()) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = game_server.generic("POST", URL, body, content_type="application/json")
    assert response.status_code == 201, response.content[:300]
    stored = Round.objects.get(round_id=document["round_id"])
    assert stored.document == document
    assert Bet.objects.filter(round=stored).count() == len(document["bets"]) > 10_000
    assert len(Round.objects.get(pk=stored.pk).dealt_spots) == len(document["spots"]) == 10_000


def test_the_round_limit_is_at_least_32_mb():
    assert settings.PITBOSS_ROUND_BODY_LIMIT >= 32_000_000


def test_a_round_above_the_limit_is_a_json_413_stating_it_and_stores_nothing(game_server):
    body = json.dumps(round_document("deluxe-split-double-play-behind")).encode()
    limit = len(body) - 1
    before = counts()
    with override_settings(PITBOSS_ROUND_BODY_LIMIT=limit):
        response = game_server.generic("POST", URL, body, content_type="application/json")
    assert response.status_code == 413, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    detail = response.json()["detail"]
    assert f"{len(body):,} bytes" in detail and f"at most {limit:,} bytes" in detail, detail
    assert "POST /api/rounds/" in detail
    assert counts() == before
    with override_settings(PITBOSS_ROUND_BODY_LIMIT=len(body)):
        assert game_server.generic("POST", URL, body, content_type="application/json").status_code == 201


def test_a_batch_above_the_limit_is_a_413_and_stores_nothing(game_server):
    body = json.dumps({"rounds": [round_document("deluxe-split-double-play-behind")]}).encode()
    before = counts()
    with override_settings(PITBOSS_ROUND_BODY_LIMIT=len(body) // 2):
        response = game_server.generic("POST", URL, body, content_type="application/json")
    assert response.status_code == 413
    assert counts() == before


def test_a_body_without_a_length_is_not_read(game_server):
    """Sent chunked, without Content-Length: WSGI gives the application no body, so it is refused
    with 411 before anything reads it (core/body_length.py), nothing stored, no limit passed by."""
    body = json.dumps(round_document("deluxe-split-double-play-behind"))
    before = counts()
    response = game_server.generic(
        "POST",
        URL,
        body,
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert response.status_code == 411, response.content[:300]
    assert "Content-Length" in response.json()["detail"]
    assert counts() == before


def test_a_big_body_to_another_endpoint_is_refused_with_the_small_limit(game_server):
    """Other API routes keep DATA_UPLOAD_MAX_MEMORY_SIZE: a JSON 413 stating it."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps(
        {"player": "P1001", "table": "BND1", "kind": "main", "amount": "5.00", "x": "a" * limit}
    )
    response = game_server.generic("POST", "/api/limits/check", body, content_type="application/json")
    assert response.status_code == 413, response.content[:300]
    assert f"at most {limit:,} bytes" in response.json()["detail"]
    supervisor = APIClient()
    supervisor.force_authenticate(get_user_model().objects.get(username="supervisor"))
    body = json.dumps({"code": "BIG1", "name": "x" * limit, "game": "deluxe", "currency": "EUR"})
    response = supervisor.generic("POST", "/api/tables/", body, content_type="application/json")
    assert response.status_code == 413, response.content[:300]


def test_a_big_round_in_a_form_body_keeps_the_small_limit(game_server):
    """POST /api/rounds/ takes big JSON only: its form parsers keep Django's limit (a 4xx)."""
    body = "document=" + "a" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = game_server.generic("POST", URL, body, content_type="application/x-www-form-urlencoded")
    assert 400 <= response.status_code < 500
    assert counts() == [0] * len(ROUND_MODELS)


def test_a_big_sign_in_form_is_refused(db):
    client = Client()
    body = {"username": "supervisor", "password": "a" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    response = client.post("/accounts/login/", body)
    assert 400 <= response.status_code < 500


def test_manage_py_ingest_stores_a_big_file(game_server, tmp_path):
    document = boundless_round(10_000)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(document))
    out = io.StringIO()
    call_command("ingest", str(path), stdout=out)
    assert f"stored: {document['round_id']}" in out.getvalue()
    assert Bet.objects.count() == len(document["bets"])


def test_a_body_longer_than_its_content_length_says_is_cut_at_the_limit():
    """A server may hand over more than Content-Length announced (ASGI buffers what came): the parser
    reads at most the limit and one byte more, and refuses."""
    request = RequestFactory().post(URL, b"{}", content_type="application/json")
    with pytest.raises(BodyTooLarge, match=r"more than 10 bytes; POST /api/rounds/ takes at most 10 bytes"):
        read_body(io.BytesIO(b"[" + b"1," * 20 + b"1]"), 10, request)
    assert read_body(io.BytesIO(b"[1,2,3]"), 10, request) == b"[1,2,3]"
