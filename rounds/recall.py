"""Rounds no longer in the database: how the round page, the API and the play record find a round whose
month was archived, and how a correction of one is refused.

The archive sits above rounds (pyproject's import contracts: rounds imports no archive), so rounds
says here what it asks of an archive, `RoundArchive`, and the archive app registers one in
`round_archives` from its AppConfig.ready(), as limits registers the table page's limits. With none
registered (rounds alone, SQLite without the archive), a round that is not in the database is not
found, as before.

An archived round comes back as a `RecalledRound`: unsaved model instances (their ids as stored)
that the round page's templates and the API's serializers read as they read a stored round, and
`ArchivePlace`, where it is and how its month is restored (the one way to correct it).
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from itertools import chain
from typing import Protocol

from .deal import DealtSpot
from .models import Adjustment, Bet, Finding, Refund, Round
from .registry import RoundKey


@dataclass(frozen=True)
class ArchivePlace:
    """One archived month of one casino table: where its rounds are now, and how they come back."""

    table_code: str
    month: date
    exported_at: datetime | None
    restore_command: str  # what puts the month back into the database
    # The month was never archived but has no partitions (it is past the hot window): a round would
    # land in the default partition and keep the month from being archived. `restore_command` makes them.
    unpartitioned: bool = False

    def refusal(self, round_id: str) -> str:
        """Why a correction of round `round_id` (of this month) is refused, and what to do."""
        return (
            f"Round {round_id} is archived: {self.table_code} {self.month:%Y-%m} was exported to the "
            "archive and its rows are no longer in the database, so nothing can be recorded against "
            f"its bets. Restore the month first ({self.restore_command}), then correct the round; the "
            "next archive_months archives the month again, with its correction."
        )


@dataclass
class RecalledRound:
    """An archived round read back from the archive, as unsaved instances with their ids as stored.

    `round` has its `outcome`, `table` and document (its spots, `round.dealt_spots`); `findings`,
    `adjustments` and `refunds` each have their bet when they name one, and `differing` are the bets
    paid other than the engine computes (or that it cannot compute), each bet with its player. The
    bets of given spots (a page of them: a 5,000-player round is not read whole for 25 players) come
    from `bets_of`; `bets_all()` reads every one (the API)."""

    round: Round
    place: ArchivePlace
    findings: list[Finding] = field(default_factory=list)
    differing: list[Bet] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    refunds: list[Refund] = field(default_factory=list)
    previous: Round | None = None  # the rounds just before and after it in its shoe, in the archive
    following: Round | None = None
    # (spot codes, or None for every spot) -> their bets, each with its player: set by the archive.
    read_bets: Callable[[list[str] | None], list[Bet]] | None = None
    bets: list[Bet] = field(default_factory=list)  # every bet, once bets_all() has read them

    def __post_init__(self):
        self.round.recalled = self  # what the API's serializer of an archived round reads

    def bets_of(self, spots: list[DealtSpot]) -> list[Bet]:
        """The bets of `spots` (of this round), each with its player."""
        if not spots or self.read_bets is None:
            return []
        return self.read_bets([spot.spot for spot in spots])

    def bets_all(self) -> "RecalledRound":
        """Every bet of the round (`bets`)."""
        self.bets = [] if self.read_bets is None else self.read_bets(None)
        return self


@dataclass
class PlayerArchive:
    """What the archive holds of a player's bets in a period: the archived months the period covers,
    its bets there (newest first, at most the number asked for, each with its round and the
    play record's annotations) and their totals by gaming day, bet kind and currency."""

    places: list[ArchivePlace]
    bets: list[Bet]
    bet_count: int
    totals: list[dict]

    @property
    def more(self) -> int:
        """Bets of the period in the archive beyond those listed."""
        return self.bet_count - len(self.bets)


class RoundArchive(Protocol):
    """What the round pages ask of an archive (registered in `round_archives`)."""

    def place_of(self, key: RoundKey) -> ArchivePlace | None:
        """Where the round of `key` is archived; None when its month is not in the archive alone."""

    def recall(self, key: RoundKey, place: ArchivePlace, *, rows: bool = True) -> RecalledRound:
        """The round as stored, its document included. With `rows`, what its page shows besides (the
        bets of its spots through `RecalledRound.bets_of`); without, the round alone (the page's
        document panel, a correction's refusal)."""

    def player_archive(self, player, first: date, last: date, *, limit: int) -> PlayerArchive | None:
        """The player's bets of gaming days `first` to `last` in archived months; None when the
        period reaches no archived month."""

    def player_bets(self, player, first: date, last: date) -> Iterator[Bet]:
        """Every one of those bets, newest first, with the play record's annotations: read a month
        at a time (a year of a player's bets is never held whole). What stops them being read
        (rounds.archive_damage.ArchiveUnreadable) is raised when this is called, not as they are."""

    def month_place(self, table, month: date) -> ArchivePlace | None:
        """Where `table`'s rounds of `month` are archived, or being archived, so that no round of the
        month may be stored now; None when one may. Its `restore_command` says what lets a round in
        (the month's restore, after archive_months if the month is still being archived), empty when
        nothing does (its archive was deleted under retention). A month past the hot window that was
        never archived and has no partitions is refused too (`unpartitioned`: its restore_command makes
        them). A month of the hot window costs no query: ingest asks this of every round it takes."""


round_archives: list[RoundArchive] = []


def _key(round_id: str | None = None, pk: int | None = None) -> RoundKey | None:
    if round_id is not None:
        round_id = round_id.strip()
        if not round_id or "\x00" in round_id:  # PostgreSQL compares no text with a NUL in it
            return None
        return RoundKey.objects.filter(round_id=round_id).first()
    return RoundKey.objects.filter(pk=pk).first()


def _placed(key: RoundKey) -> tuple["RoundArchive", ArchivePlace] | None:
    """The archive that holds the round of `key` alone, and where; None when none does."""
    for archive in round_archives:
        place = archive.place_of(key)
        if place is not None:
            return archive, place
    return None


def archived_round(round_id: str, *, rows: bool = True) -> RecalledRound | None:
    """The round of a game server's round id read back from the archive (`rows`: RoundArchive.recall);
    None when no archive holds it. Ask only once the database did not have it."""
    key = _key(round_id)
    placed = _placed(key) if key is not None else None
    if placed is None:
        return None
    archive, place = placed
    return archive.recall(key, place, rows=rows)


def archived_refusal(*, round_id: str | None = None, pk: int | None = None) -> str | None:
    """Why a correction of this round is refused because its month is archived; None when it is not."""
    key = _key(round_id, pk)
    placed = _placed(key) if key is not None else None
    return None if placed is None else placed[1].refusal(key.round_id)


@dataclass(frozen=True)
class CorrectedRound:
    """The round a re-settlement, void or incident names: from the database, or read back from the
    archive (`archived`: why no step is taken on it, with how to restore its month)."""

    round: Round
    archived: str | None = None


def corrected_round(pk: int) -> CorrectedRound | None:
    """The round of id `pk` (its table read, its document not) wherever it is kept; None when
    neither the database nor an archive holds it (deleted under retention)."""
    key = _key(pk=pk)
    if key is None:
        return None
    stored = (
        Round.objects.select_related("table")
        .defer("document")
        .filter(pk=pk, gaming_day=key.gaming_day)
        .first()
    )
    if stored is not None:
        return CorrectedRound(stored)
    placed = _placed(key)
    if placed is None:
        return None
    archive, place = placed
    return CorrectedRound(archive.recall(key, place, rows=False).round, place.refusal(key.round_id))


def archived_rounds(pks) -> list[tuple[str, ArchivePlace]]:
    """The rounds of ids `pks` whose month is archived: each one's game-server round id and where
    its month is, in the order of their round ids."""
    return sorted(archived_by_pk(pks).values(), key=lambda archived: archived[0])


def archived_by_pk(pks) -> dict[int, tuple[str, ArchivePlace]]:
    """Of the rounds of ids `pks`, those whose month is archived: id -> (game-server round id, where
    its month is). An archive holds a table's month whole, so it is asked once a table and month,
    however many rounds (a list of incidents asks for all of its page's at once)."""
    pks = [pk for pk in pks if pk is not None]
    if not round_archives or not pks:
        return {}
    places, found = {}, {}
    for key in RoundKey.objects.filter(pk__in=pks):
        month = (key.table_id, key.gaming_day.replace(day=1))
        if month not in places:
            places[month] = _placed(key)
        if places[month] is not None:
            found[key.pk] = (key.round_id, places[month][1])
    return found


def incident_rounds(incident) -> set[int]:
    """The ids of an incident's rounds: the one it concerns and those it cancelled (whose refunds
    are kept with them, in the archive once their month is)."""
    return {incident.round_id, *(correction.round_id for correction in incident.corrections.all())} - {None}


def player_archive(player, first: date, last: date, *, limit: int) -> PlayerArchive | None:
    """The player's archived bets of the period (rounds.views.PlayRecordView); None when the period
    reaches no archived month."""
    found = [
        archived
        for archive in round_archives
        if (archived := archive.player_archive(player, first, last, limit=limit)) is not None
    ]
    if not found:
        return None
    return PlayerArchive(
        places=[place for archived in found for place in archived.places],
        bets=[bet for archived in found for bet in archived.bets],
        bet_count=sum(archived.bet_count for archived in found),
        totals=[row for archived in found for row in archived.totals],
    )


def player_archived_bets(player, first: date, last: date) -> Iterator[Bet]:
    """Every archived bet of the player's of the period, newest first (the play record's CSV of its
    archived bets). Each archive is asked now, so that one that cannot be read refuses before the
    first bet is sent."""
    return chain.from_iterable([archive.player_bets(player, first, last) for archive in round_archives])


def totals_merged(*sources: list[dict], keys: tuple[str, ...]) -> list[dict]:
    """Rows of bets, wagered and returned summed by `keys` (the play record's totals, from the database
    and from the archive), with their net (returned − wagered), ordered as the play record's: newest
    day first."""
    merged: dict[tuple, dict] = {}
    for rows in sources:
        for row in rows:
            key = tuple(row[name] for name in keys)
            total = merged.setdefault(
                key,
                {
                    **dict(zip(keys, key, strict=True)),
                    "bets": 0,
                    "wagered": Decimal(0),
                    "returned": Decimal(0),
                },
            )
            total["bets"] += row["bets"]
            total["wagered"] += row["wagered"]
            total["returned"] += row["returned"]
    rows = [{**row, "net": row["returned"] - row["wagered"]} for row in merged.values()]
    if "day" in keys:
        rows.sort(key=lambda row: tuple(row[name] for name in keys if name != "day"))
        rows.sort(key=lambda row: row["day"], reverse=True)
    else:
        rows.sort(key=lambda row: tuple(row[name] for name in keys))
    return rows


def archived_month(table, day: date) -> ArchivePlace | None:
    """Where the archive holds, or is taking, `table`'s rounds of gaming day `day`'s month: ingest
    refuses a round of that day (rounds.ingest.store). None when the round may be stored."""
    month = day.replace(day=1)
    for archive in round_archives:
        place = archive.month_place(table, month)
        if place is not None:
            return place
    return None
