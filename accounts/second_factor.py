"""Who needs a second factor, and a code checked lately (README, "Signing in: a second factor and
single sign-on").

- The users of the roles PITBOSS_SECOND_FACTOR_ROLES names must have one: a TOTP authenticator of
  django-allauth's (with recovery codes), or, signed in through a provider whose `amr` claim
  PITBOSS_OIDC_TRUSTED_AMR trusts, the provider's. Until they have, every page sends them to enrol
  (`enrolment_first`) and the API refuses them.
- Deciding (approving or rejecting) a re-settlement, void or configuration change, and signing a
  report off, need a code checked within PITBOSS_CODE_FRESH_MINUTES: at sign-in or on the page that
  asks for one (allauth's reauthentication), else the page sends the user there and back
  (FreshCodeRequiredMixin); the API takes the code in the Pitboss-Code header (FreshCode).

What a session has shown is kept in it: whether its user has a second factor (read once, at sign-in)
and when its last code was checked.
"""

import time

from allauth.mfa.adapter import get_adapter as get_mfa_adapter
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import PermissionDenied, Throttled
from rest_framework.permissions import BasePermission

from .guesses import SignInRefused
from .roles import ROLE_SLUGS, user_role

# Session keys: the second factor its user has ("totp", "provider" or ""), and the last code checked.
HAS_SECOND_FACTOR = "pitboss_second_factor"
CODE_CHECKED = "pitboss_code_checked"  # {"user": "<pk>", "at": <epoch seconds>}
PROVIDER = "provider"
TOTP = "totp"
CODE_HEADER = "Pitboss-Code"
ENROL_URL_NAME = "mfa_activate_totp"
# Where a user who must enrol may still go: the enrolment itself, its recovery codes, signing out.
ENROLMENT_PATHS = ("/accounts/2fa/", "/accounts/logout/", "/accounts/reauthenticate/", "/static/")


def required_for(user) -> bool:
    """Whether `user`'s role is one that must have a second factor."""
    role = user_role(user)
    return role is not None and any(
        ROLE_SLUGS.get(slug) == role for slug in settings.PITBOSS_SECOND_FACTOR_ROLES
    )


def has_totp(user) -> bool:
    return get_mfa_adapter().is_mfa_enabled(user, [Authenticator.Type.TOTP])


def totp_enrol(user, secret: str) -> Authenticator:
    """`user`'s TOTP authenticator with the base32 `secret` they already hold (say, moved from another
    system), stored as django-allauth's documented migration stores one. People enrol on the page."""
    return Authenticator.objects.create(
        user=user, type=Authenticator.Type.TOTP, data={"secret": get_mfa_adapter().encrypt(secret)}
    )


def second_factor_remember(request: HttpRequest, user, kind: str | None = None) -> None:
    """At sign-in and enrolment: the second factor `user` has, into the session (one query unless
    `kind` is given)."""
    if request is not None and hasattr(request, "session"):
        request.session[HAS_SECOND_FACTOR] = kind if kind is not None else (TOTP if has_totp(user) else "")


def code_checked(request: HttpRequest, user) -> None:
    """A code of `user`'s was just checked on `request` (at sign-in, or asked for again)."""
    if request is not None and hasattr(request, "session"):
        request.session[CODE_CHECKED] = {"user": str(user.pk), "at": time.time()}


def code_age_seconds(request: HttpRequest) -> float | None:
    """Seconds since the session's signed-in user last had a code checked; None: never."""
    checked = request.session.get(CODE_CHECKED) if hasattr(request, "session") else None
    if not isinstance(checked, dict) or checked.get("user") != str(request.user.pk):
        return None
    return time.time() - float(checked.get("at", 0))


def code_fresh(request: HttpRequest) -> bool:
    age = code_age_seconds(request)
    return age is not None and age <= settings.PITBOSS_CODE_FRESH_MINUTES * 60


def code_needed(request: HttpRequest) -> bool:
    """Whether a decision on `request` must first have a code checked: its user must have, or has, a
    second factor, and the session's last code is older than PITBOSS_CODE_FRESH_MINUTES."""
    user = request.user
    if not (required_for(user) or request.session.get(HAS_SECOND_FACTOR)):
        return False
    return not code_fresh(request)


def code_page_url(request: HttpRequest, back_to: str) -> str:
    """Where a user is asked for a code, and sent back to `back_to` after. A user whose second factor
    is the provider's signs in there again."""
    if request.session.get(HAS_SECOND_FACTOR) == PROVIDER:
        from .single_sign_on import provider_sign_in_again_url

        return provider_sign_in_again_url(back_to)
    return f"{reverse('mfa_reauthenticate')}?{urlencode({'next': back_to})}"


class FreshCodeRequiredMixin:
    """For the pages that decide (with Django's PermissionRequiredMixin): a POST, by a user who may
    decide, with no code checked lately is not carried out; they are sent to give one, then back to
    the page the decision is made on (the view's `decision_page()`, else the same address), to
    decide again. A user who may not decide gets the view's refusal, as before."""

    def dispatch(self, request, *args, **kwargs):
        if (
            request.method == "POST"
            and request.user.is_authenticated
            and self.has_permission()
            and code_needed(request)
        ):
            minutes = settings.PITBOSS_CODE_FRESH_MINUTES
            messages.info(
                request,
                f"Deciding needs a code from your authenticator checked within the last {minutes} minutes: "
                "enter one, then decide again.",
            )
            decision_page = getattr(self, "decision_page", None)
            back_to = decision_page() if decision_page else request.get_full_path()
            return redirect(code_page_url(request, back_to))
        return super().dispatch(request, *args, **kwargs)


class FreshCode(BasePermission):
    """For the API's decisions: a session whose code is fresh, or a current code in the Pitboss-Code
    header (checked like one typed on the page: once only, and counted when wrong)."""

    def has_permission(self, request, view) -> bool:
        if not code_needed(request):
            return True
        code = request.headers.get(CODE_HEADER, "").strip()
        minutes = settings.PITBOSS_CODE_FRESH_MINUTES
        if not code:
            raise PermissionDenied(
                f"Deciding needs a code from your authenticator: send a current one in the {CODE_HEADER} "
                f"header, or sign in with one within the last {minutes} minutes.",
                code="second_factor_required",
            )
        from .second_factor_forms import code_valid

        try:
            valid = code_valid(request, request.user, code)
        except SignInRefused as refused:
            raise Throttled(wait=refused.retry_after) from refused
        if not valid:
            raise PermissionDenied(
                f"The code in {CODE_HEADER} is wrong or was used already.", code="wrong_code"
            )
        return True


# The header, as the API's schema shows it on each endpoint that decides.
CODE_HEADER_PARAMETER = OpenApiParameter(
    CODE_HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="A current code of the caller's authenticator: needed to decide with a token, or "
    "with a session whose last code is older than PITBOSS_CODE_FRESH_MINUTES (else 403). A code is "
    "accepted once.",
)


def enrolment_first(get_response):
    """Middleware: a signed-in user whose role needs a second factor and who has none yet is sent to
    enrol (the API answers 403) before anything else."""

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and not request.session.get(HAS_SECOND_FACTOR)
            and not request.path.startswith(ENROLMENT_PATHS)
            and required_for(user)
        ):
            if HAS_SECOND_FACTOR not in request.session:  # signed in before this was kept: read it once
                second_factor_remember(request, user)
            if not request.session.get(HAS_SECOND_FACTOR):
                return _enrol_first(request)
        return get_response(request)

    return middleware


def _enrol_first(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "detail": "Your role needs a second factor: sign in to the portal and set up an "
                "authenticator first.",
                "code": "second_factor_enrolment",
            },
            status=403,
        )
    return redirect(reverse(ENROL_URL_NAME))


# Set on the request by a single sign-on whose provider's `amr` claim shows a second factor
# (accounts/single_sign_on.py), for the sign-in that follows on the same request.
PROVIDER_SECOND_FACTOR = "pitboss_provider_second_factor"


def signed_in(sender, request, user, **kwargs) -> None:
    """user_logged_in: what second factor the session's user has; the provider's counts as a code."""
    if getattr(request, PROVIDER_SECOND_FACTOR, False):
        second_factor_remember(request, user, PROVIDER)
        code_checked(request, user)
    else:
        second_factor_remember(request, user)


def step_completed(sender, request, user, method, **kwargs) -> None:
    """allauth's authentication_step_completed: a code checked (at sign-in, or asked for again)."""
    if method == "mfa":
        code_checked(request, user)


def authenticator_removed(sender, request, user, authenticator, **kwargs) -> None:
    if request is not None:
        second_factor_remember(request, user)


def connect() -> None:
    from allauth.account.signals import authentication_step_completed
    from allauth.mfa import signals as mfa_signals
    from django.contrib.auth.signals import user_logged_in

    user_logged_in.connect(signed_in, dispatch_uid="accounts_second_factor_signed_in")
    authentication_step_completed.connect(step_completed, dispatch_uid="accounts_second_factor_step")
    mfa_signals.authenticator_removed.connect(
        authenticator_removed, dispatch_uid="accounts_second_factor_removed"
    )
