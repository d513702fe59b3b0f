"""Signing in while the identity provider is down (README, "Signing in: a second factor and single
sign-on").

With single sign-on configured (PITBOSS_OIDC_SERVER_URL), an administrator who signs in with their
local password, not through the provider, is signing in "break-glass": the sign-in record flags it
(accounts/sign_in_record.py) with whether the provider's discovery document answered at that moment
(within PITBOSS_BREAK_GLASS_PROBE_SECONDS), and compliance reviews it. With PITBOSS_OIDC_ONLY on,
everybody else must sign in through the provider: their right password is refused on the sign-in
form (accounts.sign_in_pages.AccountAdapter.authenticate).
"""

import logging

import requests
from django.conf import settings

from .roles import ADMINISTRATOR, user_role

log = logging.getLogger(__name__)

WELL_KNOWN = ".well-known/openid-configuration"
DEFAULT_PROVIDER_NAME = "the identity provider"


def provider_configured() -> bool:
    return bool(settings.PITBOSS_OIDC_SERVER_URL)


def provider_name() -> str:
    """The provider as the sign-in page's button names it (PITBOSS_OIDC_NAME)."""
    apps = settings.SOCIALACCOUNT_PROVIDERS.get("openid_connect", {}).get("APPS") or []
    return (apps[0].get("name") if apps else None) or DEFAULT_PROVIDER_NAME


def discovery_url() -> str:
    """The provider's discovery document: the server URL's, or the URL itself when it names it (as
    django-allauth reads `server_url`)."""
    url = settings.PITBOSS_OIDC_SERVER_URL
    return url if WELL_KNOWN in url else f"{url.rstrip('/')}/{WELL_KNOWN}"


def provider_answers() -> bool:
    """Whether the provider's discovery document answers now: a JSON document naming its issuer,
    each of the connection and the answer within PITBOSS_BREAK_GLASS_PROBE_SECONDS."""
    try:
        answer = requests.get(
            discovery_url(), timeout=settings.PITBOSS_BREAK_GLASS_PROBE_SECONDS, allow_redirects=False
        )
        return answer.status_code == 200 and bool(answer.json().get("issuer"))
    except (requests.RequestException, ValueError, AttributeError) as error:
        log.warning("Break-glass sign-in: the identity provider did not answer: %s", error)
        return False


def is_administrator(user) -> bool:
    return user_role(user) == ADMINISTRATOR


def is_break_glass(user, *, through_provider: bool) -> bool:
    """A sign-in of `user` is break-glass: an administrator's, with a local password, while a
    provider is configured."""
    return provider_configured() and not through_provider and is_administrator(user)


def password_refusal(user) -> str | None:
    """Why `user` may not sign in with their password (PITBOSS_OIDC_ONLY with a provider, and not an
    administrator), as the sign-in form says it; None: they may."""
    if not (settings.PITBOSS_OIDC_ONLY and provider_configured()) or is_administrator(user):
        return None
    name = provider_name()
    return (
        f"Passwords are not used to sign in here: use the “Log in with {name}” button below. "
        f"Ask {settings.PITBOSS_SIGN_IN_CONTACT} if {name} does not let you in."
    )
