"""Signing a round off as reviewed: the one write of the recall pages."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from core.templatetags.pitboss import local_time_text

from .models import Round


@transaction.atomic
def round_review(*, round_: Round, reviewed_by, comment: str) -> Round:
    """Record who reviewed the round, when, and what they concluded.

    The first sign-off stands: a round already reviewed is refused, so a review is never
    overwritten (the round keeps one reviewer, time and comment). A round with findings needs a
    comment saying what the reviewer concluded about them.
    """
    comment = (comment or "").strip()
    if round_.finding_count and not comment:
        raise ValidationError(
            {"comment": "This round has findings: say what you concluded about them."}, code="required"
        )
    now = timezone.now()
    # Conditional update: of two reviewers at the same moment, exactly one is recorded.
    updated = Round.objects.filter(pk=round_.pk, reviewed_at__isnull=True).update(
        reviewed_at=now, reviewed_by=reviewed_by, review_comment=comment
    )
    if not updated:
        stored = Round.objects.select_related("reviewed_by").get(pk=round_.pk)
        raise ValidationError(
            f"Round {stored.round_id} was already reviewed by {stored.reviewed_by} at "
            f"{local_time_text(stored.reviewed_at)}; the first sign-off is kept.",
            code="already_reviewed",
        )
    round_.reviewed_at, round_.reviewed_by, round_.review_comment = now, reviewed_by, comment
    return round_
