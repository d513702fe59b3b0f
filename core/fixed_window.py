"""Requests counted in fixed windows in Django's cache: the API throttles (accounts/throttles.py) and the
public sheets' throttle (sheets/throttle.py) share this one counter.

Two cache calls a request whatever the rate: `add` makes the window's key at 0 if it is not there, and
`incr` counts the request. The key outlives its window, which alone uses it, so `incr` never meets it
expired; it raises ValueError only when the key vanished in between (evicted, or the cache emptied or
restarted), and each caller decides what that means."""

import time

from django.core.cache import BaseCache


def count_in_window(cache: BaseCache, key: str, seconds: int) -> tuple[int, float]:
    """Count one request under `key` in the present window of `seconds` (windows start at multiples of
    it since the epoch): the requests counted in this window so far, this one included, and the time
    (time.time()) the window ends. Raises ValueError when the cache lost the key between add and incr."""
    window = int(time.time() // seconds)
    key = f"{key}_{window}"
    cache.add(key, 0, timeout=seconds + 1)
    return cache.incr(key), (window + 1) * seconds
