"""API throttles (REST_FRAMEWORK's DEFAULT_THROTTLE_CLASSES): a game server's requests count at the
`game_server` rate, everyone else's at the `staff` rate (DEFAULT_THROTTLE_RATES). Each token counts
on its own, so the old and the new token of a rotation each have the full rate; a request signed in
by session counts for its user. Beyond the rate DRF answers 429 with Retry-After.

Requests are counted in fixed windows of the rate's period (a minute) by the cache's `incr`
(core.fixed_window, which the public sheets' throttle shares): two cache calls a request whatever
the rate, where DRF's own throttles read and write back the list of every request's time in the last
period (thousands, at a game server's rate). While the cache is away nothing is counted and every
request goes through (fail open)."""

import time

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from core.fixed_window import count_in_window

from .models import ApiToken
from .roles import GAME_SERVER, user_role


class RoleRateThrottle(SimpleRateThrottle):
    game_server: bool

    def get_rate(self):
        # Read when the throttle is made (each request), not when DRF's module was imported, so a
        # changed REST_FRAMEWORK setting applies.
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]

    def get_cache_key(self, request, view):
        user = request.user
        if not user or not user.is_authenticated or (user_role(user) == GAME_SERVER) != self.game_server:
            return None  # not this throttle's requests (anonymous ones are refused before throttling)
        ident = f"token-{request.auth.pk}" if isinstance(request.auth, ApiToken) else f"user-{user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request, view):
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        try:
            count, self.window_ends = count_in_window(self.cache, key, self.duration)
        except ValueError:
            # No such key: the cache is away, and keeps nothing until it is back (core/cache.py).
            # Uncounted, the request goes through rather than fail.
            return True
        return count <= self.num_requests

    def wait(self):
        return self.window_ends - time.time()


class GameServerRateThrottle(RoleRateThrottle):
    scope = "game_server"
    game_server = True


class StaffRateThrottle(RoleRateThrottle):
    scope = "staff"
    game_server = False
