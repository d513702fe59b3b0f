"""How long an API token works: the one definition, read by authentication and `token_list`.

A member of staff's token works PITBOSS_STAFF_TOKEN_DAYS (90) from when it was made: a key left in a
script or a shell history stops working by itself. A game server's works until it is revoked, unless
PITBOSS_GAME_SERVER_TOKEN_DAYS is set (a studio rotates its keys on its own schedule:
`manage.py token_rotate`). Either way a token's own `expires_at` (the end of a rotation's grace) can
only end it sooner. Reckoned when a token is used, from the user's role now, so a changed setting
holds for every token at once, those made before it too; the role comes from the permissions a
request reads anyway (accounts.backends.access), so this costs no query.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings

from .roles import GAME_SERVER, user_role


@dataclass(frozen=True)
class Lifetime:
    days: int | None  # None: until revoked
    setting: str  # the setting that says it


def token_lifetime(user) -> Lifetime:
    if user_role(user) == GAME_SERVER:
        return Lifetime(settings.PITBOSS_GAME_SERVER_TOKEN_DAYS or None, "PITBOSS_GAME_SERVER_TOKEN_DAYS")
    return Lifetime(settings.PITBOSS_STAFF_TOKEN_DAYS, "PITBOSS_STAFF_TOKEN_DAYS")


@dataclass(frozen=True)
class TokenEnd:
    at: datetime | None  # None: works until revoked
    lifetime: Lifetime | None  # what ends it at `at`: its lifetime, or None for its own expires_at


def token_end(token) -> TokenEnd:
    """When `token` stops working: the sooner of its lifetime's end and its own `expires_at`."""
    lifetime = token_lifetime(token.user)
    ends_by_lifetime = token.created_at + timedelta(days=lifetime.days) if lifetime.days else None
    if ends_by_lifetime is not None and (token.expires_at is None or ends_by_lifetime <= token.expires_at):
        return TokenEnd(ends_by_lifetime, lifetime)
    return TokenEnd(token.expires_at, None)


def token_works(token, now) -> bool:
    return token_refusal(token, now) is None


def token_refusal(token, now) -> str | None:
    """Why `token` no longer authenticates at `now` (its 401's message), or None while it works."""
    if token.revoked_at is not None:
        return "Token revoked."
    end = token_end(token)
    if end.at is None or end.at > now:
        return None
    expired = f"Token expired at {end.at.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    if end.lifetime is not None:
        expired += f": a token of this account works {end.lifetime.days} days ({end.lifetime.setting})"
    return f"{expired}. Ask an administrator for a new one."
