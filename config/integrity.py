"""Turning a lost race on a unique constraint into the same clear refusal as the check before it."""

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
