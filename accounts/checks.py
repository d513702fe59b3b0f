"""System checks of the sign-in settings: a role named that does not exist stops start-up
(`manage.py check`, runserver, every management command); PITBOSS_OIDC_ONLY without a provider is
warned of (it then does nothing)."""

from django.conf import settings
from django.core.checks import Error, Warning, register

from .roles import GAME_SERVER, ROLE_SLUGS

# Roles a provider's group may give: people, not the game servers' machine accounts.
STAFF_SLUGS = sorted(slug for slug, role in ROLE_SLUGS.items() if role != GAME_SERVER)


@register()
def sign_in_roles(app_configs, **kwargs):
    errors = []
    unknown = [slug for slug in settings.PITBOSS_SECOND_FACTOR_ROLES if slug not in ROLE_SLUGS]
    if unknown:
        errors.append(
            Error(
                f"PITBOSS_SECOND_FACTOR_ROLES names unknown roles: {', '.join(unknown)}.",
                hint=f"Use role slugs: {', '.join(ROLE_SLUGS)}.",
                id="accounts.E001",
            )
        )
    for group, slug in settings.PITBOSS_OIDC_GROUP_ROLES.items():
        if slug not in STAFF_SLUGS:
            errors.append(
                Error(
                    f"PITBOSS_OIDC_GROUP_ROLES maps the group {group!r} to {slug!r}, not a staff role.",
                    hint=f"Map groups to: {', '.join(STAFF_SLUGS)}.",
                    id="accounts.E002",
                )
            )
    errors += _single_sign_on_errors()
    if settings.PITBOSS_OIDC_ONLY and not settings.PITBOSS_OIDC_SERVER_URL:
        errors.append(
            Warning(
                "PITBOSS_OIDC_ONLY is on, but no provider is configured (PITBOSS_OIDC_SERVER_URL): "
                "everybody still signs in with a password.",
                hint="Set PITBOSS_OIDC_SERVER_URL and the client's settings, or turn PITBOSS_OIDC_ONLY off.",
                id="accounts.W004",
            )
        )
    return errors


def _single_sign_on_errors() -> list:
    if not settings.PITBOSS_OIDC_SERVER_URL:
        return []
    (app,) = settings.SOCIALACCOUNT_PROVIDERS["openid_connect"]["APPS"]
    missing = [
        name
        for name, value in (
            ("PITBOSS_OIDC_CLIENT_ID", app["client_id"]),
            ("PITBOSS_OIDC_CLIENT_SECRET", app["secret"]),
            ("PITBOSS_OIDC_GROUP_ROLES", settings.PITBOSS_OIDC_GROUP_ROLES),
        )
        if not value
    ]
    if not missing:
        return []
    return [
        Error(
            f"PITBOSS_OIDC_SERVER_URL is set, but not {', '.join(missing)}.",
            hint="Single sign-on needs the client registered at the provider and the groups that give roles.",
            id="accounts.E003",
        )
    ]
