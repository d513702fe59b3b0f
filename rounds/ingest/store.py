"""Storing a prepared round: an identical resend answers with the stored round, a different
document under its id is a conflict, and so is a round of a month the archive holds or is taking
(rounds.recall.archived_month); anything else is written with its rows, findings and totals."""

from collections import Counter
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from blackjack.document import RoundFormatError, RoundRecord
from blackjack.rules import BET_KINDS
from core.gaming_day import gaming_day_of
from live.services import live_add, round_figures

from ..bulk import JsonText
from ..choices import finding_class
from ..live_figures import live_place
from ..models import Bet, BetKey, Finding, Round, RoundKey, Shoe
from ..recall import ArchivePlace, archived_month
from ..totals import kind_sums, round_totals_add
from .findings import AFTER_MAX_ROUND, limit_findings, replay_findings, shoe_findings
from .players import players_of_round
from .prepare import Prepared, replayed
from .writer import RoundWriter

# A bet row's columns as ingest writes them, in the order of its COPY.
BET_COLUMNS = [
    "round_id",
    "gaming_day",
    "bet_id",
    "player_id",
    "spot",
    "kind",
    "stake",
    "wagered",
    "returned",
    "computed_wagered",
    "computed_returned",
    "computed_pattern",
    "options",
]


class RoundConflict(Exception):
    """A different document under a round id that is already stored (or a bet id another round
    holds): nothing of it is stored. `field` names where, `message` says what."""

    def __init__(self, round_id: str, message: str | None = None, *, field: str = "round_id"):
        self.round_id = round_id
        self.field = field
        self.message = message or (
            f"Round {round_id} is already stored with a different document; nothing was changed."
        )
        super().__init__(self.message)


@dataclass
class IngestResult:
    round: Round | None
    created: bool  # False: an identical resend of a stored round (or a conflict)
    conflict: RoundConflict | None = None  # only in a batch's results


def shoes_locked(prepared: list[Prepared]) -> tuple[dict[str, Shoe], set[str]]:
    """Every shoe of the batch, created if new, locked in the order of their codes: one round of a
    shoe is checked against its earlier rounds at a time, and two batches cannot deadlock. With the
    codes of the shoes created here."""
    tables = {}
    for item in prepared:
        tables.setdefault(item.record.shoe, item.table)
    created = set()
    for code, table in sorted(tables.items()):
        if Shoe.objects.get_or_create(code=code, defaults={"table": table})[1]:
            created.add(code)
    shoes = Shoe.objects.select_for_update().filter(code__in=tables).select_related("table").order_by("code")
    return {shoe.code: shoe for shoe in shoes}, created


def ingest_one(item: Prepared, shoe: Shoe) -> IngestResult:
    record = item.record
    stored = _stored(record.round_id, item)
    if stored:
        return IngestResult(stored, created=False)
    day = gaming_day_of(record.opened_at)
    place = archived_month(item.table, day)  # no query for a day of the hot window
    if place is not None:
        raise _archived_month_conflict(record, day, place)
    if shoe.table_id != item.table.pk:
        raise RoundFormatError(
            "shoe", f"shoe {shoe.code} belongs to table {shoe.table.code}, not {item.table.code}"
        )
    try:
        with transaction.atomic():
            return IngestResult(_store(item, shoe, day), created=True)
    except IntegrityError:
        # Another request stored the same round id a moment ago, or a bet id is another round's.
        stored = _stored(record.round_id, item)
        if stored:
            return IngestResult(stored, created=False)
        _raise_if_bet_ids_taken(record)
        raise


def _stored(round_id: str, item: Prepared) -> Round | None:
    stored = Round.objects.by_round_id(round_id).defer("document").first()
    if stored is None:
        return None
    if stored.document_sha256 != item.digest:
        # The same document with its keys in another order is the same document.
        document = Round.objects.values_list("document", flat=True).get(pk=stored.pk)
        if document != item.document.value:
            raise RoundConflict(round_id)
    return stored


def _archived_month_conflict(record: RoundRecord, day: date, place: ArchivePlace) -> RoundConflict:
    """A round of a month the archive holds (the month's partitions are dropped: the round would land
    in a default partition) or is taking (the month would no longer equal its export): refused, named
    by `opened_at` (its gaming day's source), until the month is restored."""
    where = f"Round {record.round_id} opened on gaming day {day:%Y-%m-%d}, in {place.month:%Y-%m}"
    if place.unpartitioned:
        message = (
            f"{where}, a month past the hot window that was never archived and has no partitions: the "
            "round would land in the default partition and keep the month from being archived, so nothing "
            f"was stored. Make the month's partitions first ({place.restore_command}), then send the "
            "round again."
        )
    elif not place.restore_command:
        message = (
            f"{where}, a month whose archive was deleted under retention: nothing was stored, and the "
            "month cannot be restored."
        )
    else:
        message = (
            f"{where}, a month of round history that is archived: nothing was stored. Restore the month "
            f"first ({place.restore_command}), then send the round again; the next archive_months "
            "archives the month again, with it."
        )
    return RoundConflict(record.round_id, message, field="opened_at")


def _raise_if_bet_ids_taken(record: RoundRecord) -> None:
    position = {bet.bet_id: index for index, bet in enumerate(record.bets)}
    taken = BetKey.objects.filter(bet_id__in=list(position)).select_related("round").order_by("id").first()
    if taken is not None:
        raise RoundConflict(
            record.round_id,
            f"Bet {taken.bet_id} is already stored in round {taken.round.round_id}; nothing was changed.",
            field=f"bets[{position[taken.bet_id]}].bet_id",
        )


def _store(item: Prepared, shoe: Shoe, day: date) -> Round:
    """Write the round and its rows (by one RoundWriter), its totals and its findings; `day` is its
    gaming day."""
    record, table, configuration = item.record, item.table, item.configuration
    result = replayed(item)
    findings = replay_findings(result, record, table, configuration)
    findings += item.findings  # the table's status when the round opened
    findings += shoe_findings(shoe, record, table)
    player_ids = {b.player for b in record.bets} | {s.player for s in record.spots}
    players = players_of_round(record, table, player_ids)
    findings += limit_findings(record, table, configuration, players)

    bets = result.bets
    # One pass over the bets for the round's sums (each bet's computed amounts looked up once).
    wagered = returned = computed_wagered = computed_returned = 0
    computed = []
    for b in record.bets:
        c = bets[b.bet_id]
        computed.append(c)
        wagered += b.wagered
        returned += b.returned
        computed_wagered += c.wagered or 0
        computed_returned += c.returned or 0
    round_fields = {
        "round_id": record.round_id,
        "table_id": table.pk,
        "shoe_id": shoe.pk,
        "number": record.number,
        "opened_at": record.opened_at,
        "gaming_day": day,
        "closed_at": record.closed_at,
        "status": record.status,
        "cancel_reason": record.cancel_reason or "",
        "cut_card": record.cut_card,
        "configuration_id": configuration.pk if configuration else None,
        "document": item.document,
        "document_sha256": item.digest,
        "dealer_cards": " ".join(record.dealer),
        "shared": {"initial": record.shared.initial, "draws": record.shared.draws} if record.shared else None,
        "dealt_by": record.dealt_by,
        "cards_taken": " ".join(record.physical_cards()),
        "players": len(player_ids),
        "bet_count": len(record.bets),
        "wagered": wagered,
        "returned": returned,
        "computed_wagered": computed_wagered,
        "computed_returned": computed_returned,
        "finding_count": len(findings),
        "review_comment": "",
        "ingested_at": timezone.now(),
    }
    writer = RoundWriter(
        {
            Round: 1,
            Bet: len(record.bets),
            Finding: len(findings),
        }
    )
    (round_pk,) = writer.write(Round, list(round_fields), [tuple(round_fields.values())])
    # A round id (or below, a bet id) another round holds is refused by the registry.
    writer.write(
        RoundKey, ["round_id", "gaming_day", "table_id"], [(record.round_id, day, table.pk)], ids=[round_pk]
    )
    player_pk = {external_id: player.pk for external_id, player in players.items()}
    # On PostgreSQL the amounts go to the COPY as their text, each distinct one made once
    # (psycopg's Decimal adapter is most of a bet row's formatting).
    money = _money_text if connection.vendor == "postgresql" else _amount_as_it_is
    bet_ids = writer.write(
        Bet,
        BET_COLUMNS,
        [
            (
                round_pk,
                day,
                b.bet_id,
                player_pk[b.player],
                b.spot,
                b.kind,
                money(b.stake),
                money(b.wagered),
                money(b.returned),
                money(c.wagered),
                money(c.returned),
                c.pattern,
                _NO_OPTIONS if b.kind in _KINDS_WITHOUT_OPTIONS else _bet_options(b),
            )
            for b, c in zip(record.bets, computed, strict=True)
        ],
    )
    # The registry in bet-id order: its unique index then grows at its right end for a game server
    # whose ids ascend, and its pages are left full. In the document's order (B1, B2 … B10, which
    # sorts before B2) they split half empty: 70 against 41 bytes a bet, measured on three
    # 5,000-player rounds.
    registered = sorted(zip((b.bet_id for b in record.bets), bet_ids, strict=True))
    writer.write(
        BetKey,
        ["bet_id", "round_id"],
        [(bet_id, round_pk) for bet_id, _ in registered],
        ids=[bet_pk for _, bet_pk in registered],
    )
    row_of_bet = dict(zip((b.bet_id for b in record.bets), bet_ids, strict=True))
    late = {f["bet"] for f in findings if f["code"] == AFTER_MAX_ROUND}
    kinds, hits = kind_sums(
        (b.kind, b.stake, b.wagered, b.returned, c.pattern, b.bet_id in late)
        for b, c in zip(record.bets, computed, strict=True)
    )
    if not record.cancelled:
        round_totals_add(
            round_pk=round_pk,
            table_pk=table.pk,
            configuration_pk=round_fields["configuration_id"],
            day=day,
            kinds=kinds,
            hits=hits,
        )
    live_add(
        place=live_place(
            table_pk=table.pk,
            day=day,
            opened_at=record.opened_at,
            shoe=shoe.code,
            dealt_by=record.dealt_by,
            configuration_pk=round_fields["configuration_id"],
        ),
        figures=round_figures(
            cancelled=record.cancelled,
            players=len(player_ids),
            findings=Counter(finding_class(f["code"]) for f in findings),
            kinds=kinds,
        ),
    )
    writer.write(
        Finding,
        ["round_id", "gaming_day", "code", "bet_id", "spot", "hand", "message"],
        [
            (round_pk, day, f["code"], row_of_bet.get(f["bet"]), f["spot"], f["hand"], f["message"])
            for f in findings
        ],
    )
    round_ = Round.objects.defer("document").select_related("table", "shoe").get(pk=round_pk)
    if record.cancelled:
        from ..services import incident_attach_cancelled_round

        incident_attach_cancelled_round(round_=round_)
    return round_


# A bet's options and the amounts repeat across a round's rows: each distinct
# value is encoded once, and a JSON value carried with its text (bulk.JsonText) to the COPY.
_NO_OPTIONS = JsonText({}, "{}")
_BEHIND_INSURANCE = JsonText({"behind": True})
_KINDS_WITHOUT_OPTIONS = frozenset(BET_KINDS) - {"behind", "insurance"}
_KEPT = 10_000


@lru_cache(maxsize=_KEPT)
def _money_text(amount):
    """An amount's text, as psycopg would write it (str of a Decimal; None stays None). Equal
    amounts may share a text ("10.0", "10.00"): the columns keep cents alike."""
    return None if amount is None else str(amount)


def _amount_as_it_is(amount):
    return amount


def _bet_options(bet) -> JsonText:
    if bet.kind == "behind":
        return _behind_options(bet.follow_double, bet.follow_split, bet.followed_double, bet.followed_split)
    if bet.kind == "insurance" and bet.behind:
        return _BEHIND_INSURANCE
    return _NO_OPTIONS


@lru_cache(maxsize=_KEPT)
def _behind_options(follow_double, follow_split, followed_double, followed_split) -> JsonText:
    value = {"follow_double": follow_double, "follow_split": follow_split}
    if followed_double is not None:
        value["followed_double"] = followed_double
    if followed_split is not None:
        value["followed_split"] = followed_split
    return JsonText(value)
