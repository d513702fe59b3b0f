"""Refusals every service shares: a change without a reason, and a lost race on a unique constraint."""

from contextlib import contextmanager

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction


@contextmanager
def refused_when_taken(field: str, message: str):
    """Services check uniqueness first; two requests at once can both pass that check, and the
    database's constraint stops the second. It gets a 400 naming `field`, not a 500."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise ValidationError({field: message}) from None


def require_reason(reason: str) -> str:
    """Every change is kept with who made it and why: the why may not be empty."""
    if not reason or not reason.strip():
        raise ValidationError({"reason": "Say why: every change is kept with its reason."})
    return reason.strip()
