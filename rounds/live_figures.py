"""The rounds' side of the live figures (live): where a round's figures are kept, what a correction
changes in them, and a recount of a table's day from its rounds, bets, findings and corrections,
which `manage.py live_figures_rebuild` writes and the tests hold the kept figures to."""

from collections import Counter, defaultdict
from datetime import date
from decimal import Decimal

from django.db import transaction

from live.models import ROUNDS_ROW, LiveFigures
from live.services import (
    SUMS,
    Place,
    RowSums,
    adjusted_figures,
    left_figures,
    live_add,
    round_figures,
    slot_of,
)

from .choices import CorrectionKind, ProposalStatus, RoundStatus, finding_class
from .models import Adjustment, Bet, Finding, Round, RoundCorrection
from .totals import KindSums

ZERO = Decimal(0)


def live_place(*, table_pk: int, day: date, opened_at, shoe: str, dealt_by: str, configuration_pk) -> Place:
    """Where a round is counted: ingest names it from the round it writes, a correction from the round."""
    return Place(table_pk, day, slot_of(opened_at), shoe, dealt_by, configuration_pk or 0)


def place_of(round_: Round) -> Place:
    return live_place(
        table_pk=round_.table_id,
        day=round_.gaming_day,
        opened_at=round_.opened_at,
        shoe=round_.shoe.code,
        dealt_by=round_.dealt_by,
        configuration_pk=round_.configuration_id,
    )


def kinds_of(round_: Round) -> dict[str, KindSums]:
    """A stored round's bets per kind, as ingest summed them."""
    kinds: dict[str, KindSums] = defaultdict(KindSums)
    for kind, wagered, returned, pattern in Bet.objects.of_round(round_).values_list(
        "kind", "wagered", "returned", "computed_pattern"
    ):
        sums = kinds[kind]
        sums.bets += 1
        sums.wagered += wagered
        sums.returned += returned
        sums.hits += bool(pattern)
    return dict(kinds)


def live_round_corrected(*, round_: Round, kind: str) -> None:
    """Change the live figures for the correction of `kind` just recorded for `round_`: a played round
    voided (or, before voids, cancelled in an incident) leaves them; a re-settled one returns its
    adjustments too. A round the game server cancelled was counted so already."""
    if round_.status != RoundStatus.COMPLETED:
        return
    kinds = kinds_of(round_)
    if kind == CorrectionKind.RESETTLED:
        figures = adjusted_figures(kinds=kinds, adjustments=_adjustments_of(round_))
    else:
        figures = left_figures(kinds=kinds, voided=kind == CorrectionKind.VOIDED)
    live_add(place=place_of(round_), figures=figures)


def _adjustments_of(round_: Round) -> dict[str, Decimal]:
    adjustments: dict[str, Decimal] = defaultdict(Decimal)
    approved = Adjustment.objects.filter(
        resettlement__round=round_, resettlement__status=ProposalStatus.APPROVED, gaming_day=round_.gaming_day
    )
    for kind, amount in approved.values_list("bet__kind", "amount"):
        adjustments[kind] += amount
    return dict(adjustments)


# --- the recount --------------------------------------------------------------------------------------

Key = tuple  # (slot, shoe, dealt_by, configuration_pk, kind)


def live_recount(*, table_pk: int, day: date) -> dict[Key, RowSums]:
    """The live figures of a table's gaming day worked out again from its rounds, bets, findings and
    corrections, row by row, without the kept ones."""
    rounds = Round.objects.filter(table_id=table_pk, gaming_day=day).select_related("shoe").defer("document")
    corrections = dict(RoundCorrection.objects.filter(round__in=rounds).values_list("round_id", "kind"))
    findings: dict[int, Counter] = defaultdict(Counter)
    for round_pk, code in Finding.objects.filter(round__in=rounds, gaming_day=day).values_list(
        "round_id", "code"
    ):
        findings[round_pk][finding_class(code)] += 1
    adjustment_of_bet = dict(
        Adjustment.objects.filter(
            bet__round__in=rounds, gaming_day=day, resettlement__status=ProposalStatus.APPROVED
        ).values_list("bet_id", "amount")
    )
    kinds: dict[int, dict[str, KindSums]] = defaultdict(lambda: defaultdict(KindSums))
    for round_pk, bet_pk, kind, wagered, returned, pattern in Bet.objects.filter(
        round__in=rounds, gaming_day=day
    ).values_list("round_id", "id", "kind", "wagered", "returned", "computed_pattern"):
        sums = kinds[round_pk][kind]
        sums.bets += 1
        sums.wagered += wagered
        sums.returned += returned + adjustment_of_bet.get(bet_pk, ZERO)
        sums.hits += bool(pattern)
    kept: dict[Key, RowSums] = {}
    for round_ in rounds:
        place = place_of(round_)
        correction = corrections.get(round_.pk)
        cancelled = round_.status == RoundStatus.CANCELLED or correction == CorrectionKind.CANCELLED
        voided = correction == CorrectionKind.VOIDED
        figures = round_figures(
            cancelled=cancelled or voided,
            players=round_.players,
            findings=findings[round_.pk],
            kinds=kinds[round_.pk],
        )
        if voided:
            figures[ROUNDS_ROW].cancelled, figures[ROUNDS_ROW].voided = 0, 1
        for kind, row in figures.items():
            key = (place.slot, place.shoe, place.dealt_by, place.configuration_pk, kind)
            total = kept.setdefault(key, RowSums())
            for name in SUMS:
                setattr(total, name, getattr(total, name) + getattr(row, name))
    return kept


def live_kept(*, table_pk: int, day: date) -> dict[Key, RowSums]:
    """The kept live figures of a table's gaming day, as `live_recount` gives them."""
    return {
        (row["slot"], row["shoe"], row["dealt_by"], row["configuration_pk"], row["kind"]): RowSums(
            **{name: row[name] for name in SUMS}
        )
        for row in LiveFigures.objects.filter(table_id=table_pk, day=day).values(
            "slot", "shoe", "dealt_by", "configuration_pk", "kind", *SUMS
        )
    }


@transaction.atomic
def live_figures_rebuild(*, table_pk: int, day: date) -> int:
    """Replace a table's kept figures of `day` by their recount (rounds stored before the figures
    were kept, say); returns the rows written."""
    LiveFigures.objects.filter(table_id=table_pk, day=day).delete()
    recount = live_recount(table_pk=table_pk, day=day)
    LiveFigures.objects.bulk_create(
        LiveFigures(
            table_id=table_pk,
            day=day,
            slot=slot,
            shoe=shoe,
            dealt_by=dealt_by,
            configuration_pk=configuration_pk,
            kind=kind,
            **{name: getattr(row, name) for name in SUMS},
        )
        for (slot, shoe, dealt_by, configuration_pk, kind), row in sorted(recount.items())
    )
    return len(recount)
