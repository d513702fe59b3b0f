"""The back office keeps serving when its cache goes away (issue 43): with the production settings'
cache (config/settings_production.py: Redis, sessions cached_db) at a Redis of the test's own that
is stopped or frozen, the API, staff sign-in and the round pages answer as with it up; throttles let
requests through; sessions come from the database; what was dropped while the cache was away (a
sign-out) does not come back with it (core/cache.py)."""

import io

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.services import token_create
from rounds.ingest import round_ingest
from tests.cache_support import answer, breaker, clock, production_cache_settings, redis_server  # noqa: F401
from tests.factories import user
from tests.fixtures import round_document
from tests.minute_support import twenty_seconds_into_a_minute
from tests.second_factor_support import signed_in_with_code

pytestmark = [pytest.mark.django_db, pytest.mark.redis_server, pytest.mark.usefixtures("demo")]
STAKE = {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"}
PAGE = "/tables/"


@pytest.fixture
def demo(production_cache_settings):  # noqa: F811
    call_command("seed_demo", stdout=io.StringIO())


def back(server, moved) -> None:
    """The cache answers again, and the breaker's retry interval has passed on its clock `moved`."""
    if server.frozen:
        server.thaw()
    else:
        server.start()
    moved.advance(breaker().retry_seconds)


def token_client(username: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user(username=username))[1]}")
    return client


def signed_in(username: str = "compliance") -> Client:
    client = Client()
    response = signed_in_with_code(client, user(username=username), password=f"{username}-demo")
    assert response.status_code == 302, response.content
    return client


def sent_to_sign_in(client) -> bool:
    response = client.get(PAGE)
    return response.status_code == 302 and response["Location"].startswith(reverse("login"))


def api_answers(game_server, reader, stored_round: str) -> list:
    """A new round (POST /api/rounds/, rolled back so it is new each time), a stake checked, the
    stored round and the list read."""
    with transaction.atomic():
        ingest = game_server.post("/api/rounds/", round_document("deluxe-surrender-auto-play"), format="json")
        transaction.set_rollback(True)
    check = game_server.post("/api/limits/check", STAKE, format="json")
    read = reader.get(f"/api/rounds/{stored_round}/")
    listing = reader.get("/api/rounds/")
    return [answer(response) for response in (ingest, check, read, listing)]


def test_with_the_cache_stopped_the_api_answers_as_with_it_up(redis_server, clock):  # noqa: F811
    stored = round_ingest(document=round_document("deluxe-split-double-play-behind")).round.round_id
    game_server, reader = token_client("game-server"), token_client("compliance")
    up = api_answers(game_server, reader, stored)
    assert [status for status, _ in up] == [201, 200, 200, 200]
    redis_server.stop()
    assert api_answers(game_server, reader, stored) == up
    assert api_answers(game_server, reader, stored) == up  # the breaker open: the cache not asked
    back(redis_server, clock)
    assert api_answers(game_server, reader, stored) == up


def staff_answers(round_id: str) -> list:
    """Signing in (the sign-in page, then its POST), the round list and a round page."""
    client = Client()
    login_page = client.get(reverse("login"))
    sign_in = signed_in_with_code(client, user(username="compliance"), password="compliance-demo")
    pages = [reverse("rounds:round_list"), reverse("rounds:round_detail", args=[round_id])]
    return [answer(login_page), (sign_in.status_code, sign_in["Location"])] + [
        answer(client.get(page)) for page in pages
    ]


def test_with_the_cache_stopped_staff_sign_in_and_see_the_round_pages_as_with_it_up(
    redis_server,  # noqa: F811
    clock,  # noqa: F811
):
    round_id = round_ingest(document=round_document("boundless-bust-bonus-and-trios")).round.round_id
    staff_answers(round_id)  # the page caches filled
    up = staff_answers(round_id)
    assert [answer[0] for answer in up] == [200, 302, 200, 200]
    assert redis_server.client().keys("pitboss:*template.cache*")  # the pages' rows, cached
    redis_server.stop()
    assert staff_answers(round_id) == up
    back(redis_server, clock)
    assert staff_answers(round_id) == up


def test_throttles_let_requests_through_while_the_cache_is_away_and_count_again_once_back(
    settings,
    redis_server,  # noqa: F811
    clock,  # noqa: F811
):
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"game_server": "3/min", "staff": "2/min"},
    }
    game_server = token_client("game-server")
    check = "/api/limits/check"
    with twenty_seconds_into_a_minute():  # requests count by the minute
        redis_server.stop()
        assert [game_server.post(check, STAKE).status_code for _ in range(5)] == [200] * 5
        back(redis_server, clock)
        assert [game_server.post(check, STAKE).status_code for _ in range(4)] == [200, 200, 200, 429]


def test_a_session_signed_in_while_the_cache_was_away_works_once_it_is_back(redis_server, clock):  # noqa: F811
    redis_server.stop()
    client = signed_in()
    assert client.get(PAGE).status_code == 200  # its session read from the database
    back(redis_server, clock)
    assert client.get(PAGE).status_code == 200
    assert redis_server.client().keys("pitboss:*sessions.cached_db*")  # cached again


@pytest.mark.parametrize("away", ["stopped, back with its data", "frozen, then thawed"])
def test_a_sign_out_while_the_cache_was_away_holds_once_it_is_back(away, redis_server, clock):  # noqa: F811
    """The session stays in the cache (a Redis that persists, or one that froze) while the sign-out
    deletes its row; back, the cache is emptied before it is used, so its old copy is gone."""
    client = signed_in()
    assert client.get(PAGE).status_code == 200
    assert redis_server.client().keys("pitboss:*sessions.cached_db*")
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    if away.startswith("stopped"):
        redis_server.stop(keep_data=True)
    else:
        redis_server.freeze()
    assert client.get(PAGE).status_code == 200
    assert client.post(reverse("logout")).status_code == 302
    back(redis_server, clock)
    replay = Client()
    replay.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
    assert sent_to_sign_in(replay)
