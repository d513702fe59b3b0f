"""What every write to round history shares: its refusals, and how it names people and checks text.

Refusals: bad input is a ValidationError naming the field (HTTP 400, a form error); a transition the
record's state does not allow is a `TransitionRefused` (HTTP 409); deciding your own proposal is an
`OwnDecisionRefused` (HTTP 403). Both are ValidationErrors, so a page shows them like any other.
"""

from django.core.exceptions import ValidationError


class TransitionRefused(ValidationError):
    """The record is not in a state that allows this step (HTTP 409). Nothing was changed."""

    status_code = 409


class OwnDecisionRefused(TransitionRefused):
    """A second person must decide (HTTP 403). Nothing was changed."""

    status_code = 403


def required_text(text: str, field: str, message: str) -> str:
    if not text or not text.strip():
        raise ValidationError({field: message})
    return text.strip()


def by_name(user) -> str:
    return user.get_username() if user is not None else "the system"
