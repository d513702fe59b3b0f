"""Builders and clients for the API tests (tests/*/test_api*.py): one user per role, data through
the services, an APIClient logged in as a role."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.roles import ROLE_SLUGS
from accounts.second_factor import required_for
from accounts.services import user_create
from limits.services import personal_limit_set, player_create, table_limit_set
from tables.services import table_create
from tests.second_factor_support import deciding_client, enrolled_if_required

ROLES = tuple(ROLE_SLUGS)  # supervisor, compliance, customer_service, game_server, administrator


def user(role: str = "supervisor"):
    username = f"api-{role}"
    existing = get_user_model().objects.filter(username=username).first()
    made = existing or user_create(username=username, password="pw-" + username, role=ROLE_SLUGS[role])
    return enrolled_if_required(made)  # supervisors and compliance have a second factor


def client_as(role: str | None) -> APIClient:
    """A client logged in as `role` (None: anonymous)."""
    if role is None:
        return APIClient()
    member = user(role)
    if required_for(member):  # signed in with a code just checked, so that they may decide
        return deciding_client(member, APIClient)
    client = APIClient()
    client.force_authenticate(member)
    return client


def make_table(code="DLX1", *, game="deluxe", currency="EUR", limits=None):
    table = table_create(
        code=code,
        name=f"Table {code}",
        game=game,
        currency=currency,
        studio="Studio A",
        dealer="Ana",
        created_by=user("supervisor"),
    )
    for kind, (low, high) in (limits if limits is not None else {"main": ("5.00", "500.00")}).items():
        table_limit_set(
            table=table,
            kind=kind,
            min_stake=Decimal(low),
            max_stake=Decimal(high),
            changed_by=user("supervisor"),
            reason="opening limits",
        )
    return table


def make_player(external_id="P1001", *, currency="EUR", account_type="real"):
    return player_create(
        external_id=external_id, currency=currency, account_type=account_type, display_name="Pat"
    )


def set_personal(player, *, reason="asked by the player", **fields):
    for name in ("min_stake", "max_stake"):
        if fields.get(name) is not None:
            fields[name] = Decimal(fields[name])
    return personal_limit_set(player=player, changed_by=user("customer_service"), reason=reason, **fields)


def assert_denied(response, role):
    """Anonymous: 401 (token auth answers first, with WWW-Authenticate); a role without the
    permission: 403. Both with a message."""
    if role is None:
        assert response.status_code == 401, response.content
        assert response["WWW-Authenticate"] == "Token"
    else:
        assert response.status_code == 403, response.content
    assert response.json()["detail"]


@pytest.fixture
def roles_ready(db):
    for role in ROLES:
        user(role)
