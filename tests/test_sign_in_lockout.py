"""Sign-in throttling (django-axes, config/sign_in.py): 10 failed passwords for one username, or
from one address, within 15 minutes lock sign-in there for 15 minutes, through the real sign-in
page and the admin's."""

import logging
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from freezegun import freeze_time

from tests.factories import user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
# The issue's policy, which the settings' defaults follow (test_the_defaults_are_the_policy).
LIMIT = 10
LOCKOUT = timedelta(minutes=15)
HERE, ELSEWHERE = "192.0.2.10", "198.51.100.20"


def sign_in(username: str, password: str, address: str = HERE, url: str = LOGIN, **headers):
    return Client().post(url, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def signed_in(response) -> bool:
    return response.status_code == 302 and response["Location"] == "/"


def refused_with_the_form(response) -> bool:
    return response.status_code == 200 and 'name="password"' in response.content.decode()


def locked_out(response) -> bool:
    return response.status_code == 429 and "Sign-in locked" in response.content.decode()


def fail(username: str, times: int, address: str = HERE) -> None:
    for _ in range(times):
        assert refused_with_the_form(sign_in(username, "wrong password", address))


def test_the_defaults_are_the_policy():
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_COOLOFF_TIME == LOCKOUT
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username", "ip_address"]  # each on its own
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_wrong_passwords_for_one_user_lock_them_out_even_from_another_address():
    person = user("compliance")
    password = "pw-" + person.username
    fail(person.username, LIMIT - 1)
    assert locked_out(sign_in(person.username, "wrong password"))  # the tenth
    for _ in range(20):  # the thirty wrong passwords...
        assert locked_out(sign_in(person.username, "wrong password"))
    assert locked_out(sign_in(person.username, password))  # ...then the right one
    assert locked_out(sign_in(person.username, password, ELSEWHERE))
    assert signed_in(sign_in(user("supervisor").username, "pw-supervisor-user", ELSEWHERE))


def test_the_lockout_page_says_for_how_long_and_whom_to_ask():
    person = user("compliance")
    fail(person.username, LIMIT - 1)
    response = sign_in(person.username, "wrong password")
    html = response.content.decode()
    assert response.status_code == 429
    assert response["Retry-After"] == str(int(LOCKOUT.total_seconds()))
    assert "/static/css/pitboss.css" in html and 'class="brand"' in html  # the portal's base page
    assert f"after {LIMIT} failed sign-ins" in html
    assert f"for {LOCKOUT.seconds // 60} minutes" in html
    assert settings.PITBOSS_SIGN_IN_CONTACT in html
    assert 'name="password"' not in html


def test_failures_from_one_address_across_usernames_lock_that_address():
    person = user("supervisor")
    for index in range(LIMIT - 1):
        fail(f"guess-{index}", 1)
    assert locked_out(sign_in("guess-last", "wrong password"))
    assert locked_out(sign_in(person.username, "pw-" + person.username))
    assert signed_in(sign_in(person.username, "pw-" + person.username, ELSEWHERE))


def test_fewer_failures_than_the_limit_do_not_lock():
    person = user("compliance")
    fail(person.username, LIMIT - 1)
    assert signed_in(sign_in(person.username, "pw-" + person.username))
    assert signed_in(sign_in(person.username, "pw-" + person.username, ELSEWHERE))


def test_a_success_does_not_wipe_the_failures_counted():
    """Or anyone with an account could sign in between guesses at a colleague's password and
    start the count again."""
    insider, target = user("supervisor"), user("compliance")
    fail(target.username, LIMIT - 1)
    assert signed_in(sign_in(insider.username, "pw-" + insider.username))
    assert locked_out(sign_in(target.username, "another guess"))


def test_sign_in_works_again_after_the_lockout():
    person = user("compliance")
    password = "pw-" + person.username
    with freeze_time("2026-03-02 10:00:00") as clock:
        fail(person.username, LIMIT - 1)
        assert locked_out(sign_in(person.username, "wrong password"))
        clock.tick(LOCKOUT - timedelta(minutes=5))
        assert locked_out(sign_in(person.username, password))  # refused, and the wait not restarted
        clock.tick(timedelta(minutes=4, seconds=59))
        assert locked_out(sign_in(person.username, password))
        clock.tick(timedelta(seconds=2))
        assert signed_in(sign_in(person.username, password))


def test_an_address_is_let_in_again_after_the_lockout():
    person = user("supervisor")
    with freeze_time("2026-03-02 10:00:00") as clock:
        for index in range(LIMIT):
            sign_in(f"guess-{index}", "wrong password")
        assert locked_out(sign_in(person.username, "pw-" + person.username))
        clock.tick(LOCKOUT + timedelta(seconds=1))
        assert signed_in(sign_in(person.username, "pw-" + person.username))


# django-axes's lines, and config/sign_in.py's; django.request adds its own for the 429.
SIGN_IN_LOGGERS = {"axes", "config"}


def test_every_failure_is_logged_on_one_line_with_username_and_address(caplog):
    caplog.set_level(logging.WARNING)
    username = "mallory\nAXES: Successful login by admin"  # a forged second line, were it not escaped

    def warnings_of_one_attempt() -> list[str]:
        caplog.clear()
        sign_in(username, "wrong password")
        lines = [
            record.getMessage()
            for record in caplog.records
            if record.levelno == logging.WARNING and record.name.partition(".")[0] in SIGN_IN_LOGGERS
        ]
        assert lines and all("\n" not in line for line in lines)
        assert all(repr(username) in line and repr(HERE) in line for line in lines), lines
        return lines

    for _ in range(LIMIT - 1):
        assert len(warnings_of_one_attempt()) == 1
    assert any("Locking out" in line for line in warnings_of_one_attempt())
    (refused,) = warnings_of_one_attempt()
    assert "locked" in refused


def test_the_admin_sign_in_is_throttled_too():
    get_user_model().objects.create_superuser("boss", password="pw-boss")
    for _ in range(LIMIT - 1):
        response = sign_in("boss", "wrong password", url="/admin/login/")
        assert response.status_code == 200
    assert locked_out(sign_in("boss", "wrong password", url="/admin/login/"))
    assert locked_out(sign_in("boss", "pw-boss", url="/admin/login/"))
    assert locked_out(sign_in("boss", "pw-boss"))


def test_without_trusted_proxies_the_forwarded_address_is_ignored():
    """X-Forwarded-For is whatever the client wrote: by default the connection's address counts."""
    person = user("supervisor")
    for index in range(LIMIT):
        sign_in(f"guess-{index}", "wrong password", HERE, HTTP_X_FORWARDED_FOR=f"203.0.113.{index}")
    assert locked_out(sign_in(person.username, "pw-" + person.username, HERE))


def test_behind_a_trusted_proxy_the_address_it_forwards_counts(settings):
    settings.PITBOSS_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    person = user("supervisor")
    for index in range(LIMIT):
        # A client may write anything in front; the proxy appends the address it saw.
        forwarded = f"203.0.113.{index}, {HERE}"
        sign_in(f"guess-{index}", "wrong password", proxy, HTTP_X_FORWARDED_FOR=forwarded)
    password = "pw-" + person.username
    assert locked_out(sign_in(person.username, password, proxy, HTTP_X_FORWARDED_FOR=HERE))
    assert signed_in(sign_in(person.username, password, proxy, HTTP_X_FORWARDED_FOR=ELSEWHERE))


def test_behind_a_trusted_proxy_a_malformed_forwarded_address_falls_back_to_the_connection(settings):
    settings.PITBOSS_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    for _ in range(LIMIT):
        response = sign_in("someone", "wrong password", proxy, HTTP_X_FORWARDED_FOR="not-an-address")
        assert response.status_code in (200, 429)
    assert locked_out(sign_in(user("supervisor").username, "pw-supervisor-user", proxy))
