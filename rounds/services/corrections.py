"""One correction per round, so per bet: an approved re-settlement, the refunds of a cancellation, or
an approved void. Never two.

Every correction service locks the round's row first (`round_locked`), then asks whether the round
was corrected already (`correction_refusal`), and records its correction (`correction_record`). The
lock orders two corrections of one round at the same moment: the second waits, then finds the first.
A writer that skipped the lock still meets RoundCorrection's primary key (one row per round): its
IntegrityError becomes a TransitionRefused with a message, and its transaction rolls back whole.
"""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from ..correction_policy import ONE_PER_BET, corrected_refusal, correction_described, correction_of
from ..live_figures import live_round_corrected
from ..models import Round, RoundCorrection
from ..recall import archived_refusal
from ..selectors import round_named
from .common import TransitionRefused


def round_locked(round_: Round) -> Round:
    """The round, its row locked until the transaction ends (its document left unread). A round whose
    month is archived is not in the database: refused, with how to restore its month."""
    try:
        return (
            Round.objects.select_for_update(of=("self",))
            .select_related("table", "configuration")
            .defer("document")
            .get(pk=round_.pk)
        )
    except Round.DoesNotExist:
        refuse_if_archived(pk=round_.pk)
        raise


def refuse_if_archived(*, round_id: str | None = None, pk: int | None = None) -> None:
    """A round whose month is in the archive alone takes no correction until its month is restored."""
    refusal = archived_refusal(round_id=round_id, pk=pk)
    if refusal:
        raise TransitionRefused({"round": refusal})


def round_to_correct(round_id: str, rounds: QuerySet | None = None) -> Round:
    """The round of `rounds` (by default every one) whose id is `round_id`, that a correction, a void
    or an incident names. Refused, naming `round`, when its month is archived (TransitionRefused,
    with how to restore it) or when no round has that id (ValidationError)."""
    round_ = round_named(round_id, rounds)
    if round_ is None:
        refuse_if_archived(round_id=round_id)
        raise ValidationError({"round": f"No round {round_id.strip()!r} is stored."})
    return round_


def correction_refusal(round_: Round) -> str | None:
    """Why the round takes no further correction (it has one), or None."""
    correction = correction_of(round_)
    return None if correction is None else corrected_refusal(round_, correction)


def refuse_if_corrected(round_: Round) -> None:
    refusal = correction_refusal(round_)
    if refusal:
        raise TransitionRefused({"round": refusal})


def correction_record(
    *, round_: Round, kind: str, recorded_by, resettlement=None, incident=None, void=None
) -> RoundCorrection:
    """The round's one correction; a second is refused, whoever got there first. The live figures
    change with it."""
    try:
        with transaction.atomic():
            correction = RoundCorrection.objects.create(
                round_id=round_.pk,
                kind=kind,
                resettlement=resettlement,
                incident=incident,
                void=void,
                recorded_by=recorded_by,
            )
    except IntegrityError:
        existing = correction_of(round_)
        what = f"it was {correction_described(existing)}" if existing else "another correction"
        raise TransitionRefused(
            {
                "round": f"Round {round_.round_id} received its correction while this step ran: {what}; "
                + ONE_PER_BET
            }
        ) from None
    live_round_corrected(round_=round_, kind=kind)
    return correction
