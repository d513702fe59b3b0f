"""The sign-in record (accounts/sign_in_record.py) from real sign-ins through the pages: each success,
failure, lockout and wrong code written once, with its method, second factor, address and gaming day;
and the API tokens' uses by day, written with the token's once-a-minute last use, never a request."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from freezegun import freeze_time
from rest_framework.test import APIClient

from accounts.models import ApiToken, SignInEvent, TokenUse
from accounts.roles import COMPLIANCE, CUSTOMER_SERVICE, GAME_SERVER, SUPERVISOR
from accounts.services import token_create, user_create
from core.gaming_day import gaming_day_of
from demo.second_factor import totp_code
from tests.second_factor_support import (
    CODE_AT_SIGN_IN,
    ENROL,
    LOGIN,
    code_of,
    enrol,
    secret_on_enrol_page,
    signed_in_with_code,
)

pytestmark = pytest.mark.django_db

HERE, ELSEWHERE = "192.0.2.10", "198.51.100.20"
RECOVERY = "/accounts/2fa/recovery-codes/"
CHECK = "/api/limits/check"


def person(role: str, username: str = "pat"):
    return user_create(username=username, password="pw-" + username, role=role)


def browser(address: str = HERE) -> Client:
    return Client(REMOTE_ADDR=address)


def password_given(client: Client, username: str, password: str | None = None):
    return client.post(LOGIN, {"login": username, "password": password or "pw-" + username})


def events() -> list[tuple]:
    return list(
        SignInEvent.objects.order_by("id").values_list(
            "kind", "username", "method", "second_factor", "detail"
        )
    )


def wrong_code(user) -> str:
    return next(code for code in ("000000", "111111") if code not in {code_of(user, s) for s in (-1, 0, 1)})


def test_a_password_sign_in_is_one_success_with_its_address_and_gaming_day():
    pat = person(CUSTOMER_SERVICE)

    assert password_given(browser(), "pat")["Location"] == "/"

    (event,) = SignInEvent.objects.all()
    assert (event.kind, event.username, event.user, event.address) == ("success", "pat", pat, HERE)
    assert (event.method, event.second_factor, event.detail) == ("password", "", "")
    assert event.day == gaming_day_of(event.at)
    assert (event.break_glass, event.provider_answered) == (False, None)


def test_a_sign_in_with_a_code_is_written_once_the_code_is_right():
    pat = enrol(person(COMPLIANCE))
    client = browser()
    assert password_given(client, "pat")["Location"].startswith(CODE_AT_SIGN_IN)
    assert events() == []  # the password alone signs no one in

    assert signed_in_with_code(browser(), pat)["Location"] == "/"

    assert events() == [("success", "pat", "password", "totp", "")]


def test_a_recovery_code_sign_in_says_so():
    person(SUPERVISOR)
    client = browser()
    password_given(client, "pat")  # not enrolled yet: signed in, then sent to enrol
    secret = secret_on_enrol_page(client.get(ENROL).content.decode())
    client.post(ENROL, {"code": totp_code(secret)})
    codes = re.findall(r"\b\d{8}\b", client.get(RECOVERY).content.decode())

    elsewhere = browser(ELSEWHERE)
    password_given(elsewhere, "pat")
    assert elsewhere.post(CODE_AT_SIGN_IN, {"code": codes[0]})["Location"] == "/"

    assert events() == [
        ("success", "pat", "password", "", ""),
        ("success", "pat", "password", "recovery_codes", ""),
    ]
    assert SignInEvent.objects.order_by("id").last().address == ELSEWHERE


def test_a_wrong_password_and_an_unknown_username_are_one_failure_each():
    person(CUSTOMER_SERVICE)
    client = browser()

    assert password_given(client, "pat", "not it").status_code == 200
    assert password_given(client, "nobody", "not it").status_code == 200

    assert events() == [
        ("failure", "pat", "password", "", "wrong password"),
        ("failure", "nobody", "password", "", "unknown username"),
    ]
    assert SignInEvent.objects.get(username="nobody").user is None


def test_a_wrong_code_is_one_second_factor_failure_not_also_a_failure():
    pat = enrol(person(COMPLIANCE))
    client = browser()
    password_given(client, "pat")

    refused = client.post(CODE_AT_SIGN_IN, {"code": wrong_code(pat)})

    assert refused.status_code == 200 and "Incorrect code" in refused.content.decode()
    assert events() == [("second_factor_failure", "pat", "password", "", "wrong code at sign-in")]
    assert client.post(CODE_AT_SIGN_IN, {"code": code_of(pat)})["Location"] == "/"
    assert [kind for kind, *_ in events()] == ["second_factor_failure", "success"]


def test_a_username_locked_at_an_address_is_a_lockout_and_each_refusal_one_more(settings):
    settings.AXES_FAILURE_LIMIT = 3
    person(CUSTOMER_SERVICE)
    client = browser()
    for _ in range(3):
        password_given(client, "pat", "not it")

    refused = password_given(client, "pat")  # the right password, refused while locked

    assert refused.status_code == 429
    assert events() == [
        ("failure", "pat", "password", "", "wrong password"),
        ("failure", "pat", "password", "", "wrong password"),
        ("lockout", "pat", "", "", "username locked at this address after 3 failures"),
        ("failure", "pat", "password", "", "wrong password"),
        ("lockout", "pat", "", "", "refused: username locked at this address"),
    ]


def test_an_address_lock_and_a_username_wait_are_lockouts(settings):
    settings.PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT = 3
    for name in ("ann", "bob", "cy"):
        password_given(browser(), name, "not it")
    assert password_given(browser(), "dee", "not it").status_code == 429

    for number in range(5):  # five wrong passwords wait for nothing; the sixth waits
        password_given(browser(f"203.0.113.{number + 1}"), "eve", "not it")
    assert password_given(browser("203.0.113.9"), "eve", "not it").status_code == 429

    lockouts = SignInEvent.objects.filter(kind="lockout").order_by("id")
    assert [(event.username, event.address) for event in lockouts] == [("dee", HERE), ("eve", "203.0.113.9")]
    assert lockouts[0].detail.startswith("address locked, ") and "password not checked" in lockouts[0].detail
    assert lockouts[1].detail.startswith("delayed ") and "the username's wait" in lockouts[1].detail
    assert SignInEvent.objects.filter(kind="failure").count() == 8


def call(key: str, address: str):
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.post(CHECK, {}, format="json")


def test_token_uses_are_written_once_a_minute_a_token_by_gaming_day_and_address():
    server = person(GAME_SERVER, "dealer-box")
    token, key = token_create(user=server, name="studio A")
    start = "2026-03-02 04:58:30"  # UTC: 05:58:30 in Malta, a minute and a half before the day's cut-off
    with freeze_time(start) as clock:
        for _ in range(5):
            assert call(key, HERE).status_code != 401
        assert TokenUse.objects.count() == 1 and TokenUse.objects.get().minutes == 1  # not a row a request
        clock.tick(timedelta(seconds=30))
        call(key, ELSEWHERE)  # the same minute as the last write: not written
        clock.tick(timedelta(seconds=31))
        call(key, ELSEWHERE)  # 05:59:31 in Malta
        call(key, HERE)
        clock.tick(timedelta(seconds=60))
        call(key, HERE)  # 06:00:31: the next gaming day

    uses = {(use.day.isoformat(), use.address): use for use in TokenUse.objects.all()}
    assert {key: use.minutes for key, use in uses.items()} == {
        ("2026-03-01", HERE): 1,
        ("2026-03-01", ELSEWHERE): 1,
        ("2026-03-02", HERE): 1,
    }
    first = uses["2026-03-01", HERE]
    assert first.first_at == first.last_at == datetime(2026, 3, 2, 4, 58, 30, tzinfo=UTC)
    token.refresh_from_db()
    assert token.last_used_at == uses["2026-03-02", HERE].last_at


def test_a_tokens_minutes_add_up_on_its_day_and_address():
    token, key = token_create(user=person(GAME_SERVER, "dealer-box"))
    with freeze_time("2026-03-02 10:00:00") as clock:
        for _ in range(3):
            call(key, HERE)
            call(key, HERE)
            clock.tick(timedelta(seconds=61))

    (use,) = TokenUse.objects.all()
    assert (use.token, use.address, use.minutes) == (token, HERE, 3)
    assert use.last_at - use.first_at == timedelta(seconds=122)
    assert ApiToken.objects.get().last_used_at == use.last_at
