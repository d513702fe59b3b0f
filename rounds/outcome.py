"""A round's outcome: one definition, read by the list and its filter, the round page, the API, CSV
exports, the play record and the reports.

The status a game server sent stays as received. The outcome is worked out from it and from the
round's one correction (`RoundCorrection`): a round sent as cancelled is cancelled by the server
(its refunds, when an incident records them, are the record of what it returned); a completed round
is completed until a re-settlement, a void or (before voids existed) an incident's refunds correct it.
"""

from django.db import models
from django.db.models import Case, Q, Value, When

from .choices import CorrectionKind, RoundStatus


class RoundOutcome(models.TextChoices):
    COMPLETED = "completed", "Completed"
    CANCELLED_BY_SERVER = "cancelled_by_server", "Cancelled by the game server"
    CANCELLED_IN_INCIDENT = "cancelled_in_incident", "Cancelled in an incident"
    VOIDED = "voided", "Voided"
    RESETTLED = "resettled", "Re-settled"


_BY_CORRECTION = {
    CorrectionKind.RESETTLED: RoundOutcome.RESETTLED,
    CorrectionKind.CANCELLED: RoundOutcome.CANCELLED_IN_INCIDENT,
    CorrectionKind.VOIDED: RoundOutcome.VOIDED,
}

# Outcomes whose rounds leave the RTP figures: their bets were returned what they wagered.
NOT_PLAYED = frozenset(
    {RoundOutcome.CANCELLED_BY_SERVER, RoundOutcome.CANCELLED_IN_INCIDENT, RoundOutcome.VOIDED}
)


def outcome_of(status: str, correction_kind: str | None) -> RoundOutcome:
    """The outcome of a round sent with `status` whose correction is of `correction_kind` (None: none)."""
    if status == RoundStatus.CANCELLED:
        return RoundOutcome.CANCELLED_BY_SERVER
    if correction_kind is None:
        return RoundOutcome.COMPLETED
    return _BY_CORRECTION[CorrectionKind(correction_kind)]


def outcome_q(outcome: str, prefix: str = "") -> Q:
    """Rounds of this outcome, as a filter on Round (or on a model reaching Round through `prefix`,
    such as "round__" for bets)."""
    status, correction = f"{prefix}status", f"{prefix}correction__kind"
    if outcome == RoundOutcome.CANCELLED_BY_SERVER:
        return Q(**{status: RoundStatus.CANCELLED})
    completed = Q(**{status: RoundStatus.COMPLETED})
    if outcome == RoundOutcome.COMPLETED:
        return completed & Q(**{f"{prefix}correction__isnull": True})
    kind = next(kind for kind, value in _BY_CORRECTION.items() if value == outcome)
    return completed & Q(**{correction: kind})


def outcome_expression(prefix: str = "") -> Case:
    """The outcome as a query expression, for `annotate(outcome=outcome_expression())`."""
    status, correction = f"{prefix}status", f"{prefix}correction__kind"
    return Case(
        When(Q(**{status: RoundStatus.CANCELLED}), then=Value(RoundOutcome.CANCELLED_BY_SERVER.value)),
        *(
            When(Q(**{correction: kind}), then=Value(outcome.value))
            for kind, outcome in _BY_CORRECTION.items()
        ),
        default=Value(RoundOutcome.COMPLETED.value),
        output_field=models.CharField(),
    )


def outcome_label(outcome: str) -> str:
    return RoundOutcome(outcome).label
