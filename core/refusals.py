"""Refusals every service shares: a change without a reason, a lost race on a unique constraint, a step
the record's state does not allow (`TransitionRefused`, HTTP 409) and a decision on one's own proposal
(`OwnDecisionRefused`, HTTP 403: re-settlements, voids and configuration changes alike). Both are
ValidationErrors, so a page shows them like any other, answering their `status_code`."""

from contextlib import contextmanager

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction


class TransitionRefused(ValidationError):
    """The record is not in a state that allows this step (HTTP 409). Nothing was changed."""

    status_code = 409


class OwnDecisionRefused(TransitionRefused):
    """A second person must decide (HTTP 403). Nothing was changed."""

    status_code = 403


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
