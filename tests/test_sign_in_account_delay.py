"""The per-account delay (accounts/sign_in.py, accounts/guesses.py), through the real sign-in pages.

Issue 43: ten wrong passwords for a username from any addresses locked that user out, so 80
requests from 80 addresses locked all 8 staff users. Now wrong passwords for one account, from all
addresses together, are slowed, never locked: after the first FREE in an hour, each further attempt
waits since the last failure (WAITS, then LONGEST_WAIT), so no hour holds more than
GUESSES_PER_HOUR. A delayed attempt is refused before its password is checked (429, Retry-After,
the portal's page saying when) and is not counted. The addresses of the user's last successful
sign-ins are exempt from the delay, not from the locks (tests/test_sign_in_lockout.py).

The users are of roles that sign in with a password alone (customer service, game server): a
supervisor's or compliance user's right password is followed by a code, which waits wherever it
comes from (accounts/second_factor_forms.py), known address or not."""

import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from accounts.backends import RoleBackend
from tests.factories import user
from tests.sign_in_support import (
    ELSEWHERE,
    FREE,
    GUESSES_PER_HOUR,
    HERE,
    HOME,
    KNOWN_ADDRESSES,
    KNOWN_FOR,
    LIMIT,
    LONGEST_WAIT,
    MOST_ANY_WAIT,
    START,
    WAITS,
    delayed,
    locked_out,
    patiently,
    refused_with_the_form,
    retry_after,
    sign_in,
    signed_in,
)

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)


@pytest.fixture
def clock():
    with freeze_time(START) as frozen:
        yield frozen


def addresses(count: int, start: int = 0) -> list[str]:
    """Addresses of an attacker's many machines, none of them a user's."""
    return [f"100.64.{index // 250}.{index % 250 + 1}" for index in range(start, start + count)]


def exhaust(username: str, start: int = 0) -> None:
    """The FREE wrong passwords an hour that wait for nothing, each from another address."""
    for address in addresses(FREE, start):
        assert refused_with_the_form(sign_in(username, "wrong password", address))


def test_eighty_addresses_lock_no_one_out(clock):
    """The issue's attack: ten wrong passwords for each of 8 staff users, each from another
    address. No one is locked out: each signs in at once from their usual address, and from a new
    one after at most the delay."""
    roles = ("customer_service", "game_server")  # of a password alone (see above)
    staff = [user(role, f"{role}-{index}") for index in range(4) for role in roles]
    assert len(staff) == 8
    for person in staff:
        assert signed_in(sign_in(person.username, "pw-" + person.username, HOME))
    attacker = iter(addresses(80))
    for person in staff:
        for _ in range(10):
            response = sign_in(person.username, "wrong password", next(attacker))
            assert refused_with_the_form(response) or delayed(response)
            assert not locked_out(response)
    for person in staff:
        assert signed_in(sign_in(person.username, "pw-" + person.username, HOME))
        response = sign_in(person.username, "pw-" + person.username, ELSEWHERE)
        assert delayed(response) and retry_after(response) <= WAITS[0]
    clock.tick(timedelta(seconds=WAITS[0]))
    for person in staff:
        assert signed_in(sign_in(person.username, "pw-" + person.username, ELSEWHERE))


@pytest.mark.parametrize("username", ["customer_service-user", "no-such-user"])
def test_the_wait_grows_with_each_failure_up_to_a_cap(clock, username):
    """The same for an account and for a made-up username: the delay tells nothing of which
    usernames exist. An attempt refused meanwhile neither counts nor restarts the wait."""
    user("customer_service")
    exhaust(username)
    for index, wait in enumerate([*WAITS, LONGEST_WAIT, LONGEST_WAIT, LONGEST_WAIT]):
        address = addresses(1, 100 + index)[0]
        response = sign_in(username, "wrong password", address)
        assert delayed(response) and retry_after(response) == wait
        clock.tick(timedelta(seconds=wait - 1))
        response = sign_in(username, "wrong password", address)
        assert delayed(response) and retry_after(response) == 1
        clock.tick(timedelta(seconds=1))
        assert refused_with_the_form(sign_in(username, "wrong password", address))


@pytest.mark.parametrize("per_hour", [GUESSES_PER_HOUR, 20])
def test_no_hour_holds_more_wrong_passwords_than_the_allowance(clock, settings, per_hour):
    """A patient attacker, from a new address each time, for three hours: at most the allowance
    in any hour, and never a wait longer than a few minutes (the real user's worst)."""
    settings.PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR = per_hour
    person = user("customer_service")
    start, checked, waits = timezone.now(), [], []
    attacker = iter(addresses(1000))
    while timezone.now() < start + 3 * HOUR:
        response = sign_in(person.username, "wrong password", next(attacker))
        if delayed(response):
            waits.append(retry_after(response))
            clock.tick(timedelta(seconds=waits[-1]))
        else:
            assert refused_with_the_form(response)
            checked.append(timezone.now())
    most_in_an_hour = max(sum(1 for other in checked if first <= other < first + HOUR) for first in checked)
    assert most_in_an_hour == per_hour
    assert max(waits) <= MOST_ANY_WAIT.total_seconds()
    if per_hour == GUESSES_PER_HOUR:
        assert max(waits) == LONGEST_WAIT


def test_the_right_password_while_delayed_does_not_sign_in(clock):
    person = user("customer_service")
    password = "pw-" + person.username
    exhaust(person.username)
    response = sign_in(person.username, password, ELSEWHERE)
    assert delayed(response) and retry_after(response) == WAITS[0]
    assert "sessionid" not in response.cookies
    person.refresh_from_db()
    assert person.last_login is None
    clock.tick(timedelta(seconds=WAITS[0]))
    assert signed_in(sign_in(person.username, password, ELSEWHERE))


def test_the_delay_page_says_when_to_try_again_and_whom_to_ask(clock, settings):
    exhaust("customer_service-user")
    response = sign_in("customer_service-user", "pw-customer_service-user", ELSEWHERE)
    html = response.content.decode()
    assert response.status_code == 429 and response["Retry-After"] == str(WAITS[0])
    assert "/static/css/pitboss.css" in html and 'class="brand"' in html  # the portal's base page
    assert "Try again in 15 seconds, at 11:00:15 CET" in html  # the gaming day's time zone, named
    assert settings.PITBOSS_SIGN_IN_CONTACT in html
    assert 'name="password"' not in html


def test_a_delayed_attempt_is_logged_on_one_line_and_not_counted(clock, caplog):
    caplog.set_level(logging.WARNING)
    username = "mallory\nAXES: Successful login by admin"  # a forged second line, were it not escaped
    exhaust(username)
    caplog.clear()
    assert delayed(sign_in(username, "wrong password", HERE))
    lines = [
        record.getMessage()
        for record in caplog.records
        if record.levelno == logging.WARNING and record.name.partition(".")[0] in {"axes", "accounts"}
    ]
    assert len(lines) == 1, lines
    (line,) = lines
    assert "\n" not in line and repr(username) in line and repr(HERE) in line
    assert "delayed" in line and f"{WAITS[0]} s" in line
    clock.tick(timedelta(seconds=WAITS[0]))  # the refused attempt did not restart the wait
    assert refused_with_the_form(sign_in(username, "wrong password", HERE))


def test_the_addresses_of_recent_sign_ins_are_exempt(clock):
    person = user("customer_service")
    password = "pw-" + person.username
    assert signed_in(sign_in(person.username, password, HOME))
    exhaust(person.username)
    assert delayed(sign_in(person.username, password, ELSEWHERE))
    assert refused_with_the_form(sign_in(person.username, "a typo", HOME))  # checked, not delayed
    assert signed_in(sign_in(person.username, password, HOME))


def test_an_exempt_address_is_still_locked_after_ten_failures(clock):
    person = user("customer_service")
    password = "pw-" + person.username
    assert signed_in(sign_in(person.username, password, HOME))
    for _ in range(LIMIT - 1):  # none delayed: home is exempt
        assert refused_with_the_form(sign_in(person.username, "wrong password", HOME))
    assert locked_out(sign_in(person.username, "wrong password", HOME))
    assert locked_out(sign_in(person.username, password, HOME))
    assert signed_in(patiently(clock, person.username, password, ELSEWHERE))


def test_only_the_last_five_addresses_within_thirty_days_are_exempt(clock):
    person = user("customer_service")
    password = "pw-" + person.username
    first, *others = addresses(KNOWN_ADDRESSES + 1, 500)
    assert signed_in(sign_in(person.username, password, first))
    clock.tick(timedelta(minutes=1))
    for _ in range(KNOWN_ADDRESSES):  # five sign-ins from one address keep one of the five places
        assert signed_in(sign_in(person.username, password, HOME))
    exhaust(person.username)
    assert signed_in(sign_in(person.username, password, first))
    for address in others:
        clock.tick(timedelta(minutes=1))
        assert signed_in(patiently(clock, person.username, password, address))
    assert refused_with_the_form(patiently(clock, person.username, "wrong password", addresses(1, 600)[0]))
    assert delayed(sign_in(person.username, password, first))  # the sixth address back
    assert signed_in(sign_in(person.username, password, others[0]))
    clock.tick(KNOWN_FOR + timedelta(seconds=1))  # a month on, even the last is no longer exempt
    exhaust(person.username, 700)
    assert delayed(sign_in(person.username, password, others[-1]))


def test_without_trusted_proxies_a_forwarded_address_does_not_make_an_attempt_exempt(clock):
    person = user("customer_service")
    password = "pw-" + person.username
    assert signed_in(sign_in(person.username, password, HOME))
    exhaust(person.username)
    assert delayed(sign_in(person.username, password, ELSEWHERE, HTTP_X_FORWARDED_FOR=HOME))


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_one_exempt(clock, settings):
    settings.PITBOSS_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    person = user("customer_service")
    password = "pw-" + person.username
    assert signed_in(sign_in(person.username, password, proxy, HTTP_X_FORWARDED_FOR=HOME))
    for address in addresses(FREE):
        forwarded = f"{HOME}, {address}"  # a client may write anything in front
        assert refused_with_the_form(sign_in(person.username, "wrong", proxy, HTTP_X_FORWARDED_FOR=forwarded))
    assert delayed(sign_in(person.username, password, proxy, HTTP_X_FORWARDED_FOR=f"{HOME}, {ELSEWHERE}"))
    assert signed_in(sign_in(person.username, password, proxy, HTTP_X_FORWARDED_FOR=HOME))


def test_an_attempt_counts_before_its_password_is_checked(clock, monkeypatch):
    """Attempts in parallel, from any process, take turns: one arriving while another's password
    is being checked waits as if that one had failed, so a burst at the end of a wait gets one
    guess through, not one per request."""
    person = user("customer_service")
    exhaust(person.username)
    clock.tick(timedelta(seconds=WAITS[0]))
    check_password = RoleBackend.authenticate
    during_the_check = []

    def checked_while_another_arrives(self, request, *args, **kwargs):
        if not during_the_check:
            during_the_check.append(None)  # once: the one arriving meanwhile is not held up itself
            during_the_check[0] = sign_in(person.username, "pw-" + person.username, HOME)
        return check_password(self, request, *args, **kwargs)

    monkeypatch.setattr(RoleBackend, "authenticate", checked_while_another_arrives)
    assert refused_with_the_form(sign_in(person.username, "wrong password", ELSEWHERE))
    (parallel,) = during_the_check
    assert delayed(parallel) and retry_after(parallel) == WAITS[1]


def test_sign_in_reset_lifts_a_wait_early(clock):
    person = user("customer_service")
    exhaust(person.username)
    assert delayed(sign_in(person.username, "pw-" + person.username, ELSEWHERE))
    call_command("sign_in_reset", "--username", person.username, stdout=StringIO())
    assert signed_in(sign_in(person.username, "pw-" + person.username, ELSEWHERE))


def test_a_sign_in_without_a_password_still_finds_its_user():
    """force_login records the first backend that can find a user: never SignInTurns."""
    client = Client()
    client.force_login(user("customer_service"))
    assert client.get("/").status_code == 200
