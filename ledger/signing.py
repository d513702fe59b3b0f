"""The day heads' signature: HMAC-SHA256 under PITBOSS_LEDGER_KEY (README, "The ledger")."""

import hashlib
import hmac
from datetime import date

from django.conf import settings


def head_signature(day: date, kind: str, sequence: int, entry: str) -> str:
    """The signature of chain `kind`'s head (its entry `sequence`, hash `entry`) at the end of `day`."""
    message = f"{day.isoformat()}|{kind}|{sequence}|{entry}".encode()
    return hmac.new(settings.PITBOSS_LEDGER_KEY.encode(), message, hashlib.sha256).hexdigest()
