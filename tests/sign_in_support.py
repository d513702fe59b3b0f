"""Signing in through the real pages, from a chosen address, for the sign-in throttling tests
(tests/test_sign_in_lockout.py, tests/test_sign_in_account_delay.py).

The policy's figures, as the README's "Security" section states them and the settings default to:
- per username at one address (django-axes): LIMIT failures lock that pair for LOCKOUT;
- per address, whatever the usernames: ADDRESS_LIMIT failures within LOCKOUT lock the address;
- per account, from all addresses together: at most GUESSES_PER_HOUR wrong passwords in any hour,
  kept so by a wait after each failure beyond the first FREE (WAITS, then LONGEST_WAIT each), never
  a lock; the addresses of its last KNOWN_ADDRESSES successful sign-ins within KNOWN_FOR are exempt.

Time is frozen (the `clock` fixture of each test module); a patient attacker, or user, waits out a
delay by moving the clock on by the Retry-After the refusal gave, never by sleeping.
"""

from datetime import timedelta

from django.test import Client

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
START = "2026-03-02 10:00:00"  # UTC; 11:00 in the gaming day's time zone (Europe/Malta)

LIMIT = 10
LOCKOUT = timedelta(minutes=15)
ADDRESS_LIMIT = 30
GUESSES_PER_HOUR = 30
FREE = 5
WAITS = [15, 30, 60, 120]  # seconds, after the 5th, 6th, 7th and 8th failure in the hour
LONGEST_WAIT = 154  # seconds, after the 9th and every further one: 30 in no hour
KNOWN_ADDRESSES = 5
KNOWN_FOR = timedelta(days=30)
MOST_ANY_WAIT = timedelta(minutes=5)  # the longest a wait may be, whatever the allowance is set to

HERE, ELSEWHERE, HOME = "192.0.2.10", "198.51.100.20", "203.0.113.7"


def sign_in(username: str, password: str, address: str = HERE, url: str = LOGIN, **headers):
    return Client().post(url, {"login": username, "password": password}, REMOTE_ADDR=address, **headers)


def signed_in(response) -> bool:
    """Sent home: the admin's sign-in too, posted without a `next` (its form has one)."""
    return response.status_code == 302 and response["Location"] == "/"


def refused_with_the_form(response) -> bool:
    return response.status_code == 200 and 'name="password"' in response.content.decode()


def locked_out(response) -> bool:
    return response.status_code == 429 and "Sign-in locked" in response.content.decode()


def delayed(response) -> bool:
    return (
        response.status_code == 429
        and "Sign-in delayed" in response.content.decode()
        and int(response["Retry-After"]) > 0
    )


def retry_after(response) -> int:
    return int(response["Retry-After"])


def patiently(clock, username: str, password: str, address: str = HERE, url: str = LOGIN, **headers):
    """An attempt made again after each delay it meets, once the Retry-After given has passed."""
    response = sign_in(username, password, address, url, **headers)
    for _ in range(3):
        if not delayed(response):
            return response
        clock.tick(timedelta(seconds=retry_after(response)))
        response = sign_in(username, password, address, url, **headers)
    raise AssertionError(f"Still delayed after waiting as told: {response.status_code}")


def fail(clock, username: str, times: int, address: str = HERE, url: str = LOGIN, **headers) -> None:
    """`times` wrong passwords, each checked (and refused with the form), made patiently."""
    for _ in range(times):
        response = patiently(clock, username, "wrong password", address, url, **headers)
        assert response.status_code == 200 and 'name="password"' in response.content.decode(), response
