"""Single sign-on with an OpenID Connect provider (SOCIALACCOUNT_ADAPTER; README, "Signing in: a
second factor and single sign-on").

At each sign-in through the provider, the groups claim (PITBOSS_OIDC_GROUPS_CLAIM, in the ID token or
the userinfo) names the user's role through PITBOSS_OIDC_GROUP_ROLES: exactly one mapped group gives
the role, set on the user then (a change ends their other sessions and revokes their tokens,
accounts/session_end.py); none, or groups of two roles, refuse the sign-in with a page saying why,
counted as a failed sign-in for django-axes. A user's first sign-in makes their Pitboss account.

Their second factor is a Pitboss TOTP like anyone's (allauth asks for it after the provider), unless
the ID token's `amr` claim shows one of PITBOSS_OIDC_TRUSTED_AMR: then the provider's counts, at
sign-in and as the code checked for the decisions that need one.
"""

import logging

from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.signals import user_login_failed
from django.db import transaction
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode

from .roles import ROLE_SLUGS, roles_sync
from .second_factor import PROVIDER_SECOND_FACTOR
from .sign_in_record import REFUSAL_DETAIL

log = logging.getLogger(__name__)


def claims(sociallogin) -> dict:
    """The ID token's claims over the userinfo's (allauth keeps both in the account's extra_data)."""
    data = sociallogin.account.extra_data or {}
    if "id_token" in data or "userinfo" in data:
        return {**(data.get("userinfo") or {}), **(data.get("id_token") or {})}
    return dict(data)


def roles_of(groups) -> list[str]:
    """The distinct Pitboss roles the provider's `groups` map to, in ROLE_SLUGS order."""
    if isinstance(groups, str):
        groups = [groups]
    mapping = settings.PITBOSS_OIDC_GROUP_ROLES
    slugs = {mapping[group] for group in groups or () if group in mapping}
    return [ROLE_SLUGS[slug] for slug in ROLE_SLUGS if slug in slugs]


def provider_second_factor(user_claims: dict) -> bool:
    amr = user_claims.get("amr") or []
    if isinstance(amr, str):
        amr = [amr]
    return bool(set(amr) & set(settings.PITBOSS_OIDC_TRUSTED_AMR))


def provider_sign_in_again_url(back_to: str) -> str:
    """The provider's sign-in, asked to check the user again (prompt=login, max_age=0), then back."""
    url = reverse("openid_connect_login", kwargs={"provider_id": settings.PITBOSS_OIDC_PROVIDER_ID})
    query = {"process": "login", "next": back_to, "auth_params": "prompt=login&max_age=0"}
    return f"{url}?{urlencode(query)}"


@transaction.atomic
def role_set(user, role: str) -> None:
    """`user` in exactly `role`; nothing changes (and no session ends) when they already are."""
    current = sorted(user.groups.values_list("name", flat=True))
    if current == [role]:
        return
    group = Group.objects.filter(name=role).first()
    if group is None:
        roles_sync()
        group = Group.objects.get(name=role)
    user.groups.set([group])


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin) -> bool:
        return True  # a provider's user with a mapped group gets their account at first sign-in

    def pre_social_login(self, request, sociallogin) -> None:
        user_claims = claims(sociallogin)
        roles = roles_of(user_claims.get(settings.PITBOSS_OIDC_GROUPS_CLAIM))
        if len(roles) != 1:
            self._refuse(request, user_claims, roles)
        if provider_second_factor(user_claims):
            setattr(request, PROVIDER_SECOND_FACTOR, True)
        if sociallogin.is_existing:
            role_set(sociallogin.user, roles[0])

    def save_user(self, request, sociallogin, form=None):
        user = super().save_user(request, sociallogin, form)
        # Exactly one: pre_social_login refused any other sign-in.
        (role,) = roles_of(claims(sociallogin).get(settings.PITBOSS_OIDC_GROUPS_CLAIM))
        role_set(user, role)
        return user

    def on_authentication_error(self, request, provider, error=None, exception=None, extra_context=None):
        """The provider refused, or its answer did not check out: a failed sign-in for django-axes."""
        log.warning("Single sign-on failed: %s %s", error, exception)
        _failure_counted(request, "", f"the provider's answer failed: {error or 'unknown error'}")
        return super().on_authentication_error(request, provider, error, exception, extra_context)

    def _refuse(self, request, user_claims: dict, roles: list[str]):
        username = str(user_claims.get("preferred_username") or user_claims.get("sub") or "")
        groups = user_claims.get(settings.PITBOSS_OIDC_GROUPS_CLAIM) or []
        log.warning("Single sign-on refused for %r: groups %r give roles %r.", username, groups, roles)
        _failure_counted(request, username, "no mapped group" if not roles else "groups of two roles")
        context = {"roles": roles, "username": username, "contact": settings.PITBOSS_SIGN_IN_CONTACT}
        raise ImmediateHttpResponse(render(request, "registration/sso_refused.html", context, status=403))


def _failure_counted(request, username: str, detail: str) -> None:
    setattr(request, REFUSAL_DETAIL, detail)  # for the sign-in record
    user_login_failed.send(
        sender=__name__, credentials={get_user_model().USERNAME_FIELD: username}, request=request
    )
