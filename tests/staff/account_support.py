"""Shared by the administrators' tests (tests/staff/test_account_*.py): administrators and the
accounts they change, made through the services, and what a token's key may do."""

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from rest_framework.test import APIClient

from tests import factories

LIMIT_CHECK = "/api/limits/check"
CHECK = {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"}


def admin(username: str = "admin-a"):
    return factories.user("administrator", username)


def fresh(user):
    """The account as stored now (its permissions read again)."""
    return get_user_model().objects.get(pk=user.pk)


def sessions_of(user) -> int:
    return sum(
        1 for session in Session.objects.all() if session.get_decoded().get("_auth_user_id") == str(user.pk)
    )


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def api_status(key: str) -> int:
    """A game server's limit check with `key` (a table DLX1 and a player P1001 must exist)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.post(LIMIT_CHECK, CHECK).status_code


def reason_of(error, field: str) -> str:
    return " ".join(error.message_dict[field])
