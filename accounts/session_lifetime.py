"""Sessions end: after settings.PITBOSS_SESSION_IDLE without a request, and at the latest
settings.PITBOSS_SESSION_MAX_AGE after sign-in.

The session itself holds when its user signed in and when they were last seen (seconds since the
epoch), so this works with any session engine. Last seen is written at most once a minute: a page
view does not write the session every request. The idle period is therefore measured to the minute,
ending up to a minute early, never late.

A request whose session has ended is signed out (django.contrib.auth.logout) and carries on as
anyone signed out: a page sends it to sign-in, where a message says why; the API answers 401. A
request without a session cookie (the API with a token) is not looked at.
"""

import time
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout

SIGNED_IN_AT = "pitboss_signed_in_at"
SEEN_AT = "pitboss_seen_at"
SEEN_EVERY = 60  # seconds


def _stamp(session, now: int) -> None:
    session[SIGNED_IN_AT] = session[SEEN_AT] = now


def session_stamp(sender, request, user, **kwargs):
    """At sign-in (user_logged_in, connected in accounts.apps): the session counts from now. Signing
    in again within a live session (the same user: login() keeps its data) starts afresh."""
    _stamp(request.session, int(time.time()))


def _duration(period: timedelta) -> str:
    minutes = int(period.total_seconds()) // 60
    hours, rest = divmod(minutes, 60)
    if hours and not rest:
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _ended(session, now: int) -> str | None:
    """Why the session has ended, or None while it lasts."""
    max_age = settings.PITBOSS_SESSION_MAX_AGE
    if now - session[SIGNED_IN_AT] >= max_age.total_seconds():
        return f"Your session ended {_duration(max_age)} after you signed in. Sign in again."
    idle = settings.PITBOSS_SESSION_IDLE
    if now - session[SEEN_AT] >= idle.total_seconds():
        return f"Your session ended after {_duration(idle)} without activity. Sign in again."
    return None


def session_lifetime(get_response):
    """Middleware, after AuthenticationMiddleware and MessageMiddleware."""

    def middleware(request):
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            session, now = request.session, int(time.time())
            if SIGNED_IN_AT not in session:  # a session from before this rule: it counts from now
                _stamp(session, now)
            elif reason := _ended(session, now):
                logout(request)
                messages.info(request, reason)
            elif now - session[SEEN_AT] >= SEEN_EVERY:
                session[SEEN_AT] = now
        return get_response(request)

    return middleware
