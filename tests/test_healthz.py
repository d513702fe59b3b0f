"""GET /healthz (portal/health.py): the database, the cache and the broker checked against the real
services; 200 naming each check, 503 naming what failed. Public, never throttled or locked out,
never stored by a browser or proxy, no database write; its verdict kept a few seconds. Beside the
verdict, never failing it: the replica, each queue's worker beat and the outbox."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.services import token_create
from outbox.models import OutboxMessage
from outbox.tasks import worker_beat_task
from portal.health import VERDICT_SECONDS, verdict
from tests.cache_support import (  # noqa: F401
    Clock,
    clock,
    free_port,
    production_cache_settings,
    redis_server,
)
from tests.factories import user

pytestmark = pytest.mark.django_db
URL = "/healthz"


# Without REPLICA_DATABASE_URL the replica is told as not configured; tests/replica covers one.
NO_REPLICA = {"configured": False, "state": "none", "lag_bytes": None}
# No worker has beaten and the outbox is empty: told, the verdict unchanged.
QUIET = {
    "worker": {"celery": {"last_beat_seconds": None}, "notifications": {"last_beat_seconds": None}},
    "outbox": {"pending": 0, "oldest_seconds": None},
}


@pytest.fixture(autouse=True)
def fresh_verdict():
    verdict.forget()
    yield
    verdict.forget()


@pytest.fixture
def own_broker(settings, redis_server):  # noqa: F811
    """A Redis broker of the test's own (another database of its Redis than the cache's)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{redis_server.port}/1"


def checked(client=None, **headers) -> tuple[int, dict, list[str]]:
    """The status, the JSON and the SQL of one request to /healthz."""
    with CaptureQueriesContext(connection) as queries:
        response = (client or Client()).get(URL, **headers)
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    assert not response.cookies
    return response.status_code, response.json(), [query["sql"] for query in queries.captured_queries]


@pytest.mark.redis_server
def test_everything_up_is_200_naming_each_check(production_cache_settings, own_broker):  # noqa: F811
    status, body, queries = checked()
    assert (status, body) == (
        200,
        {
            "status": "ok",
            "checks": {"database": "ok", "cache": "ok", "broker": "ok"},
            "replica": NO_REPLICA,
            **QUIET,
        },
    )
    assert queries[0] == "SELECT 1"
    assert len(queries) == 3  # and one each for the workers' beats and the outbox


@pytest.mark.redis_server
def test_with_the_cache_stopped_it_is_503_naming_the_cache(production_cache_settings, redis_server):  # noqa: F811
    production_cache_settings.CELERY_TASK_ALWAYS_EAGER = True
    redis_server.stop()
    status, body, _ = checked()
    assert (status, body) == (
        503,
        {
            "status": "failed",
            "checks": {"database": "ok", "cache": "failed", "broker": "eager"},
            "replica": NO_REPLICA,
            **QUIET,
        },
    )


def test_with_a_bad_broker_url_it_is_503_naming_the_broker_and_not_its_password(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = f"redis://:hunter2-secret@127.0.0.1:{free_port()}/0"  # nothing listens
    status, body, _ = checked()
    assert (status, body) == (
        503,
        {
            "status": "failed",
            "checks": {"database": "ok", "cache": "ok", "broker": "failed"},
            "replica": NO_REPLICA,
            **QUIET,
        },
    )


def test_with_celery_eager_the_broker_is_eager_and_no_failure(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_BROKER_URL = "memory://"
    status, body, _ = checked()
    assert (status, body) == (
        200,
        {
            "status": "ok",
            "checks": {"database": "ok", "cache": "ok", "broker": "eager"},
            "replica": NO_REPLICA,
            **QUIET,
        },
    )


@pytest.mark.redis_server
def test_the_verdict_is_kept_a_few_seconds(production_cache_settings, redis_server):  # noqa: F811
    settings = production_cache_settings
    settings.CELERY_TASK_ALWAYS_EAGER = True
    moved = Clock()
    verdict.clock = moved
    first = checked()
    assert first[:2] == (
        200,
        {
            "status": "ok",
            "checks": {"database": "ok", "cache": "ok", "broker": "eager"},
            "replica": NO_REPLICA,
            **QUIET,
        },
    )
    redis_server.stop()
    moved.advance(VERDICT_SECONDS - 1)
    assert checked() == (*first[:2], [])  # kept: nothing asked of the database, nor of the cache
    moved.advance(1)
    status, body, _ = checked()
    assert (status, body["checks"]["cache"]) == (503, "failed")


def test_public_read_only_never_throttled_nor_locked_out(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"game_server": "1/min", "staff": "1/min"},
    }
    address = {"REMOTE_ADDR": "203.0.113.9"}
    guesser = Client(**address)
    for attempt in range(django_settings.PITBOSS_SIGN_IN_FAILURE_LIMIT + 1):
        guesser.post(reverse("login"), {"login": "nobody", "password": f"guess-{attempt}"})
    assert guesser.post(reverse("login"), {"login": "nobody", "password": "x"}).status_code == 429
    assert checked(guesser)[0] == 200  # the locked-out address
    signed_in = Client()
    signed_in.force_login(user("supervisor"))
    assert checked(signed_in)[0] == 200
    token = token_create(user=user("game_server"))[1]
    for _ in range(3):
        verdict.forget()
        assert checked(HTTP_AUTHORIZATION=f"Token {token}")[0] == 200
    response = Client().get(URL)
    assert "Content-Security-Policy" in response
    assert Client().head(URL).status_code == 200
    for method in ("post", "put", "patch", "delete"):
        assert getattr(Client(), method)(URL).status_code == 405


def test_a_worker_beat_and_an_unsent_message_are_told_and_never_fail_it(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_BROKER_URL = "memory://"
    worker_beat_task.delay("notifications")
    message = OutboxMessage.objects.create(task="outbox.tasks.outbox_drain_task")
    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    status, body, _ = checked()
    assert (status, body["status"]) == (200, "ok")
    assert body["worker"]["celery"] == {"last_beat_seconds": None}
    assert 0 <= body["worker"]["notifications"]["last_beat_seconds"] < 300
    assert body["outbox"]["pending"] == 1
    assert 300 <= body["outbox"]["oldest_seconds"] < 3600
