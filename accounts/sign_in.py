"""Sign-in throttling, on the portal's sign-in page and the admin's (README, "Security"):

- django-axes (the AXES_* settings) locks a username at one address after
  PITBOSS_SIGN_IN_FAILURE_LIMIT failures there; this module tells it the address a sign-in counts
  against, how an attempt is named in the log, and the page a locked-out sign-in gets;
- SignInTurns, the next backend, then holds up the attempt before its password is checked while its
  address is locked or its username's wait is not over (accounts/guesses.py counts), and
  SignInRefusals answers such an attempt with the portal's page.
"""

import ipaddress
import logging
import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers

from accounts.guesses import TURN_ATTRIBUTE, SignInRefused, sign_in_refused, turn_take

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str | None:
    """The address a sign-in counts against (AXES_CLIENT_IP_CALLABLE, and SignInTurns).

    With no trusted proxies (PITBOSS_TRUSTED_PROXIES=0, the default) it is the connection's,
    REMOTE_ADDR: X-Forwarded-For is whatever the client wrote. Behind N proxies that each append the
    address they received the request from, the client is the N-th address from the right of
    X-Forwarded-For; whatever a client wrote itself stands further left. A header shorter than
    that, or an entry that is not a bare address, counts as REMOTE_ADDR.
    """
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.PITBOSS_TRUSTED_PROXIES
    if not proxies:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    if len(forwarded) < proxies:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-proxies].strip()))
    except ValueError:
        return remote


def describe_client(username, ip_address, user_agent, path_info, request) -> str:
    """An attempt as the log names it (AXES_CLIENT_STR_CALLABLE). Values are written as Python
    literals, so a username holding a line break cannot start a forged line of its own."""
    return f"username={username!r} address={ip_address!r} path={path_info!r}"


def locked_out(request: HttpRequest, response: HttpResponse, credentials: dict | None) -> HttpResponse:
    """The answer to a sign-in while its username is locked at its address (AXES_LOCKOUT_CALLABLE):
    the portal's page saying for how long and whom to ask, 429 with Retry-After. An attempt refused
    this way is not counted again (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT), so it is logged
    here."""
    username = (credentials or {}).get(get_user_model().USERNAME_FIELD)
    log.warning(
        "AXES: Sign-in refused while locked out: %s.",
        describe_client(username, client_address(request), None, request.path, request),
    )
    lockout: timedelta = settings.AXES_COOLOFF_TIME
    context = {
        "minutes": lockout // timedelta(minutes=1),
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "by_address": False,
    }
    return _refusal_page(request, "registration/locked_out.html", context, int(lockout.total_seconds()))


class SignInTurns:
    """An authentication backend, after django-axes's and before the one that checks passwords: each
    attempt takes its turn (accounts.guesses.turn_take) or is refused with SignInRefused. That
    exception is not PermissionDenied, which Django would report as a failed sign-in for
    django-axes to count: it leaves the sign-in view for SignInRefusals to answer.

    It only ever answers authenticate(), as django-axes's backend does: with a get_user() (say,
    BaseBackend's, which finds no one), a sign-in not made by authenticate() (force_login) could
    record it as the user's backend and find no one signed in on the next request."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or username is None:
            return None
        setattr(request, TURN_ATTRIBUTE, turn_take(username, client_address(request), timezone.now()))
        return None


class SignInRefusals:
    """Middleware: the answer to a sign-in SignInTurns refused, logged on one WARNING line. A locked
    address gets the lockout page; a username whose wait is not over, the page saying when to try
    again. Both 429 with Retry-After."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, SignInRefused):
            return None
        sign_in_refused.send(sender=self.__class__, request=request, refused=exception)
        wait = exception.retry_after
        attempt = describe_client(exception.username, exception.address, None, request.path, request)
        if exception.reason == "address":
            log.warning("Sign-in refused while its address is locked, %d s more: %s.", wait, attempt)
            context = {
                "minutes": math.ceil(wait / 60),
                "failure_limit": settings.PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT,
                "by_address": True,
            }
            return _refusal_page(request, "registration/locked_out.html", context, wait)
        log.warning("Sign-in delayed %d s, its password not checked: %s.", wait, attempt)
        context = {
            "minutes": wait // 60,
            "seconds": wait % 60,
            "retry_at": timezone.now() + timedelta(seconds=wait),
            "per_hour": settings.PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR,
        }
        return _refusal_page(request, "registration/sign_in_delayed.html", context, wait)


def _refusal_page(request: HttpRequest, template: str, context: dict, retry_after: int) -> HttpResponse:
    answer = render(request, template, {**context, "contact": settings.PITBOSS_SIGN_IN_CONTACT}, status=429)
    answer["Retry-After"] = str(retry_after)
    add_never_cache_headers(answer)
    return answer
