"""Webhook signatures, with the standard library only (a receiver may copy this file as it is).

Each body goes with a header

    Pitboss-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of the secret over "<t>.<body>">

and, while a rotated endpoint's previous secret is in its grace period, a second `v1=` made with that
one. A receiver accepts the body when one `v1` matches its secret and `t` is within the tolerance of
its own clock (which refuses a body recorded and sent again later).
"""

import hashlib
import hmac
import time
from collections.abc import Iterable

HEADER = "Pitboss-Signature"
TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def sign(body: bytes, secrets: Iterable[str], timestamp: int | None = None) -> str:
    """The header's value for `body`: one v1 for each of `secrets`, at `timestamp` (now)."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    return ",".join([f"t={timestamp}", *(f"v1={signature(secret, timestamp, body)}" for secret in secrets)])


def parse(header: str) -> tuple[int | None, list[str]]:
    """(t, [v1, ...]) of a header's value; t None when it is missing or not a whole number."""
    timestamp, signatures = None, []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isascii() and value.isdigit():
            timestamp = int(value)
        elif key == "v1":
            signatures.append(value)
    return timestamp, signatures


def verify(
    header: str, body: bytes, secret: str, *, tolerance: int = TOLERANCE_SECONDS, now: float | None = None
) -> bool:
    """Whether `header` signs `body` with `secret` at a time within `tolerance` seconds of `now`."""
    timestamp, signatures = parse(header or "")
    if timestamp is None or not signatures:
        return False
    now = time.time() if now is None else now
    if abs(now - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, given) for given in signatures)
