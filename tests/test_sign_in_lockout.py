"""Sign-in locks (django-axes and accounts/sign_in.py), through the real sign-in page and the admin's:
10 failed passwords for one username from one address, each within 15 minutes of the one before,
lock that username at that address only for 15 minutes (issue 43: wrong passwords from elsewhere
lock no one out); 30 failures from one address within 15 minutes, whatever the usernames, lock
that address. The per-account delay (tests/test_sign_in_account_delay.py) slows the failures
made here; `fail` waits it out, as a patient attacker would, so the locks are reached all the same.

The users are of roles that sign in with a password alone (customer service, game server): for the
others a right password is followed by a code, whose turns are taken wherever it comes from
(accounts/second_factor_forms.py), so "signed in" would mean another thing."""

import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from freezegun import freeze_time

from tests.factories import user
from tests.sign_in_support import (
    ADDRESS_LIMIT,
    ADMIN_LOGIN,
    ELSEWHERE,
    GUESSES_PER_HOUR,
    HERE,
    LIMIT,
    LOCKOUT,
    LOGIN,
    MOST_ANY_WAIT,
    START,
    fail,
    locked_out,
    patiently,
    refused_with_the_form,
    sign_in,
    signed_in,
)

pytestmark = pytest.mark.django_db

NEW_ADDRESS = "198.51.100.99"


@pytest.fixture
def clock():
    with freeze_time(START) as frozen:
        yield frozen


def test_the_defaults_are_the_policy():
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_COOLOFF_TIME == LOCKOUT
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]  # the pair, never one alone
    assert settings.PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT == ADDRESS_LIMIT
    assert settings.PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR == GUESSES_PER_HOUR
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_failures_for_one_user_from_one_address_lock_that_pair_only(clock):
    person, other = user("customer_service"), user("game_server")
    password = "pw-" + person.username
    assert signed_in(sign_in(person.username, password, ELSEWHERE))  # their usual address
    fail(clock, person.username, LIMIT - 1)
    assert locked_out(patiently(clock, person.username, "wrong password"))  # the tenth
    for _ in range(20):  # the thirty wrong passwords...
        assert locked_out(sign_in(person.username, "wrong password"))
    assert locked_out(sign_in(person.username, password))  # ...then the right one
    assert signed_in(sign_in(person.username, password, ELSEWHERE))  # at once from elsewhere
    assert signed_in(patiently(clock, person.username, password, NEW_ADDRESS))  # after the delay
    assert signed_in(sign_in(other.username, "pw-" + other.username))  # another user from here


def test_the_lockout_page_says_for_how_long_and_whom_to_ask(clock):
    person = user("customer_service")
    fail(clock, person.username, LIMIT - 1)
    response = patiently(clock, person.username, "wrong password")
    html = response.content.decode()
    assert response.status_code == 429
    assert response["Retry-After"] == str(int(LOCKOUT.total_seconds()))
    assert "/static/css/pitboss.css" in html and 'class="brand"' in html  # the portal's base page
    assert f"after {LIMIT} failed sign-ins with this username from this address" in html
    assert f"for {LOCKOUT.seconds // 60} minutes" in html
    assert settings.PITBOSS_SIGN_IN_CONTACT in html
    assert 'name="password"' not in html


def test_failures_from_one_address_across_usernames_lock_that_address(clock):
    person = user("game_server")
    password = "pw-" + person.username
    for index in range(LIMIT):
        fail(clock, f"guess-{index}", 1)
    assert signed_in(sign_in(person.username, password))  # ten are no lock of the address
    for index in range(LIMIT, ADDRESS_LIMIT):
        fail(clock, f"guess-{index}", 1)
    response = sign_in("guess-last", "wrong password")
    assert locked_out(response)
    assert f"after {ADDRESS_LIMIT} failed sign-ins from this address" in response.content.decode()
    assert int(response["Retry-After"]) <= LOCKOUT.total_seconds()
    assert locked_out(sign_in(person.username, password))
    assert signed_in(sign_in(person.username, password, ELSEWHERE))


def test_fewer_failures_than_the_limit_do_not_lock(clock):
    person = user("customer_service")
    fail(clock, person.username, LIMIT - 1)
    assert signed_in(patiently(clock, person.username, "pw-" + person.username))
    assert signed_in(patiently(clock, person.username, "pw-" + person.username, ELSEWHERE))


def test_a_success_does_not_wipe_the_failures_counted(clock):
    """Or anyone with an account could sign in between guesses at a colleague's password and
    start the count again."""
    insider, target = user("game_server"), user("customer_service")
    fail(clock, target.username, LIMIT - 1)
    assert signed_in(sign_in(insider.username, "pw-" + insider.username))
    assert locked_out(patiently(clock, target.username, "another guess"))


def test_sign_in_works_again_after_the_lockout(clock):
    person = user("customer_service")
    password = "pw-" + person.username
    fail(clock, person.username, LIMIT - 1)
    assert locked_out(patiently(clock, person.username, "wrong password"))
    clock.tick(LOCKOUT - timedelta(minutes=5))
    assert locked_out(sign_in(person.username, password))  # refused, and the wait not restarted
    clock.tick(timedelta(minutes=4, seconds=59))
    assert locked_out(sign_in(person.username, password))
    clock.tick(timedelta(seconds=2))
    assert signed_in(sign_in(person.username, password))


def test_an_address_is_let_in_again_after_the_lockout(clock):
    person = user("game_server")
    for index in range(ADDRESS_LIMIT):
        sign_in(f"guess-{index}", "wrong password")
    assert locked_out(sign_in(person.username, "pw-" + person.username))
    clock.tick(LOCKOUT - timedelta(seconds=1))
    assert locked_out(sign_in(person.username, "pw-" + person.username))
    clock.tick(timedelta(seconds=2))
    assert signed_in(sign_in(person.username, "pw-" + person.username))


# django-axes's lines, and accounts/sign_in.py's; django.request adds its own for the 429.
SIGN_IN_LOGGERS = {"axes", "accounts"}


def test_every_failure_is_logged_on_one_line_with_username_and_address(clock, caplog):
    caplog.set_level(logging.WARNING)
    username = "mallory\nAXES: Successful login by admin"  # a forged second line, were it not escaped

    def warnings_of_one_attempt() -> list[str]:
        clock.tick(MOST_ANY_WAIT)  # past any delay: each attempt here has its password checked
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


def test_the_admin_signs_in_through_the_portal_and_its_throttling(clock):
    """The admin's own sign-in takes no password (allauth's secure_admin_login): it sends to the
    portal's, where the locks hold and the second factor is asked."""
    get_user_model().objects.create_superuser("boss", password="pw-boss")
    response = sign_in("boss", "pw-boss", url=ADMIN_LOGIN)
    assert response.status_code == 302 and response["Location"].startswith(LOGIN + "?next=")
    for _ in range(LIMIT - 1):
        assert refused_with_the_form(patiently(clock, "boss", "wrong password"))
    assert locked_out(patiently(clock, "boss", "wrong password"))
    assert locked_out(sign_in("boss", "pw-boss"))


def test_without_trusted_proxies_the_forwarded_address_is_ignored(clock):
    """X-Forwarded-For is whatever the client wrote: by default the connection's address counts."""
    person = user("game_server")
    for index in range(ADDRESS_LIMIT):
        sign_in(f"guess-{index}", "wrong password", HERE, HTTP_X_FORWARDED_FOR=f"203.0.113.{index}")
    assert locked_out(sign_in(person.username, "pw-" + person.username, HERE))


def test_behind_a_trusted_proxy_the_address_it_forwards_counts(clock, settings):
    settings.PITBOSS_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    person = user("game_server")
    for index in range(ADDRESS_LIMIT):
        # A client may write anything in front; the proxy appends the address it saw.
        forwarded = f"203.0.113.{index}, {HERE}"
        sign_in(f"guess-{index}", "wrong password", proxy, HTTP_X_FORWARDED_FOR=forwarded)
    password = "pw-" + person.username
    assert locked_out(sign_in(person.username, password, proxy, HTTP_X_FORWARDED_FOR=HERE))
    assert signed_in(sign_in(person.username, password, proxy, HTTP_X_FORWARDED_FOR=ELSEWHERE))


def test_behind_a_trusted_proxy_a_malformed_forwarded_address_falls_back_to_the_connection(clock, settings):
    settings.PITBOSS_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    for index in range(ADDRESS_LIMIT):
        response = sign_in(f"guess-{index}", "wrong password", proxy, HTTP_X_FORWARDED_FOR="not-an-address")
        assert response.status_code in (200, 429)
    assert locked_out(sign_in(user("game_server").username, "pw-game_server-user", proxy))


def test_sign_in_reset_lifts_the_locks_of_a_username_or_an_address_early(clock):
    person, other = user("customer_service"), user("game_server")
    password = "pw-" + person.username
    fail(clock, person.username, LIMIT - 1)
    assert locked_out(patiently(clock, person.username, "wrong password"))
    out = StringIO()
    call_command("sign_in_reset", "--username", person.username, stdout=out)
    said = f"{person.username}: {LIMIT} wrong passwords forgotten, 1 django-axes record reset"
    assert said in out.getvalue()
    assert signed_in(sign_in(person.username, password))  # the lock and the wait both lifted
    for index in range(ADDRESS_LIMIT):
        sign_in(f"guess-{index}", "wrong password")
    assert locked_out(sign_in(other.username, "pw-" + other.username))
    call_command("sign_in_reset", "--address", HERE, stdout=StringIO())
    assert signed_in(sign_in(other.username, "pw-" + other.username))


def test_sign_in_reset_names_what_to_reset():
    with pytest.raises(CommandError, match="at least one"):
        call_command("sign_in_reset")
    with pytest.raises(CommandError, match="not an IP address"):
        call_command("sign_in_reset", "--address", "not-an-address")


@pytest.mark.parametrize("command", ["axes_reset_username", "axes_reset_ip_username", "axes_reset"])
def test_django_axes_commands_still_lift_the_lock_of_a_username_at_an_address(clock, command):
    """They lift django-axes's lock only: the username's wait, if any, is still waited out."""
    person = user("customer_service")
    password = "pw-" + person.username
    fail(clock, person.username, LIMIT - 1)
    assert locked_out(patiently(clock, person.username, "wrong password"))
    arguments = {"axes_reset_username": [person.username], "axes_reset_ip_username": [HERE, person.username]}
    call_command(command, *arguments.get(command, []), stdout=StringIO())
    assert signed_in(patiently(clock, person.username, password))
