"""Payouts beyond the paytable: the bets of a table's gaming day that the game server reports as
returning more than the best outcome of their bet kind pays on what they wagered (a Pair bet of 0.01
reported returning 10,000.00, where Deluxe's Pair pays at most 50 to 1: 0.51). The day still reports: its
figures count the bets as reported, to the cent, however large the observed RTP comes out. The
report flags them apart from the RTP flag (DailyTableSummary.beyond_paytable), naming the bets,
because such an RTP says nothing about the game until the round is looked into.

The engine never settles a bet beyond its paytable, so every such bet has a `wrong_returned`
finding: the day's few findings are read, never its bets. Only rounds the figures count as played
without a correction are looked at: a re-settlement or a void has dealt with the payout already.
"""

from datetime import date
from decimal import ROUND_DOWN, Decimal

from core.money import exact_product
from rounds.models import Bet
from rounds.outcome import RoundOutcome, outcome_q
from rounds.totals import most_returned
from tables.models import Table

NAMED = 10  # the bets the report names; `beyond_paytable` counts them all
CENT = Decimal("0.01")


def payouts_beyond_paytable(day: date, table: Table) -> tuple[int, list[dict]]:
    """(how many, the first NAMED of them as {bet, round, kind, wagered, returned, most}), in the
    order they were stored. `most` is the most the bet's kind pays on what it wagered."""
    bets = (
        Bet.objects.filter(
            outcome_q(RoundOutcome.COMPLETED, "round__"),
            gaming_day=day,
            round__gaming_day=day,
            round__table=table,
            findings__code="wrong_returned",
            findings__gaming_day=day,
        )
        .select_related("round__configuration")
        .distinct()
        .order_by("pk")
    )
    found = []
    for bet in bets:
        configuration = bet.round.configuration
        per_unit = None if configuration is None else most_returned(configuration.rule_set, bet.kind)
        if per_unit is None:
            continue
        most = exact_product(bet.wagered, per_unit).quantize(CENT, ROUND_DOWN)
        if bet.returned > most:
            found.append(
                {
                    "bet": bet.bet_id,
                    "round": bet.round.round_id,
                    "kind": bet.kind,
                    "wagered": f"{bet.wagered:.2f}",
                    "returned": f"{bet.returned:.2f}",
                    "most": f"{most:.2f}",
                }
            )
    return len(found), found[:NAMED]
