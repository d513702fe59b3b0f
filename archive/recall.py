"""Archived rounds read back for the round page, the API and the play record (rounds.recall asks;
ArchiveConfig.ready() registers `ARCHIVE` in rounds.recall.round_archives).

A round's month is in the archive alone once its partitions are dropped (ArchivedMonth `dropped`).
The registry (rounds.registry.RoundKey) gives the round's id, gaming day and casino table: the month's
files to read. Each file is sorted by round id (archive.slices), so a query that names a round reads
the one or two row groups whose statistics can hold it (archive.month_files: DuckDB, and pyarrow
on S3). Each file is checked against the month's manifest before it is read (archive.checks): a
damaged or missing one is refused (rounds.archive_damage.ArchiveUnreadable: 409 or 503).

The rows become unsaved model instances with their ids as stored (money as Decimal, JSON as its
value), which the round page's templates and the API's serializers read as they read stored rows.
"""

from collections.abc import Iterator
from datetime import date
from itertools import groupby
from operator import attrgetter

from django.db import models

from limits.models import Player
from rounds.choices import ProposalStatus
from rounds.models import Adjustment, Bet, Finding, Refund, Round, RoundCorrection, VoidLine
from rounds.outcome import outcome_of
from rounds.partitions import PARTITION_COMMAND, month_of, month_unpartitioned
from rounds.querysets import PAID_OTHER_THAN_COMPUTED
from rounds.recall import ArchivePlace, PlayerArchive, RecalledRound
from rounds.registry import RoundKey

from .checks import month_checked
from .errors import ArchiveError
from .models import ArchivedMonth, ArchiveStatus
from .month_files import MonthFiles, model_rows
from .storage import archive_location
from .window import hot_window_start

RESTORE_COMMAND = "python manage.py archive_restore {table} {month:%Y-%m}"
# What the play record shows of a round: never its document (megabytes for a big round).
# A bet's round as the play record shows it, and its findings' count (counted at ingest, with the
# rows): the month's findings file is read only when a round counted some.
ROUND_SHOWN = [
    "id",
    "round_id",
    "table_id",
    "opened_at",
    "gaming_day",
    "status",
    "shoe_id",
    "number",
    "finding_count",
]


def archive_place(record: ArchivedMonth) -> ArchivePlace:
    return ArchivePlace(
        table_code=record.table.code,
        month=record.month,
        exported_at=record.exported_at,
        restore_command=RESTORE_COMMAND.format(table=record.table.code, month=record.month),
    )


def _outcomes(rounds: list[Round]) -> list[RoundCorrection]:
    """Each round's outcome: its status as sent and its correction (kept in the database). Returns
    the corrections."""
    corrections = RoundCorrection.objects.only("kind", "resettlement_id", "incident_id").in_bulk(
        [r.pk for r in rounds]
    )
    for round_ in rounds:
        correction = corrections.get(round_.pk)
        round_.outcome = outcome_of(round_.status, correction and correction.kind).value
    return list(corrections.values())


def _dropped_months(first: date, last: date) -> models.QuerySet:
    """The archived months (in the archive alone) that gaming days `first` to `last` reach."""
    return ArchivedMonth.objects.filter(
        status=ArchiveStatus.DROPPED, month__gte=month_of(first), month__lte=last
    ).select_related("table")


def _newest_first(bets: list[Bet]) -> None:
    """In the play record's order (rounds.views.PlayRecordView.order): newest round first, then id."""
    bets.sort(key=lambda bet: (bet.round.opened_at, bet.pk), reverse=True)


def _players(*groups: list) -> None:
    """Each row's player, from the database (players are never archived): one query, of the id
    shown."""
    ids = {row.player_id for rows in groups for row in rows}
    players = Player.objects.only("external_id").in_bulk(ids)
    for rows in groups:
        for row in rows:
            row.player = players[row.player_id]


def _player_month_totals(files: MonthFiles, player, first: date, last: date) -> list[dict]:
    """The player's bets of the period in one archived month, summed by gaming day and kind."""
    grouped = files.aggregate(
        "bets",
        "SELECT gaming_day, kind, count(*), sum(wagered), sum(returned) FROM {source} "
        "WHERE player_id = ? AND gaming_day BETWEEN ? AND ? GROUP BY gaming_day, kind",
        [player.pk, first, last],
        bounds=("gaming_day", first, last),
    )
    currency = files.record.table.currency
    return [
        {"day": day, "kind": kind, "currency": currency, "bets": n, "wagered": wagered, "returned": returned}
        for day, kind, n, wagered, returned in grouped
    ]


def _corrected(
    files: MonthFiles, corrections: list[RoundCorrection]
) -> tuple[list[Adjustment], list[Refund]]:
    """The adjustments and the refunds the rounds' corrections made: those of their re-settlements,
    and of the incidents that cancelled them (with other rounds' refunds when one cancelled several).
    A round was corrected once or never (RoundCorrection), so most rounds read neither file."""
    resettlements = sorted({c.resettlement_id for c in corrections if c.resettlement_id is not None})
    incidents = sorted({c.incident_id for c in corrections if c.incident_id is not None})
    adjustments, refunds = [], []
    if resettlements:
        rows = files.select("adjustments", "list_contains(?, resettlement_id)", [resettlements])
        adjustments = model_rows(Adjustment, rows)
    if incidents:
        refunds = model_rows(Refund, files.select("refunds", "list_contains(?, incident_id)", [incidents]))
    return adjustments, refunds


def _bets(files: MonthFiles, round_: Round, where: str, params: list) -> list[Bet]:
    """The round's bets where `where` holds, in id order, each with its round."""
    pk = round_.pk
    rows = files.select("bets", f"round_id = ? AND ({where})", [pk, *params], bounds=("round_id", pk, pk))
    bets = model_rows(Bet, rows)
    for bet in bets:
        bet.round = round_
    return bets


def _spot_bets(files: MonthFiles, round_: Round, spots: list[str] | None) -> list[Bet]:
    """The bets of the round's spots named `spots` (None: every bet), each with its player."""
    if spots is None:
        bets = _bets(files, round_, "true", [])
    else:
        bets = _bets(files, round_, "list_contains(?, spot)", [spots])
    _players(bets)
    return bets


class Archive:
    """The archive as rounds.recall asks it (rounds.recall.RoundArchive)."""

    def _record(self, key: RoundKey) -> ArchivedMonth | None:
        return (
            ArchivedMonth.objects.filter(
                table_id=key.table_id, month=month_of(key.gaming_day), status=ArchiveStatus.DROPPED
            )
            .select_related("table")
            .first()
        )

    def place_of(self, key: RoundKey) -> ArchivePlace | None:
        record = self._record(key)
        return None if record is None else archive_place(record)

    def recall(self, key: RoundKey, place: ArchivePlace, *, rows: bool = True) -> RecalledRound:
        record = self._record(key)
        if record is None:
            raise ArchiveError(f"Round {key.round_id}: its month is no longer in the archive alone")
        with MonthFiles(record) as files:
            found = files.select("rounds", "id = ?", [key.pk], bounds=("id", key.pk, key.pk))
            if not found:
                raise ArchiveError(f"Round {key.round_id} is not in {files.path('rounds')}")
            round_ = model_rows(Round, found)[0]
            round_.table = record.table
            corrections = _outcomes([round_])
            if not rows:
                return RecalledRound(round=round_, place=place)
            return self._rows(files, round_, place, corrections)

    def _rows(
        self, files: MonthFiles, round_: Round, place: ArchivePlace, corrections: list[RoundCorrection]
    ) -> RecalledRound:
        """What the round page shows beside its spots (read from the document): the findings, the bets
        paid other than computed, adjustments and refunds (each with its bet), the shoe's neighbours."""
        pk, bounds = round_.pk, ("round_id", round_.pk, round_.pk)
        findings = []
        if round_.finding_count:  # counted at ingest, with the rows
            findings = model_rows(Finding, files.select("findings", "round_id = ?", [pk], bounds=bounds))
        adjustments, refunds = _corrected(files, corrections)
        named = sorted({row.bet_id for row in (*findings, *adjustments, *refunds) if row.bet_id is not None})
        # One read for the bets paid other than computed and those the rows above name.
        read = _bets(
            files,
            round_,
            f"{PAID_OTHER_THAN_COMPUTED} OR list_contains(?, id)",
            [named],
        )
        differing = [bet for bet in read if bet.difference != 0]  # None: not computed
        by_pk = {bet.pk: bet for bet in read}
        # An incident's refunds may be of other rounds too: keep this round's.
        adjustments = [row for row in adjustments if row.bet_id in by_pk]
        refunds = [row for row in refunds if row.bet_id in by_pk]
        for row in (*findings, *adjustments, *refunds):
            if row.bet_id is not None:
                row.bet = by_pk[row.bet_id]
        _players(list(by_pk.values()))
        around = files.select(
            "rounds",
            "shoe_id = ? AND number IN (?, ?)",
            [round_.shoe_id, round_.number - 1, round_.number + 1],
            columns=["id", "round_id", "number", "shoe_id"],
        )
        neighbours = {row.number: row for row in model_rows(Round, around)}
        record = files.record

        def read_bets(spots: list[str] | None) -> list[Bet]:
            with MonthFiles(record) as again:
                return _spot_bets(again, round_, spots)

        return RecalledRound(
            round=round_,
            place=place,
            findings=findings,
            differing=differing,
            adjustments=adjustments,
            refunds=refunds,
            previous=neighbours.get(round_.number - 1),
            following=neighbours.get(round_.number + 1),
            read_bets=read_bets,
        )

    # --- a player's bets -------------------------------------------------------------------------

    def player_archive(self, player, first: date, last: date, *, limit: int) -> PlayerArchive | None:
        # A month is archived only once it has left the hot window, which only moves on: a period
        # that starts in it reaches no archived month (and costs no query).
        if first >= hot_window_start():
            return None
        records = list(_dropped_months(first, last).order_by("month", "table__code"))
        if not records:
            return None
        bets, totals, count = [], [], 0
        for record in records:
            with MonthFiles(record) as files:
                month_totals = _player_month_totals(files, player, first, last)
                if month_totals:
                    bets += self._player_month(files, player, first, last, limit)
            totals += month_totals
            count += sum(row["bets"] for row in month_totals)
        _newest_first(bets)
        bets = bets[:limit]
        self._annotate(bets)
        return PlayerArchive(
            places=[archive_place(record) for record in records], bets=bets, bet_count=count, totals=totals
        )

    def player_bets(self, player, first: date, last: date) -> Iterator[Bet]:
        if first >= hot_window_start():  # as player_archive: the period reaches no archived month
            return iter(())
        months = list(_dropped_months(first, last).order_by("-month", "table__code"))
        # Every file of the period checked now, before the first bet is read: a CSV whose month is
        # damaged is refused whole, not cut off part way through.
        for record in months:
            month_checked(record, archive_location(record.archive_url))
        return self._player_bets(player, first, last, months)

    def _player_bets(self, player, first: date, last: date, months: list[ArchivedMonth]) -> Iterator[Bet]:
        for _, records in groupby(months, key=attrgetter("month")):
            bets = []
            for record in records:
                with MonthFiles(record) as files:
                    bets += self._player_month(files, player, first, last, limit=None)
            _newest_first(bets)
            self._annotate(bets)
            yield from bets

    def _player_month(self, files: MonthFiles, player, first: date, last: date, limit: int | None):
        """The player's newest `limit` bets of the period in one archived month, each with its round,
        refund and adjustment."""
        where, params = "player_id = ? AND gaming_day BETWEEN ? AND ?", [player.pk, first, last]
        bounds = ("gaming_day", first, last)
        bets = model_rows(
            Bet,
            files.select("bets", where, params, bounds=bounds, order="round_id DESC, id DESC", limit=limit),
        )
        if not bets:
            return []
        round_ids = {bet.round_id for bet in bets}
        low, high = min(round_ids), max(round_ids)
        rounds = [
            r
            for r in model_rows(
                Round,
                files.select(
                    "rounds", "id BETWEEN ? AND ?", [low, high], columns=ROUND_SHOWN, bounds=("id", low, high)
                ),
            )
            if r.pk in round_ids
        ]
        for round_ in rounds:
            round_.table = files.record.table
        adjustments, refunds = _corrected(files, _outcomes(rounds))
        by_round = {r.pk: r for r in rounds}
        by_pk = {bet.pk: bet for bet in bets}
        breached_bets = set()
        if any(round_.finding_count for round_ in rounds):
            breached = files.select(
                "findings",
                "code = 'limit_breached' AND round_id BETWEEN ? AND ?",
                [low, high],
                columns=["bet_id", "round_id", "code"],
                bounds=("round_id", low, high),
                order="bet_id",
            )
            breached_bets = {row["bet_id"] for row in breached}
        adjusted: dict[int, object] = {}
        for adjustment in adjustments:
            if adjustment.bet_id in by_pk:
                adjusted[adjustment.bet_id] = adjusted.get(adjustment.bet_id, 0) + adjustment.amount
        refunded = {refund.bet_id: refund.amount for refund in refunds if refund.bet_id in by_pk}
        for bet in bets:
            bet.round = by_round[bet.round_id]
            bet.player = player
            bet.breached = bet.pk in breached_bets
            bet.adjustment = adjusted.get(bet.pk)
            bet.refund = refunded.get(bet.pk)
        return bets

    @staticmethod
    def _annotate(bets: list[Bet]) -> None:
        """What the play record shows beside a bet and the database keeps: its outcome (the round's)
        and its void's net (void lines stay in the database, pointing at the registry)."""
        voided = dict(
            VoidLine.objects.filter(bet_id__in=[bet.pk for bet in bets], void__status=ProposalStatus.APPROVED)
            .annotate(net=models.F("returned_stake") - models.F("reversed_returned"))
            .values_list("bet_id", "net")
        )
        for bet in bets:
            bet.outcome = bet.round.outcome
            bet.void = voided.get(bet.pk)

    # --- a round of an archived month, refused by ingest ---------------------------------------------

    def month_place(self, table, month: date) -> ArchivePlace | None:
        # A month is archived only once it has left the hot window, which only moves on: a round of
        # the hot window, nearly every round ingest takes, costs no query.
        if month >= hot_window_start():
            return None
        # Exporting, exported or verified: the month's export would no longer equal the database.
        # Dropped: the table's rows of the month are in the archive alone, and a round stored now would
        # not be. Deleted under retention: gone for good. Failed or restored: the month is the database's.
        refused = (
            ArchiveStatus.EXPORTING,
            ArchiveStatus.EXPORTED,
            ArchiveStatus.VERIFIED,
            ArchiveStatus.DROPPED,
            ArchiveStatus.DELETED,
        )
        gone = (ArchiveStatus.DROPPED, ArchiveStatus.DELETED)
        records = list(
            ArchivedMonth.objects.filter(month=month).select_related("table").order_by("table__code")
        )
        record = next((record for record in records if record.table_id == table.pk), None)
        if record is None:
            # The table had no rounds that month. Where every table's month is gone, so are the month's
            # partitions (the round would land in a default partition): restoring one makes them again.
            if not records or any(r.status not in gone for r in records):
                return _unpartitioned(table, month)
            record = min(records, key=lambda r: r.status != ArchiveStatus.DROPPED)  # a restorable one first
        elif record.status not in refused:
            return _unpartitioned(table, month)
        if record.status == ArchiveStatus.DROPPED:
            return archive_place(record)
        if record.status == ArchiveStatus.DELETED:
            restore = ""  # nothing brings the month back
        else:  # being archived: only a dropped month is restored
            restore = "python manage.py archive_months, then " + RESTORE_COMMAND.format(
                table=record.table.code, month=record.month
            )
        return ArchivePlace(
            table_code=record.table.code,
            month=record.month,
            exported_at=record.exported_at,
            restore_command=restore,
        )


def _unpartitioned(table, month: date) -> ArchivePlace | None:
    """A month past the hot window that the archive does not hold nor take, refused all the same when
    it has no partitions: a round of it would land in the default partition, and keep the month from
    being archived (archive.drop) until the month's partitions are made, by hand."""
    if not month_unpartitioned(month):
        return None
    return ArchivePlace(
        table_code=table.code,
        month=month,
        exported_at=None,
        restore_command=PARTITION_COMMAND.format(month=month),
        unpartitioned=True,
    )


ARCHIVE = Archive()
