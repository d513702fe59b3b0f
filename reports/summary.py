"""A table's gaming day beside its RTP figures (DailyTableSummary): every round of the day by its
outcome (`rounds.outcome`, the one definition the round list, the round page and the API use), the
money of its refunds and voids, its findings counted apart by what they are about, and the RTP flag.

- Rounds: all of them; cancelled (by the game server, or in an incident), voided, re-settled
  (an approved re-settlement); re-settlements proposed, whatever became of them.
- Refunds: the bets refunded and what they returned. Voids (approved): the payouts taken back and the
  stakes given back.
- Findings: every one, and by code; *limit* findings (a stake outside the player's effective limit, a
  trial or play-for-fun account in a seat) and *money* findings (an amount wagered or returned that is
  not the engine's, a cancelled round not refunded exactly) in their own columns.
- The RTP flag: a bet kind whose theoretical RTP lies outside its 99% interval (`kinds_outside_99`).
  Nothing else raises it: a limit finding is not an RTP matter.
- Payouts beyond the paytable (`beyond_paytable`): bets reported returning more than their kind can
  pay, flagged on their own (reports.beyond_paytable).
"""

from django.db.models import Count, Q, Sum

from core.gaming_day import GamingDay
from core.rtp_stats import money
from rounds.choices import ProposalStatus
from rounds.models import Finding, Refund, Resettlement, Round, VoidLine
from rounds.outcome import RoundOutcome, outcome_q
from tables.models import Table

from .beyond_paytable import payouts_beyond_paytable
from .models import DailyFigures, DailyTableSummary

LIMIT_FINDING_CODES = frozenset({"limit_breached", "seat_not_allowed"})
MONEY_FINDING_CODES = frozenset({"wrong_wagered", "wrong_returned", "cancelled_not_refunded"})
CANCELLED_OUTCOMES = (RoundOutcome.CANCELLED_BY_SERVER, RoundOutcome.CANCELLED_IN_INCIDENT)


def table_summary(
    the_day: GamingDay,
    table: Table,
    versions_in_force: str,
    figures: list[DailyFigures],
    *,
    fields: dict,
) -> DailyTableSummary:
    """The table's summary of the day (`fields`: day, table, game, currency and run)."""
    every_round = Round.objects.filter(gaming_day=the_day.day, table=table)
    counts = every_round.aggregate(
        rounds=Count("pk"),
        cancelled=Count("pk", filter=outcome_q(CANCELLED_OUTCOMES[0]) | outcome_q(CANCELLED_OUTCOMES[1])),
        voided=Count("pk", filter=outcome_q(RoundOutcome.VOIDED)),
        resettled=Count("pk", filter=outcome_q(RoundOutcome.RESETTLED)),
    )
    finding_codes = dict(
        Finding.objects.filter(round__in=every_round, gaming_day=the_day.day)
        .values("code")
        .annotate(count=Count("id"))
        .order_by("code")
        .values_list("code", "count")
    )
    # Every re-settlement of the day's rounds, whatever its status: proposed, approved or rejected.
    resettlements = Resettlement.objects.filter(round__in=every_round).count()
    # The bets' gaming day named too, so that PostgreSQL plans only the day's month of refunds and bets.
    refunds = Refund.objects.filter(
        gaming_day=the_day.day, bet__gaming_day=the_day.day, bet__round__in=every_round
    ).aggregate(count=Count("id"), amount=Sum("amount"))
    voided = VoidLine.objects.filter(
        Q(void__status=ProposalStatus.APPROVED), void__round__in=every_round
    ).aggregate(reversed=Sum("reversed_returned"), stakes=Sum("returned_stake"))
    outside = sum(1 for row in figures if row.outside_99)
    beyond, beyond_bets = payouts_beyond_paytable(the_day.day, table)
    return DailyTableSummary(
        **fields,
        rounds=counts["rounds"],
        cancelled_rounds=counts["cancelled"],
        voided_rounds=counts["voided"],
        resettled_rounds=counts["resettled"],
        resettlements=resettlements,
        refunds=refunds["count"],
        refunded=money(refunds["amount"]),
        voided_reversed=money(voided["reversed"]),
        voided_stakes_returned=money(voided["stakes"]),
        findings=sum(finding_codes.values()),
        limit_findings=sum(count for code, count in finding_codes.items() if code in LIMIT_FINDING_CODES),
        money_findings=sum(count for code, count in finding_codes.items() if code in MONEY_FINDING_CODES),
        finding_codes=finding_codes,
        configuration_versions=versions_in_force,
        kinds_outside_99=outside,
        flagged=outside > 0,
        beyond_paytable=beyond,
        beyond_paytable_bets=beyond_bets,
    )
