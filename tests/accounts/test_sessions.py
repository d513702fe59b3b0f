"""Sessions are Django's own: rows in the database (development, tests), behind the shared Redis
cache in production (Django's cached_db engine). Whichever, a session ends when its user signs
out, changes their password or is deactivated, and when it has been idle or has lasted too long
(accounts/session_lifetime.py); behind the cache it survives the cache being emptied."""

import json
import os
import secrets
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import uuid4

import pytest
import redis
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from freezegun import freeze_time

from tests.factories import user
from tests.second_factor_support import signed_in_with_code

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parent.parent.parent
DATABASE = "django.contrib.sessions.backends.db"
CACHED_DATABASE = "django.contrib.sessions.backends.cached_db"
PAGE = "/tables/"


@pytest.fixture(
    params=[
        "database",
        "database behind a local-memory cache",
        pytest.param("database behind Redis", marks=pytest.mark.redis),
    ]
)
def engine(request, settings):
    """The session engine under test (set before any client is made: a client's SessionMiddleware
    reads the engine when it first loads)."""
    if request.param == "database":
        settings.SESSION_ENGINE = DATABASE
        yield request.param
        return
    settings.SESSION_ENGINE = CACHED_DATABASE
    if request.param == "database behind a local-memory cache":
        yield request.param
        return
    # The production settings' cache: a database of the broker's server that the tests do not
    # otherwise empty, under keys of this test's own, removed afterwards.
    location = django_settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/11"
    prefix = f"test-{uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": location,
            "KEY_PREFIX": prefix,
        }
    }
    yield request.param
    server = redis.Redis.from_url(location)
    for key in server.scan_iter(f"{prefix}:*"):
        server.delete(key)


def signed_in(person, password=None) -> Client:
    client = Client()
    response = signed_in_with_code(client, person, password)  # the password, then the code
    assert response.status_code == 302, response.content
    assert client.get(PAGE).status_code == 200
    return client


def sent_to_sign_in(client) -> bool:
    response = client.get(PAGE)
    return response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_signing_out_ends_the_session(engine):
    client = signed_in(user("supervisor"))
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    client.post(reverse("logout"))
    replay = Client()
    replay.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
    assert sent_to_sign_in(replay)
    assert not Session.objects.filter(session_key=cookie).exists()


def test_a_password_change_ends_the_users_other_sessions(engine):
    person = user("supervisor")
    here, elsewhere = signed_in(person), signed_in(person)
    new = "a-New-passw0rd-for-supervisors"
    response = here.post(
        reverse("password_change"),
        {"old_password": f"pw-{person.username}", "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302, response.content
    assert here.get(PAGE).status_code == 200  # the page that changed it keeps its session
    assert sent_to_sign_in(elsewhere)
    # Set anywhere else (the admin, `changepassword`), it ends every session.
    person.refresh_from_db()
    person.set_password("yet-Another-passw0rd")
    person.save()
    assert sent_to_sign_in(here)


def test_deactivation_ends_the_session(engine):
    person = user("supervisor")
    client = signed_in(person)
    person.is_active = False
    person.save()
    assert sent_to_sign_in(client)


def test_an_idle_session_ends_and_is_gone(engine):
    with freeze_time(datetime(2026, 11, 28, 9, tzinfo=UTC)) as clock:
        client = signed_in(user("supervisor"))
        cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        clock.tick(django_settings.PITBOSS_SESSION_IDLE + timedelta(seconds=1))
        assert sent_to_sign_in(client)
        replay = Client()
        replay.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
        assert sent_to_sign_in(replay)
        assert not Session.objects.filter(session_key=cookie).exists()


def session_reads(queries: CaptureQueriesContext) -> int:
    table = Session._meta.db_table
    return sum(1 for query in queries.captured_queries if f'FROM "{table}"' in query["sql"])


def test_a_page_reads_its_session_from_the_cache_when_there_is_one(engine):
    client = signed_in(user("supervisor"))
    with CaptureQueriesContext(connection) as queries:
        assert client.get(PAGE).status_code == 200
        assert client.get(PAGE).status_code == 200
    assert session_reads(queries) == (2 if engine == "database" else 0)


def test_behind_a_cache_a_session_survives_the_cache_being_emptied(settings):
    settings.SESSION_ENGINE = CACHED_DATABASE
    client = signed_in(user("supervisor"))
    caches["default"].clear()  # local memory here: in production a Redis restart, or eviction
    with CaptureQueriesContext(connection) as queries:
        assert client.get(PAGE).status_code == 200
    assert session_reads(queries) == 1  # read from the database, and cached again
    with CaptureQueriesContext(connection) as queries:
        assert client.get(PAGE).status_code == 200
    assert session_reads(queries) == 0


SHOW_SESSIONS = """
import json
from django.conf import settings
print(json.dumps([settings.SESSION_ENGINE, settings.SESSION_CACHE_ALIAS,
                  settings.CACHES[settings.SESSION_CACHE_ALIAS]["BACKEND"]]))
"""


def settings_of(module: str, **variables: str):
    environment = {key: value for key, value in os.environ.items() if key not in ("CACHE_URL", "DEBUG")}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + SHOW_SESSIONS],
        cwd=REPO,
        env={**environment, "DJANGO_SETTINGS_MODULE": module, **variables},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_keeps_sessions_in_the_database_behind_its_redis_cache():
    assert settings_of(
        "config.settings_production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="pitboss.example.com",
        CACHE_URL="redis://127.0.0.1:6379/9",  # not connected to: loading settings opens no connection
        PITBOSS_LEDGER_KEY=secrets.token_urlsafe(50),
    ) == [CACHED_DATABASE, "default", "core.cache.ResilientRedisCache"]


def test_development_keeps_sessions_in_the_database_alone():
    """Its cache is each process's own memory: a session signed out in one process (a gunicorn
    worker) would live on in another's copy, so no cache stands in front of its sessions."""
    assert settings_of("config.settings")[:1] == [DATABASE]
