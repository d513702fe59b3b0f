"""Which rounds of a day the RTP figures count: one definition for the figures, the exposure and the
players (`daily.py`, `exposure.py`, `players.py`).

A round counts when it was completed and played: the game server did not cancel it, and its one
correction (rounds.RoundCorrection), if any, does not take it out. A round cancelled in an incident
(refunded) or voided (every payout reversed, every stake returned) returned what it wagered: its
outcome is in `rounds.outcome.NOT_PLAYED`, and it leaves the figures. A re-settled round stays, with
its approved adjustments.
"""

from rounds.choices import CorrectionKind, RoundStatus
from rounds.models import RoundCorrection
from rounds.outcome import NOT_PLAYED, outcome_of

# The correction kinds that take a completed round out of the figures: cancelled, voided.
NOT_PLAYED_KINDS = tuple(
    kind for kind in CorrectionKind.values if outcome_of(RoundStatus.COMPLETED, kind) in NOT_PLAYED
)
# Those kinds as an SQL list, for `correction.kind IN (...)` (our own constants, not input).
NOT_PLAYED_IN = ", ".join(f"'{kind}'" for kind in NOT_PLAYED_KINDS)
# A completed round that such a correction took out of the figures; `{round}` is its id.
NOT_PLAYED_ROUND_SQL = (
    f"SELECT 1 FROM {RoundCorrection._meta.db_table} correction "
    "WHERE correction.round_id = {round} AND correction.kind IN (" + NOT_PLAYED_IN + ")"
)
