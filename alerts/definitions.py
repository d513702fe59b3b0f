"""What each monitor watches, whom it reaches first, and its threshold's unit and default: the one
definition the monitors, the pages and the threshold forms read.

Every threshold is a single number, and for every monitor a higher number is less sensitive (a
larger win, a longer silence, more days between false alerts): a change up needs compliance's
approval (services.threshold_propose).
"""

from dataclasses import dataclass
from decimal import Decimal

from accounts.roles import COMPLIANCE, SUPERVISOR

from .choices import Monitor

# A monitor's measure at this multiple of its threshold raises its alert as critical at once.
CRITICAL_FACTOR = Decimal(2)
# The fewest cancelled rounds in the last hour that make a spike, whatever the share.
CANCELLATIONS_AT_LEAST = 3
# The fewest rounds a dealer must have dealt today before their findings rate is judged.
DEALER_ROUNDS_AT_LEAST = 20


@dataclass(frozen=True)
class MonitorDefinition:
    monitor: Monitor
    role: str  # the role a warning goes to
    unit: str  # what the threshold counts
    default: Decimal
    minimum: Decimal
    explains: str

    @property
    def label(self) -> str:
        return self.monitor.label


DEFINITIONS = {
    definition.monitor: definition
    for definition in (
        MonitorDefinition(
            Monitor.RTP_DRIFT,
            COMPLIANCE,
            "days between false alerts a table",
            Decimal(30),
            Decimal(1),
            "A bet kind's return to player drifting from theory while every payout is right (a CUSUM "
            "on each round's return beyond theory, both ways).",
        ),
        MonitorDefinition(
            Monitor.CANCELLATIONS,
            SUPERVISOR,
            "% of the last hour's rounds cancelled",
            Decimal(5),
            Decimal("0.5"),
            f"More of a table's rounds cancelled in the last hour than the threshold (and at least "
            f"{CANCELLATIONS_AT_LEAST}).",
        ),
        MonitorDefinition(
            Monitor.DEALER_FINDINGS,
            SUPERVISOR,
            "dealer findings per 100 rounds",
            Decimal(2),
            Decimal("0.1"),
            f"A dealer's findings of dealing or procedure per 100 rounds today, once they have dealt "
            f"{DEALER_ROUNDS_AT_LEAST} rounds.",
        ),
        MonitorDefinition(
            Monitor.BIG_WIN,
            COMPLIANCE,
            "net win of a player in a round (table currency)",
            Decimal(10000),
            Decimal(1),
            "A player's net win in one round above the amount.",
        ),
        MonitorDefinition(
            Monitor.SILENT_TABLE,
            SUPERVISOR,
            "minutes without a round",
            Decimal(10),
            Decimal(1),
            "A table Open whose last round ended longer ago than the threshold.",
        ),
        MonitorDefinition(
            Monitor.INGEST_BEHIND,
            SUPERVISOR,
            "seconds from a round's end to its arrival",
            Decimal(120),
            Decimal(5),
            "Rounds arriving longer after they ended than the threshold (the game server's backlog).",
        ),
    )
}
