"""The public sheets' throttle: the sheet pages, their PDFs and the rules API (the portal's only
answers to anonymous requests) count each client address's requests by the minute, in Django's cache,
all three in one count. Beyond PITBOSS_SHEET_REQUESTS_PER_MINUTE (0: no throttle) the pages answer 429
with Retry-After (the seconds to the next minute) and the sheets' problem page, the API 429 with
Retry-After as DRF answers it.

The address is the one sign-in throttling counts (accounts.sign_in.client_address): the connection's,
or behind PITBOSS_TRUSTED_PROXIES proxies the one they forwarded. A counter the cache lost between its
add and its incr (ValueError) lets the request through: a throttle that refuses every reader of the
sheets while the cache recovers would do what it is there to prevent.
"""

import math
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from accounts.sign_in import client_address
from core.fixed_window import count_in_window

WINDOW_SECONDS = 60
KEY = "throttle_public_sheets_{address}"


def seconds_to_wait(request) -> int | None:
    """None when `request` may be answered; else the whole seconds until its address may ask again
    (counting this request)."""
    rate = settings.PITBOSS_SHEET_REQUESTS_PER_MINUTE
    if not rate:
        return None
    key = KEY.format(address=client_address(request) or "unknown")
    try:
        count, window_ends = count_in_window(cache, key, WINDOW_SECONDS)
    except ValueError:
        return None  # the cache lost the counter: let the request through
    if count <= rate:
        return None
    return max(1, math.ceil(window_ends - time.time()))


class PublicSheetThrottle(BaseThrottle):
    """The same count for the rules API (a DRF throttle)."""

    def allow_request(self, request, view):
        self.seconds = seconds_to_wait(request)
        return self.seconds is None

    def wait(self):
        return self.seconds
