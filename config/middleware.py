"""The project's own middleware."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import Http404
from django.utils import timezone

from accounts.services import preferred_time_zone
from accounts.time_zones import SESSION_KEY, default_time_zone
from config.api_path import is_api_request


def refuse_nul_in_path(get_response):
    """A URL with a NUL character (%00) names nothing: 404 (JSON under /api/), before a view takes
    it to the database, which cannot even compare it (PostgreSQL refuses NUL in text)."""

    def middleware(request):
        if "\x00" in request.path:
            raise Http404("No URL holds a NUL character.")
        return get_response(request)

    return middleware


def request_time_zone(request) -> ZoneInfo:
    """The signed-in user's time zone, from their session (put there at sign-in and when they change
    it: accounts.services); read once from the database for a session from before that. Before
    sign-in, the gaming day's."""
    name = request.session.get(SESSION_KEY)
    if name is None and request.user.is_authenticated:
        name = request.session[SESSION_KEY] = preferred_time_zone(request.user)
    try:
        return ZoneInfo(name or default_time_zone())
    except (ZoneInfoNotFoundError, ValueError):  # a name a newer zoneinfo database no longer knows
        return ZoneInfo(default_time_zone())


def user_time_zone(get_response):
    """Middleware, after AuthenticationMiddleware: a page's times are shown, and the times typed in
    its forms read, in the user's time zone (django.utils.timezone.activate); the API stays in UTC."""

    def middleware(request):
        # The API reads and writes times in UTC (ISO 8601 with their offset), whoever asks.
        if is_api_request(request):
            return get_response(request)
        timezone.activate(request_time_zone(request))
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware
