"""A role change or a deactivation signs the user out everywhere (issue 53): every session of theirs
ends, deleted from the session store, and their API tokens are revoked; other users keep theirs."""

import pytest
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.roles import COMPLIANCE, CUSTOMER_SERVICE, SUPERVISOR
from accounts.services import token_create
from accounts.single_sign_on import role_set
from tests import factories

pytestmark = pytest.mark.django_db


def sessions_of(user) -> int:
    return sum(
        1 for session in Session.objects.all() if session.get_decoded().get("_auth_user_id") == str(user.pk)
    )


def two_browsers_and_a_token(user):
    browsers = []
    for _ in range(2):
        browser = Client()
        browser.force_login(user)
        assert browser.get("/").status_code == 200
        browsers.append(browser)
    _, key = token_create(user=user)
    return browsers, key


def signed_out(browser: Client) -> bool:
    answer = browser.get("/")
    return answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


def refused(key: str) -> bool:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api.get("/api/tables/").status_code == 401


def test_a_role_changed_on_the_users_side_ends_their_sessions_and_revokes_their_tokens():
    user = factories.user("supervisor")
    other = factories.user("compliance")
    (first, second), key = two_browsers_and_a_token(user)
    bystander, bystander_key = two_browsers_and_a_token(other)
    assert sessions_of(user) == 2

    user.groups.set([Group.objects.get(name=CUSTOMER_SERVICE)])

    assert sessions_of(user) == 0 and signed_out(first) and signed_out(second)
    assert refused(key) and ApiToken.objects.get(user=user).revoked_at is not None
    assert sessions_of(other) == 2 and not signed_out(bystander[0]) and not refused(bystander_key)


def test_a_role_taken_away_on_the_groups_side_does_the_same():
    user = factories.user("compliance")
    (browser, _), key = two_browsers_and_a_token(user)
    Group.objects.get(name=COMPLIANCE).user_set.remove(user)
    assert signed_out(browser) and refused(key)


def test_a_group_emptied_signs_out_its_members():
    user = factories.user("supervisor")
    (browser, _), key = two_browsers_and_a_token(user)
    Group.objects.get(name=SUPERVISOR).user_set.clear()
    assert signed_out(browser) and refused(key)


def test_deactivation_ends_the_sessions():
    user = factories.user("customer_service")
    (browser, _), key = two_browsers_and_a_token(user)
    user.is_active = False
    user.save()
    assert sessions_of(user) == 0 and signed_out(browser) and refused(key)


def test_the_same_role_set_again_ends_nothing():
    """A single sign-on sets the role at each sign-in: when it is the same, nobody is signed out."""
    user = factories.user("supervisor")
    (browser, _), key = two_browsers_and_a_token(user)
    role_set(user, SUPERVISOR)
    assert sessions_of(user) == 2 and not signed_out(browser) and not refused(key)
    role_set(user, COMPLIANCE)
    assert sessions_of(user) == 0 and signed_out(browser) and refused(key)
