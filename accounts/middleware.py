"""The signed-in user's time zone, on every page."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone

from core.api_path import is_api_request

from .services import preferred_time_zone
from .time_zones import SESSION_KEY, default_time_zone


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
