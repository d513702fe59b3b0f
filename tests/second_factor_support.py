"""The second factor in tests: each user's TOTP secret, their codes worked out from RFC 6238 apart
from django-allauth (demo.second_factor.totp_code), and signing in or giving a code through the
real pages.

A user of a role that needs a second factor is enrolled when the factories make them
(tests/factories.py, tests/api_support.py) and the demo's users are (accounts.second_factor.totp_enrol).
Their secret is worked out from their username, as the demo's are, so a test needs nothing kept to
give a code.
"""

import re
import time
from urllib.parse import urlencode

from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.second_factor import CODE_CHECKED, required_for, totp_enrol
from demo.second_factor import PERIOD, demo_secret, totp_code

LOGIN = "/accounts/login/"
CODE_AT_SIGN_IN = "/accounts/2fa/authenticate/"
CODE_AGAIN = "/accounts/2fa/reauthenticate/"
ENROL = "/accounts/2fa/totp/activate/"


def secret_of(username: str) -> str:
    """The same secret for a username in every test, and in the demo (demo.second_factor)."""
    return demo_secret(username)


def code_of(user, steps: int = 0) -> str:
    """`user`'s code now, or `steps` periods of 30 s on (negative: back)."""
    return totp_code(secret_of(user.get_username()), time.time() + steps * PERIOD)


def enrol(user):
    """`user` with a TOTP authenticator of secret_of(username); returns the user."""
    totp_enrol(user, secret_of(user.get_username()))
    return user


def enrolled_if_required(user):
    """`user` enrolled when their role needs a second factor (the default: supervisors, compliance)."""
    if (
        required_for(user)
        and not Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()
    ):
        enrol(user)
    return user


def _code_posted(client: Client, url: str, user):
    """Post `user`'s code to `url`; each code is accepted once, so the period's, then the next
    and the last one's (accepted too: MFA_TOTP_TOLERANCE) are tried until one is."""
    response = None
    for steps in (0, 1, -1):
        # A form, as a browser posts it, from an APIClient too (whose default body is JSON).
        body = urlencode({"code": code_of(user, steps)})
        response = client.post(url, body, content_type="application/x-www-form-urlencoded")
        if response.status_code == 302:
            return response
    errors = re.findall(r'class="errorlist[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    raise AssertionError(f"No code of {user} was accepted at {url}: {response.status_code} {errors}")


def signed_in_with_code(client: Client, user, password: str | None = None, **extra):
    """Sign `user` in through the pages: the password, then (enrolled) a code. The last answer."""
    password = password if password is not None else "pw-" + user.get_username()
    response = client.post(LOGIN, {"login": user.get_username(), "password": password}, **extra)
    if response.status_code == 302 and response["Location"].startswith(CODE_AT_SIGN_IN):
        response = _code_posted(client, CODE_AT_SIGN_IN, user)
    return response


def code_checked(client: Client, user) -> Client:
    """A code of `user`'s given on the page that asks for one again: the session's code is fresh
    for the decisions that need one. The client, signed in as `user`."""
    _code_posted(client, CODE_AGAIN, user)
    return client


# Each user's session whose code was checked, by (user id, date joined): a test asking for several
# deciding clients of one user gets the one session (two tabs of one browser), since only three
# codes a user are accepted in a half-minute. A test's users are new, so another test's never match.
_deciding_sessions: dict[tuple, str] = {}


def deciding_client(user, client_class=Client) -> Client:
    """A client signed in as `user` (force_login) whose code was just checked: ready to decide."""
    client = client_class()
    if not required_for(user):
        client.force_login(user)
        return client
    known = (user.pk, user.date_joined.isoformat())
    key = _deciding_sessions.get(known)
    session = Session.objects.filter(session_key=key, expire_date__gt=timezone.now()).first() if key else None
    checked = session.get_decoded().get(CODE_CHECKED) if session else None
    if checked and time.time() - checked["at"] < (settings.PITBOSS_CODE_FRESH_MINUTES - 1) * 60:
        client.cookies[settings.SESSION_COOKIE_NAME] = key
        return client
    client.force_login(user)
    code_checked(client, user)
    _deciding_sessions[known] = client.session.session_key
    return client


def secret_on_enrol_page(html: str) -> str:
    """The secret the enrolment page shows for typing into an authenticator app."""
    return re.search(r"\b([A-Z2-7]{32})\b", html).group(1)
