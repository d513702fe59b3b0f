"""How long an API token works (issue 44): a member of staff's token for PITBOSS_STAFF_TOKEN_DAYS (90)
from when it was made; a game server's until it is revoked, unless PITBOSS_GAME_SERVER_TOKEN_DAYS
says otherwise; a rotation's grace can only end one sooner. An expired token is a 401 saying so and
when; a revoked one says it was revoked. Throttles still count per token (tests/test_api_throttles.py)."""

import io
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from freezegun import freeze_time
from rest_framework.test import APIClient

from accounts.services import token_create, tokens_revoke
from tests.api_support import make_table, user

pytestmark = pytest.mark.django_db
READ = "/api/tables/"  # a read every staff role but customer service may make
CHECK = "/api/limits/check"  # a game server's call
REPO = Path(__file__).resolve().parent.parent


def call(key: str, url: str = READ):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.post(url, {}, format="json") if url == CHECK else client.get(url)


@pytest.fixture
def made():
    make_table()
    return timezone.now()


@pytest.mark.parametrize("role", ["supervisor", "compliance"])
def test_a_staff_token_works_90_days_then_is_refused_saying_when_it_expired(made, role):
    token, key = token_create(user=user(role))
    made = token.created_at
    with freeze_time(made + timedelta(days=90) - timedelta(minutes=1)):
        assert call(key).status_code == 200
    with freeze_time(made + timedelta(days=90)):
        response = call(key)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    detail = response.json()["detail"]
    expired = (made + timedelta(days=90)).astimezone(timezone.UTC)
    assert f"Token expired at {expired:%Y-%m-%d %H:%M} UTC" in detail
    assert "90 days" in detail and "PITBOSS_STAFF_TOKEN_DAYS" in detail


def test_the_staff_token_lifetime_is_a_setting(made, settings):
    settings.PITBOSS_STAFF_TOKEN_DAYS = 7
    _, key = token_create(user=user("compliance"))
    with freeze_time(made + timedelta(days=6, hours=23)):
        assert call(key).status_code == 200
    with freeze_time(made + timedelta(days=7, seconds=1)):
        response = call(key)
    assert response.status_code == 401 and "7 days" in response.json()["detail"]


def test_a_game_servers_token_does_not_expire_unless_set(made, settings):
    token, key = token_create(user=user("game_server"))
    made = token.created_at
    with freeze_time(made + timedelta(days=3650)):
        assert call(key, CHECK).status_code == 400  # authenticated: the body is wrong
    settings.PITBOSS_GAME_SERVER_TOKEN_DAYS = 365
    with freeze_time(made + timedelta(days=364)):
        assert call(key, CHECK).status_code == 400
    with freeze_time(made + timedelta(days=365)):
        response = call(key, CHECK)
    assert response.status_code == 401
    assert "PITBOSS_GAME_SERVER_TOKEN_DAYS" in response.json()["detail"]


def test_a_rotations_grace_ends_a_staff_token_sooner_never_later(made):
    compliance = user("compliance")
    _, soon = token_create(user=compliance, expires_at=made + timedelta(days=2))
    _, late = token_create(user=compliance, expires_at=made + timedelta(days=200))
    with freeze_time(made + timedelta(days=3)):
        response = call(soon)
        assert response.status_code == 401
        assert "PITBOSS_STAFF_TOKEN_DAYS" not in response.json()["detail"]  # its own end, not the lifetime
        assert call(late).status_code == 200
    with freeze_time(made + timedelta(days=91)):
        assert call(late).status_code == 401


def test_a_revoked_token_says_it_was_revoked(made):
    token, key = token_create(user=user("compliance"))
    tokens_revoke(type(token).objects.filter(pk=token.pk))
    response = call(key)
    assert response.status_code == 401 and response.json()["detail"] == "Token revoked."


def test_token_list_says_until_when_each_token_works(made):
    staff, _ = token_create(user=user("compliance"), name="script")
    server, _ = token_create(user=user("game_server"), name="studio")
    out = io.StringIO()
    call_command("token_list", stdout=out)
    lines = {line.split()[0]: line for line in out.getvalue().splitlines()}
    ends = timezone.localtime(staff.created_at + timedelta(days=90), timezone.UTC)
    assert f"works until {ends:%Y-%m-%d %H:%M}" in lines["api-compliance"]
    assert lines["api-game_server"].endswith("  works")
    with freeze_time(made + timedelta(days=91)):
        out = io.StringIO()
        call_command("token_list", "api-compliance", stdout=out)
    assert f"expired {ends:%Y-%m-%d %H:%M}" in out.getvalue()


@pytest.mark.parametrize(
    ("name", "value"), [("PITBOSS_STAFF_TOKEN_DAYS", "0"), ("PITBOSS_GAME_SERVER_TOKEN_DAYS", "x")]
)
def test_a_bad_lifetime_stops_start_up_naming_it(name, value):
    result = subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=REPO,
        env={"PATH": "/usr/bin:/bin", name: value},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and name in result.stderr


def test_the_lifetime_costs_no_query_the_request_does_not_make_anyway(made):
    """The role that picks the lifetime is read with the permissions, once a request."""
    _, key = token_create(user=user("game_server"))
    call(key, CHECK)  # warm-up: content types and the like
    with CaptureQueriesContext(connection) as queries:
        assert call(key, CHECK).status_code == 400
    roles_read = [query for query in queries if "auth_group" in query["sql"]]
    assert len(roles_read) == 1
