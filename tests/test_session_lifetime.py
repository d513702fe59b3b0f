"""Sessions end (accounts/session_lifetime.py): after PITBOSS_SESSION_IDLE without a request, and at
the latest PITBOSS_SESSION_MAX_AGE after sign-in, whatever the session engine. The user is signed
out, and the next page sends them to sign-in with a message saying why. A page view writes the
session at most once a minute; the API without a session cookie is untouched."""

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from freezegun import freeze_time
from rest_framework.test import APIClient

from tests.factories import user
from tests.second_factor_support import signed_in_with_code

pytestmark = pytest.mark.django_db
START = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
REPO = Path(__file__).resolve().parent.parent
HOME = "/"


def sign_in(client, role="compliance"):
    person = user(role)
    response = signed_in_with_code(client, person)  # the password, then the code
    assert response.status_code == 302, response.content
    assert client.get(HOME).status_code == 200
    return person


def sent_to_sign_in(client, path: str):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={path}"
    return client.get(response["Location"]).content.decode()


def test_the_defaults_are_30_minutes_idle_and_12_hours_in_all(settings):
    assert settings.PITBOSS_SESSION_IDLE == timedelta(minutes=30)
    assert settings.PITBOSS_SESSION_MAX_AGE == timedelta(hours=12)


def test_a_session_idle_for_the_idle_period_ends(client):
    with freeze_time(START) as clock:
        sign_in(client)
        clock.tick(timedelta(minutes=29))
        assert client.get("/tables/").status_code == 200
        clock.tick(timedelta(minutes=30))
        page = sent_to_sign_in(client, "/tables/")
        assert "Your session ended after 30 minutes without activity. Sign in again." in page
        # Signed out for good: the session is gone, not merely refused once.
        assert client.get(HOME).status_code == 302
        assert not Session.objects.exists()


def test_activity_within_the_idle_period_keeps_the_session(client):
    with freeze_time(START) as clock:
        sign_in(client)
        for _ in range(8):  # four hours, a request every 29 minutes (and some seconds)
            clock.tick(timedelta(minutes=29, seconds=50))
            assert client.get(HOME).status_code == 200


def test_a_session_ends_at_most_12_hours_after_sign_in_however_busy(client):
    with freeze_time(START) as clock:
        sign_in(client)
        for _ in range(47):  # a request every quarter of an hour: 11 h 45 min
            clock.tick(timedelta(minutes=15))
            assert client.get(HOME).status_code == 200
        clock.tick(timedelta(minutes=15))
        page = sent_to_sign_in(client, "/rounds/")
        assert "Your session ended 12 hours after you signed in. Sign in again." in page


def test_signing_in_again_starts_a_new_session_of_its_own(client):
    with freeze_time(START) as clock:
        sign_in(client)
        clock.tick(timedelta(hours=12))
        sent_to_sign_in(client, HOME)
        sign_in(client)
        clock.tick(timedelta(minutes=20))
        assert client.get(HOME).status_code == 200


def test_the_limits_are_settings(client, settings):
    settings.PITBOSS_SESSION_IDLE = timedelta(minutes=5)
    settings.PITBOSS_SESSION_MAX_AGE = timedelta(hours=1)
    with freeze_time(START) as clock:
        sign_in(client)
        clock.tick(timedelta(minutes=5))
        assert "after 5 minutes without activity" in sent_to_sign_in(client, HOME)
        sign_in(client)
        for _ in range(14):
            clock.tick(timedelta(minutes=4))
            assert client.get(HOME).status_code == 200
        clock.tick(timedelta(minutes=4))
        assert "1 hour after you signed in" in sent_to_sign_in(client, HOME)


def session_writes(queries: CaptureQueriesContext) -> int:
    table = Session._meta.db_table
    return sum(
        1
        for query in queries.captured_queries
        if table in query["sql"] and query["sql"].lstrip().upper().startswith(("UPDATE", "INSERT"))
    )


def test_a_page_view_writes_the_session_at_most_once_a_minute(client):
    with freeze_time(START) as clock:
        sign_in(client)
        with CaptureQueriesContext(connection) as queries:
            for _ in range(10):
                clock.tick(timedelta(seconds=5))
                assert client.get(HOME).status_code == 200
        assert session_writes(queries) == 0  # 50 s: last seen stays as written at sign-in
        with CaptureQueriesContext(connection) as queries:
            clock.tick(timedelta(seconds=15))
            assert client.get(HOME).status_code == 200
            assert client.get(HOME).status_code == 200
        assert session_writes(queries) == 1  # a minute on: written once, by the first of the two


def test_the_api_without_a_session_is_untouched(settings):
    """A game server's requests carry no session: no session is read, made or ended for them."""
    settings.PITBOSS_SESSION_IDLE = timedelta(minutes=1)
    api = APIClient()
    api.force_authenticate(user("compliance"))
    with freeze_time(START) as clock:
        assert api.get("/api/tables/").status_code == 200
        clock.tick(timedelta(hours=13))
        response = api.get("/api/tables/")
        assert response.status_code == 200
        assert "sessionid" not in response.cookies
    assert not Session.objects.exists()


# Run in a process of its own: in this one, some test has already handled a request, which loads
# every middleware module.
STAMPED_BEFORE_ANY_REQUEST = """
import django
django.setup()
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.signals import user_logged_in
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import RequestFactory

request = RequestFactory().get("/")
request.session = SessionStore()
# Robust: the other receivers (time zone, django-axes) read a database this process does not have.
user_logged_in.send_robust(sender=AnonymousUser, request=request, user=AnonymousUser())
print(sorted(request.session.keys()))
"""


def test_a_sign_in_before_the_process_has_handled_a_request_is_stamped():
    """Client.force_login in a test, or a sign-in by a management command, can come before the
    first request: the session's sign-in time is written all the same."""
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "-c", STAMPED_BEFORE_ANY_REQUEST],
        cwd=REPO,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    # pitboss_second_factor: accounts.second_factor.signed_in's, another receiver of the signal.
    assert result.stdout.strip() == "['pitboss_second_factor', 'pitboss_seen_at', 'pitboss_signed_in_at']"
