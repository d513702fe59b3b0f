"""Writing the live figures (models.py): what a round adds as it is stored, and what a correction
changes. Each is one statement: every row of the round's place added to at once (core.upsert)."""

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Protocol

from core.money import exact_product, exact_sum
from core.upsert import upsert_add

from .choices import FindingClass
from .models import ROUNDS_ROW, SLOT_MINUTES, LiveFigures

ZERO = Decimal(0)


def slot_of(moment: datetime) -> datetime:
    """The start of the five-minute slot `moment` falls in (aware, as given)."""
    return moment.replace(minute=moment.minute - moment.minute % SLOT_MINUTES, second=0, microsecond=0)


@dataclass(frozen=True)
class Place:
    """Where a round's figures are kept: its table, gaming day, slot (of its opening), shoe, dealer and
    version (0: none)."""

    table_pk: int
    day: date
    slot: datetime
    shoe: str
    dealt_by: str
    configuration_pk: int


KEYS = ["table_id", "day", "slot", "shoe", "dealt_by", "configuration_pk", "kind"]


@dataclass
class RowSums:
    """What one row gains (or, for a correction, loses): the columns of LiveFigures added to."""

    rounds: int = 0
    cancelled: int = 0
    voided: int = 0
    player_rounds: int = 0
    bets: int = 0
    hits: int = 0
    wagered: Decimal = ZERO
    returned: Decimal = ZERO
    wagered_squared: Decimal = ZERO
    returned_squared: Decimal = ZERO
    wagered_returned: Decimal = ZERO
    findings_money: int = 0
    findings_limit: int = 0
    findings_dealer: int = 0
    findings_other: int = 0


SUMS = [field.name for field in fields(RowSums)]


class KindResult(Protocol):
    """One bet kind's bets in one round (rounds.totals.KindSums)."""

    bets: int
    wagered: Decimal
    returned: Decimal
    hits: int


def live_add(*, place: Place, figures: Mapping[str, RowSums]) -> None:
    """Add `figures` (bet kind, or ROUNDS_ROW, -> what its row gains) at `place`: one statement."""
    where = (place.table_pk, place.day, place.slot, place.shoe, place.dealt_by, place.configuration_pk)
    upsert_add(
        LiveFigures,
        [(*where, kind, *(getattr(row, name) for name in SUMS)) for kind, row in sorted(figures.items())],
        keys=KEYS,
        sums=SUMS,
    )


def round_figures(
    *,
    cancelled: bool,
    players: int,
    findings: Mapping[FindingClass, int],
    kinds: Mapping[str, KindResult],
) -> dict[str, RowSums]:
    """What a round adds as it is stored: its rounds row, and a row per bet kind if it was played."""
    rounds = RowSums(
        rounds=1,
        cancelled=int(cancelled),
        player_rounds=players,
        **{f"findings_{finding_class.value}": count for finding_class, count in findings.items()},
    )
    if cancelled:
        return {ROUNDS_ROW: rounds}
    figures = {
        kind: played_kind(sums.bets, sums.wagered, sums.returned, sums.hits) for kind, sums in kinds.items()
    }
    rounds.wagered = sum((row.wagered for row in figures.values()), ZERO)
    rounds.returned = sum((row.returned for row in figures.values()), ZERO)
    return {ROUNDS_ROW: rounds, **figures}


def played_kind(bets: int, wagered: Decimal, returned: Decimal, hits: int) -> RowSums:
    """One bet kind of a played round: a round, its bets, and its moments."""
    return RowSums(
        rounds=1,
        bets=bets,
        hits=hits,
        wagered=wagered,
        returned=returned,
        wagered_squared=exact_product(wagered, wagered),
        returned_squared=exact_product(returned, returned),
        wagered_returned=exact_product(wagered, returned),
    )


def negated(figures: RowSums) -> RowSums:
    return RowSums(**{name: -getattr(figures, name) for name in SUMS})


def left_figures(*, kinds: Mapping[str, KindResult], voided: bool) -> dict[str, RowSums]:
    """What a played round's leaving takes away (a void, or an incident's refunds before voids
    existed): its kinds' rows, its handle and returns; it counts as voided or cancelled instead."""
    figures = {
        kind: negated(played_kind(sums.bets, sums.wagered, sums.returned, sums.hits))
        for kind, sums in kinds.items()
    }
    rounds = RowSums(voided=int(voided), cancelled=int(not voided))
    rounds.wagered = sum((row.wagered for row in figures.values()), ZERO)
    rounds.returned = sum((row.returned for row in figures.values()), ZERO)
    return {ROUNDS_ROW: rounds, **figures}


def adjusted_figures(
    *, kinds: Mapping[str, KindResult], adjustments: Mapping[str, Decimal]
) -> dict[str, RowSums]:
    """What an approved re-settlement changes: each kind returned its reported returned plus its
    adjustments (`adjustments`: kind -> their sum), and the round's returns with them."""
    figures = {}
    for kind, adjustment in adjustments.items():
        if not adjustment:
            continue
        wagered, returned = kinds[kind].wagered, kinds[kind].returned
        corrected = returned + adjustment
        figures[kind] = RowSums(
            returned=adjustment,
            returned_squared=exact_sum(
                [exact_product(corrected, corrected), -exact_product(returned, returned)]
            ),
            wagered_returned=exact_product(wagered, adjustment),
        )
    if figures:
        figures[ROUNDS_ROW] = RowSums(returned=sum(adjustments.values(), ZERO))
    return figures


def last_hour_start(now: datetime) -> datetime:
    """The first slot of "the last hour": the twelve slots up to the present one."""
    return slot_of(now) - timedelta(minutes=60 - SLOT_MINUTES)
