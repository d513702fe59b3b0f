"""The demo's users' second factor: each supervisor and compliance officer of the demo is enrolled
with a TOTP secret worked out from their username, so that anyone trying the demo can add it to an
authenticator app, or ask `manage.py demo_code <username>` for the current code. Demo only: a real
user's secret is random, made on the enrolment page and shown to them alone."""

import base64
import hashlib
import hmac
import struct
import time

PERIOD = 30  # seconds a code lasts
DIGITS = 6


def demo_secret(username: str) -> str:
    """A 160-bit base32 secret, the same for a username on every machine."""
    return base64.b32encode(hashlib.sha1(f"pitboss-demo:{username}".encode()).digest()).decode()


def demo_code(username: str, at: float | None = None) -> str:
    """The demo user's code at `at`, now by default."""
    return totp_code(demo_secret(username), at)


def totp_code(secret: str, at: float | None = None) -> str:
    """RFC 6238 (6 digits, 30-second steps, HMAC-SHA1), worked out apart from django-allauth, which
    checks the codes: the demo's codes, and the tests'."""
    counter = int((time.time() if at is None else at) // PERIOD)
    digest = hmac.new(base64.b32decode(secret), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{number % 10**DIGITS:0{DIGITS}d}"
