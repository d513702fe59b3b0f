"""The guardrail on rule changes: which approvals a configuration version still needs.

A version that takes any bet kind's maximum RTP (best play) below PITBOSS_RTP_FLOOR_PERCENT, or down by
more than RTP_FALL_WARNING percentage points (tables.proposals), needs three people: its proposer, who
writes why the RTP falls; a compliance officer, who approves that first; and a supervisor who did not
propose it, whose approval puts it in force. Any other version needs the proposer and the supervisor.
The main game's RTP under the table's automatic play is shown beside them, but never gates.

The services (tables.services) refuse a step out of turn; the database refuses an approved version past
the guardrail without the compliance approval and the reason, and a compliance officer who proposed or
approved it as the supervisor (TableConfiguration's constraints).
"""

from dataclasses import dataclass

from .choices import ConfigurationStatus
from .models import TableConfiguration
from .proposals import RtpLine, RtpPreview, rtp_preview
from .selectors import previous_approved

APPROVE_RTP_FALL = "tables.approve_rtp_fall"  # the compliance officer's permission

# What a proposal may still need, in the order it is given; the API names them by these keys.
NEEDS = {
    "odds": "its odds worked out, to know whether it crosses the guardrail",
    "reason": "the proposer's reason for the fall of the RTP",
    "compliance": "a compliance officer's approval",
    "supervisor": "a supervisor's approval (not the proposer's)",
}


@dataclass(frozen=True)
class Approvals:
    """Where a version stands against the guardrail. `crossings` are the bet kinds that cross it (none
    while its odds are computing); `still_needed` are NEEDS keys, empty once it is decided."""

    crossings: tuple[RtpLine, ...]
    computing: bool
    still_needed: tuple[str, ...]

    @property
    def needs_compliance(self) -> bool:
        return bool(self.crossings)

    @property
    def crossing_text(self) -> str:
        return crossing_text(self.crossings)

    @property
    def still_needed_text(self) -> list[str]:
        return [NEEDS[key] for key in self.still_needed]


def approvals_of(configuration: TableConfiguration, preview: RtpPreview | None = None) -> Approvals:
    """The guardrail's reading of `configuration` against the approved version before it, now (the
    floor is the settings' at this moment): `preview` when the caller has it already."""
    if preview is None:
        preview = rtp_preview(previous_approved(configuration), configuration)
    computing = any(line.computing_after or line.computing_before for line in preview.lines)
    crossings = tuple(preview.crossings)
    if configuration.status != ConfigurationStatus.PROPOSED:
        return Approvals(crossings, computing, ())
    needed = []
    if computing:
        needed.append("odds")
    if crossings or configuration.compliance_approved_by_id:
        if not configuration.rtp_fall_reason:
            needed.append("reason")
        if not configuration.compliance_approved_by_id:
            needed.append("compliance")
    needed.append("supervisor")
    return Approvals(crossings, computing, tuple(needed))


def crossing_text(crossings) -> str:
    """The kinds past the guardrail in one line, for refusals and pages: "Pair (97.1154 % → 80.4912 %)"."""
    return "; ".join(f"{line.label} ({line.movement})" for line in crossings)
