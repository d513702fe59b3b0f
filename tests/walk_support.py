"""The permission walk's sign-in (tests/test_permissions.py): each role's client is signed in through
the real pages, with the password and then a TOTP code for the roles that need one, as a browser is.

Signing in takes a few requests, so each role signs in once for the walk's module, in its `world`
(a transaction kept for the module), and each test gets a new client holding that session's cookie:
whatever a test does to the session (a write's messages, a password change cycling its key) is rolled
back with the test. A session whose code would soon be stale for deciding, or which would soon be
idle too long (its last-seen time is rolled back with each test), is not used: the test signs in
afresh.

Also the sign-in pages (django-allauth's, accounts/sign_in_urls.py), which the walk's matrix leaves
out: they are for anyone, or for any signed-in user, not for roles.
"""

import re
import time

from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from tests.second_factor_support import ENROL, signed_in_with_code

# Signing in, a second factor's code at sign-in, single sign-on's pages around the provider's: public.
SIGN_IN_PAGES = {
    *("account_login", "account_logout", "account_inactive", "mfa_authenticate"),
    *("socialaccount_login_cancelled", "socialaccount_login_error", "socialaccount_signup"),
    *("openid_connect_login", "openid_connect_callback"),
}
# One's own second factor, a code or the password asked for again, one's linked provider accounts:
# for any signed-in user.
OWN_SECOND_FACTOR_PAGES = {
    *("mfa_index", "mfa_activate_totp", "mfa_deactivate_totp", "mfa_reauthenticate"),
    *("mfa_view_recovery_codes", "mfa_generate_recovery_codes", "mfa_download_recovery_codes"),
    *("account_reauthenticate", "socialaccount_connections"),
}
# Seconds a module's session is used for: well within the code's freshness and the idle limit.
REUSE_FOR = min(settings.PITBOSS_CODE_FRESH_MINUTES, 30) * 60 - 180


def signed_in_through_the_pages(person) -> Client:
    """A client signed in as `person` through the sign-in page: password, then (enrolled) a code."""
    client = Client()
    response = signed_in_with_code(client, person)
    errors = re.findall(r'class="errorlist[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    assert response.status_code == 302 and response["Location"] == "/", (person, response.status_code, errors)
    return client


class RoleSessions:
    """Each role's session, signed in through the pages once and reused while fresh."""

    def __init__(self, users: dict):
        self.users = users  # role -> user
        self.sessions = {}  # role -> (session key, signed in at, monotonic)

    def sign_in_all(self) -> None:
        for role in self.users:
            self.sessions[role] = self._signed_in(role)

    def _signed_in(self, role: str) -> tuple[str, float]:
        client = signed_in_through_the_pages(self.users[role])
        return client.cookies[settings.SESSION_COOKIE_NAME].value, time.monotonic()

    def client(self, role: str) -> APIClient:
        """A new client in `role`'s session; signed in afresh (in the test) when the module's is old."""
        key, at = self.sessions[role]
        if time.monotonic() - at > REUSE_FOR:
            # Rolled back with the test: the next test signs in again. The password again, in the
            # test's hasher (tests/conftest.py's), not the module's.
            person = self.users[role]
            person.set_password("pw-" + person.get_username())
            person.save(update_fields=["password"])
            key, _ = self._signed_in(role)
        client = APIClient()
        client.cookies[settings.SESSION_COOKIE_NAME] = key
        return client


def unenrolled_client(role_slug: str, username: str) -> Client:
    """A new user of the role, with no second factor, signed in with the password: sent to enrol."""
    from accounts.services import user_create

    person = user_create(username=username, password="pw-" + username, role=role_slug)
    client = Client()
    response = signed_in_with_code(client, person)
    assert response.status_code == 302, response.status_code
    assert client.get("/")["Location"] == ENROL, "a role that needs a second factor is sent to enrol"
    return client
