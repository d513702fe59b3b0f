"""Small builders for tests that need users, tables and players (through the services)."""

from decimal import Decimal

from django.contrib.auth import get_user_model

from accounts.roles import ROLE_SLUGS
from accounts.services import user_create
from limits.services import player_create, table_limit_set
from tables.services import table_create

GAME_OF_CODE = {"DLX1": "deluxe", "BND1": "boundless", "CLS1": "classic", "MPB1": "multiplayer"}


def user(role: str = "supervisor", username: str | None = None):
    username = username or f"{role}-user"
    existing = get_user_model().objects.filter(username=username).first()
    return existing or user_create(username=username, password="pw-" + username, role=ROLE_SLUGS[role])


def table(code: str = "DLX1", *, game: str | None = None, currency: str = "EUR", limits=None):
    created = table_create(
        code=code,
        name=f"Table {code}",
        game=game or GAME_OF_CODE.get(code, "deluxe"),
        currency=currency,
        studio="Studio A",
        facilitator="Ana",
        created_by=user("supervisor"),
    )
    for kind, (low, high) in (limits or {"main": ("5.00", "500.00")}).items():
        table_limit_set(
            table=created,
            kind=kind,
            min_stake=Decimal(low),
            max_stake=Decimal(high),
            changed_by=user("supervisor"),
            reason="opening limits",
        )
    return created


def player(external_id: str = "P1001", *, currency: str = "EUR", account_type: str = "real"):
    return player_create(
        external_id=external_id, currency=currency, account_type=account_type, display_name="Pat"
    )
