"""API throttling (accounts/throttles.py): a game server's requests counted per token, everyone
else's per token or per user, each at its rate in settings; beyond it, 429 with Retry-After."""

from datetime import timedelta
from uuid import uuid4

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from accounts.services import token_create
from tests.api_support import make_player, make_table, user
from tests.minute_support import twenty_seconds_into_a_minute

pytestmark = pytest.mark.django_db
CHECK = "/api/limits/check"
STAKE = {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"}


@pytest.fixture(autouse=True)
def small_rates(settings):
    """Rates small enough to reach; the throttles read them from settings on each request."""
    cache.clear()
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"game_server": "3/min", "staff": "2/min"},
    }
    make_table()
    make_player()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def clock():
    """20 seconds into a minute: requests are counted by the minute."""
    with twenty_seconds_into_a_minute() as frozen:
        yield frozen


def token_client(role: str, name: str = "") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user(role), name=name)[1]}")
    return client


def session_client(role: str) -> APIClient:
    client = APIClient()
    client.force_login(user(role))
    return client


def test_beyond_its_rate_a_game_server_gets_429_with_retry_after():
    game_server = token_client("game_server")
    assert [game_server.post(CHECK, STAKE).status_code for _ in range(3)] == [200, 200, 200]
    response = game_server.post(CHECK, STAKE)
    assert response.status_code == 429
    assert response["Retry-After"] == "40"  # seconds to the next minute
    assert response.json()["detail"]


def test_after_retry_after_the_requests_are_answered_again(clock):
    game_server = token_client("game_server")
    assert [game_server.post(CHECK, STAKE).status_code for _ in range(4)] == [200, 200, 200, 429]
    clock.tick(timedelta(seconds=39))
    assert game_server.post(CHECK, STAKE).status_code == 429
    clock.tick(timedelta(seconds=1))
    assert game_server.post(CHECK, STAKE).status_code == 200


def test_each_token_has_its_own_allowance():
    """During a rotation's grace period the old and the new token of one game server each count."""
    old, new = token_client("game_server", "old"), token_client("game_server", "new")
    assert [old.post(CHECK, STAKE).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert new.post(CHECK, STAKE).status_code == 200


def test_staff_are_counted_per_user_at_their_own_rate():
    supervisor = session_client("supervisor")
    assert [supervisor.get("/api/tables/").status_code for _ in range(3)] == [200, 200, 429]
    assert session_client("compliance").get("/api/tables/").status_code == 200


def test_a_staff_token_counts_at_the_staff_rate():
    compliance = token_client("compliance")
    assert [compliance.get("/api/tables/").status_code for _ in range(3)] == [200, 200, 429]


@pytest.mark.redis
def test_counted_in_redis_as_in_production():
    """The production settings' cache: Redis, shared by every process (a database of the broker's
    server that the tests do not otherwise use, under keys of this test's own)."""
    server = django_settings.CELERY_BROKER_URL.rsplit("/", 1)[0]
    redis_cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": f"{server}/11"}
    with override_settings(CACHES={"default": {**redis_cache, "KEY_PREFIX": f"test-{uuid4().hex}"}}):
        game_server = token_client("game_server")
        assert [game_server.post(CHECK, STAKE).status_code for _ in range(4)] == [200, 200, 200, 429]
