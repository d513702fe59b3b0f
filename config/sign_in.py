"""Sign-in throttling with django-axes (the AXES_* settings): the address a sign-in counts against,
how an attempt is named in the log, and the page a locked-out sign-in gets."""

import ipaddress
import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str | None:
    """The address a sign-in counts against (AXES_CLIENT_IP_CALLABLE).

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
    """The answer to a sign-in while its username or address is locked (AXES_LOCKOUT_CALLABLE):
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
        "contact": settings.PITBOSS_SIGN_IN_CONTACT,
    }
    answer = render(request, "registration/locked_out.html", context, status=429)
    answer["Retry-After"] = str(int(lockout.total_seconds()))
    return answer
