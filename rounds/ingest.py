"""Taking in round documents from game servers: check, replay, store.

`round_ingest` is the one way a round enters Pitboss. A document that is not a round is refused
(RoundFormatError, a 400 naming the field) and nothing of it is stored; an identical resend
answers with the stored round; a different document under a known round id is refused
(RoundConflict, a 409). Everything else is stored as received, with normalised rows and every
finding: the engine's, the player's limits, and the integrity of the shoe across its rounds.

`rounds_ingest` takes a batch the same way, in two steps: every document is read and checked
first (one that is not a round refuses the whole batch, its field named `rounds[3].bets[2].stake`,
and nothing of the batch is stored), then all are stored in one transaction, each round in its
own savepoint, so that a conflict refuses only its own round and the others are stored.

Speed (a 5,000-player Boundless round, `make bench`): the rows go in by COPY (`bulk.py`), the
document is encoded once (its digest and its column share the text), players are read and
created in one statement each, a limit is worked out once per distinct (kind, player standing),
and the cyclic garbage collector waits while the round's many small objects are alive.
"""

import gc
import hashlib
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from config.gaming_day import gaming_day_of
from config.money import money_text
from limits.models import PersonalLimit, Player, TableLimit
from limits.selectors import effective_limit_from, personal_limits_in_force_by_player
from rounds.engine.document import RoundFormatError, RoundRecord, parse_round
from rounds.engine.replay import ReplayResult, replay
from rounds.engine.rules import BET_KINDS, RuleSet, kind_label, preset
from tables.models import Table, TableConfiguration
from tables.selectors import configuration_in_force

from .bulk import JsonText, insert_rows, json_text, reserve_ids_of, rows_written
from .models import Bet, Finding, Hand, Round, Shoe, Spot
from .table_state import TABLE_CLOSED, opened_while_closed
from .totals import round_totals_add

AFTER_MAX_ROUND = "side_option_after_max_round"

__all__ = ["IngestResult", "RoundConflict", "RoundFormatError", "round_ingest", "rounds_ingest"]


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


def document_digest(document: dict) -> str:
    return hashlib.sha256(json_text(document).encode()).hexdigest()


def round_ingest(*, document: object, plain_json: bool = False) -> IngestResult:
    """Store one round document: IngestResult(round, created); RoundFormatError; RoundConflict."""
    result = rounds_ingest(documents=[document], batch=False, plain_json=plain_json)[0]
    if result.conflict is not None:
        raise result.conflict
    return result


def rounds_ingest(*, documents: list, batch: bool = True, plain_json: bool = False) -> list[IngestResult]:
    """Store a batch of round documents, each on its own; a conflict is a result, not an error.

    Every document is read first: one that is not a round raises RoundFormatError naming it
    (`rounds[3].bets[2].stake`; with batch=False the field alone) and nothing is stored.
    plain_json: the documents were read from JSON text that held no float (the API's parser says
    so), so orjson encodes them to the same text as `json_text`, ten times faster.
    """
    with _cyclic_collector_paused():
        prepared = [
            _prepare(document, f"rounds[{index}]" if batch else "", plain_json)
            for index, document in enumerate(documents)
        ]
        closed = opened_while_closed([(item.table, item.record.opened_at) for item in prepared])
        for item, message in zip(prepared, closed, strict=True):
            item.findings += [_finding(TABLE_CLOSED, message)] if message else []
        with transaction.atomic():
            shoes, new_shoes = _shoes_locked(prepared)
            results = []
            for index, item in enumerate(prepared):
                # The next round is replayed while PostgreSQL writes this one's bets.
                meanwhile = partial(_replayed, prepared[index + 1]) if index + 1 < len(prepared) else None
                try:
                    results.append(_ingest_one(item, shoes[item.record.shoe], meanwhile))
                except RoundFormatError as error:
                    raise error.within(f"rounds[{index}]") if batch else error from None
                except RoundConflict as conflict:
                    results.append(IngestResult(None, created=False, conflict=conflict))
            # A shoe first seen in a refused document is not kept: it would bind the shoe's code to
            # this table before any of its rounds was accepted.
            Shoe.objects.filter(pk__in=[shoes[code].pk for code in new_shoes], rounds__isnull=True).delete()
            return results


@contextmanager
def _cyclic_collector_paused():
    """A 5,000-player round is some 100,000 small objects, none in a cycle: the cyclic collector's
    passes over them cost more than anything it could free (the engine's replay does the same)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# --- reading and replaying, before anything is locked or written -----------------------------


@dataclass
class _Prepared:
    record: RoundRecord
    document: JsonText
    digest: str
    table: Table
    configuration: TableConfiguration | None
    rules: RuleSet
    result: ReplayResult | None = None  # replayed when first needed (`_replayed`)
    findings: list[dict] = field(default_factory=list)


def _prepare(document: object, where: str, plain_json: bool = False) -> _Prepared:
    try:
        record = parse_round(document, strict_cards=True)
        encoded = _orjson_text(document) if plain_json else None
        if encoded is None:
            try:
                text = json_text(document)
                encoded = text.encode()
            except UnicodeEncodeError:
                raise RoundFormatError(
                    _lone_surrogate_at(document) or "document",
                    "holds a lone surrogate (such as \\ud800): not Unicode text",
                ) from None
            except (TypeError, ValueError) as error:
                raise RoundFormatError("document", f"is not JSON: {error}") from None
        else:
            text = encoded.decode()
        _refuse_times_ahead_of_the_clock(record)
        table = Table.objects.filter(code=record.table).first()
        if table is None:
            raise RoundFormatError("table", f"no table {record.table!r} is configured in Pitboss")
    except RoundFormatError as error:
        raise error.within(where) if where else error from None
    configuration = configuration_in_force(table, record.opened_at)
    rules = configuration.rule_set if configuration else preset(table.game)
    return _Prepared(
        record=record,
        document=JsonText(document, text),
        digest=hashlib.sha256(encoded).hexdigest(),
        table=table,
        configuration=configuration,
        rules=rules,
    )


def _refuse_times_ahead_of_the_clock(record: RoundRecord) -> None:
    """A round is played before it is sent: a time past the server's clock (beyond the tolerance for
    clocks that differ a little) would judge its bets against limits not in force yet."""
    tolerance = settings.PITBOSS_ROUND_CLOCK_TOLERANCE
    latest = timezone.now() + tolerance
    for name in ("opened_at", "closed_at"):
        moment = getattr(record, name)
        if moment is not None and moment > latest:
            minutes = int(tolerance.total_seconds() // 60)
            raise RoundFormatError(
                name,
                f"{moment.isoformat()} lies more than {minutes} minutes past the server's clock "
                f"({timezone.now().isoformat(timespec='seconds')}): a round is sent after it is played",
            )


def _replayed(item: _Prepared) -> ReplayResult:
    """The round's replay, worked out once: not before it is needed (an identical resend never
    is), and for a batch's next round while PostgreSQL writes the rows of the one before."""
    if item.result is None:
        item.result = replay(item.record, item.rules)
    return item.result


def _lone_surrogate_at(value: object, where: str = "document") -> str | None:
    """Where in the document a text (a key or a value) holds a lone surrogate, which JSON's
    \\uXXXX escapes can carry and UTF-8 cannot: "bets[0].bet_id" (for a key, its object)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not _is_unicode(key):
                return where
            found = _lone_surrogate_at(item, key if where == "document" else f"{where}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _lone_surrogate_at(item, f"{where}[{index}]")
            if found:
                return found
    elif isinstance(value, str) and not _is_unicode(value):
        return where
    return None


def _is_unicode(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _orjson_text(document: object) -> bytes | None:
    """`json_text(document)` as UTF-8, by orjson, for a document read from JSON without floats (the
    only values the two write differently); None where orjson cannot (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(document)
    except orjson.JSONEncodeError:
        return None


def _shoes_locked(prepared: list[_Prepared]) -> tuple[dict[str, Shoe], set[str]]:
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


# --- storing ---------------------------------------------------------------------------------


def _ingest_one(item: _Prepared, shoe: Shoe, meanwhile: Callable[[], object] | None = None) -> IngestResult:
    record = item.record
    stored = _stored(record.round_id, item)
    if stored:
        return IngestResult(stored, created=False)
    if shoe.table_id != item.table.pk:
        raise RoundFormatError(
            "shoe", f"shoe {shoe.code} belongs to table {shoe.table.code}, not {item.table.code}"
        )
    try:
        with transaction.atomic():
            return IngestResult(_store(item, shoe, meanwhile), created=True)
    except IntegrityError:
        # Another request stored the same round id a moment ago, or a bet id is another round's.
        stored = _stored(record.round_id, item)
        if stored:
            return IngestResult(stored, created=False)
        _raise_if_bet_ids_taken(record)
        raise


def _stored(round_id: str, item: _Prepared) -> Round | None:
    stored = Round.objects.filter(round_id=round_id).defer("document").first()
    if stored is None:
        return None
    if stored.document_sha256 != item.digest:
        # The same document with its keys in another order is the same document.
        document = Round.objects.values_list("document", flat=True).get(pk=stored.pk)
        if document != item.document.value:
            raise RoundConflict(round_id)
    return stored


def _raise_if_bet_ids_taken(record: RoundRecord) -> None:
    position = {bet.bet_id: index for index, bet in enumerate(record.bets)}
    taken = Bet.objects.filter(bet_id__in=list(position)).select_related("round").order_by("id").first()
    if taken is not None:
        raise RoundConflict(
            record.round_id,
            f"Bet {taken.bet_id} is already stored in round {taken.round.round_id}; nothing was changed.",
            field=f"bets[{position[taken.bet_id]}].bet_id",
        )


def _store(item: _Prepared, shoe: Shoe, meanwhile: Callable[[], object] | None = None) -> Round:
    """Write the round and its rows. The COPYs of the round, its spots, hands and bets are sent
    without waiting for PostgreSQL to be through each (ids taken first): the next table's rows are
    built meanwhile, and `meanwhile()` runs while the bets are written."""
    record, table, configuration = item.record, item.table, item.configuration
    result = _replayed(item)
    findings = [
        {"code": f.code, "bet": f.bet, "spot": f.spot or "", "hand": f.hand, "message": f.message}
        for f in result.findings
    ]
    if configuration is None:
        findings.append(
            _finding("no_configuration", f"{table.code} had no configuration in force at {record.opened_at}.")
        )
    findings += item.findings  # the table's status when the round opened
    findings += _shoe_findings(shoe, record, table)
    player_ids = {b.player for b in record.bets} | {s.player for s in record.spots}
    players = _players(record, table, player_ids)
    findings += _limit_findings(record, table, configuration, players)

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
    day = gaming_day_of(record.opened_at)
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
    ids = reserve_ids_of(
        {
            Round: 1,
            Spot: len(record.spots),
            Hand: sum(len(spot.hands) for spot in record.spots),
            Bet: len(record.bets),
        }
    )
    try:
        (round_pk,) = insert_rows(
            Round, list(round_fields), [tuple(round_fields.values())], ids=ids[Round], wait=False
        )
        spot_ids = insert_rows(
            Spot,
            ["round_id", "spot", "seat", "player_id"],
            [(round_pk, s.spot, s.seat, players[s.player].pk) for s in record.spots],
            ids=ids[Spot],
            wait=False,
        )
        hand_rows = []
        for spot_id, spot in zip(spot_ids, record.spots, strict=True):
            for position, hand in enumerate(spot.hands, start=1):
                hand_rows.append(
                    (round_pk, spot_id, position, " ".join(hand.cards), _actions_json(hand.actions))
                )
        insert_rows(
            Hand,
            ["round_id", "spot_id", "position", "cards", "actions"],
            hand_rows,
            ids=ids[Hand],
            wait=False,
        )
        player_pk = {external_id: player.pk for external_id, player in players.items()}
        # On PostgreSQL the amounts go to the COPY as their text, each distinct one made once
        # (psycopg's Decimal adapter is most of a bet row's formatting).
        money = _MONEY_TEXTS if connection.vendor == "postgresql" else _AMOUNTS_AS_THEY_ARE
        bet_ids = insert_rows(
            Bet,
            [
                "round_id",
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
            ],
            [
                (
                    round_pk,
                    b.bet_id,
                    player_pk[b.player],
                    b.spot,
                    b.kind,
                    money[b.stake],
                    money[b.wagered],
                    money[b.returned],
                    money[c.wagered],
                    money[c.returned],
                    c.pattern,
                    _NO_OPTIONS if b.kind in _KINDS_WITHOUT_OPTIONS else _bet_options(b),
                )
                for b, c in zip(record.bets, computed, strict=True)
            ],
            ids=ids[Bet],
            wait=False,
        )
        if meanwhile is not None:
            meanwhile()
        rows_written()
    except BaseException:
        # The connection must be free again before the savepoint is rolled back.
        with suppress(Exception):
            rows_written()
        raise
    row_of_bet = dict(zip((b.bet_id for b in record.bets), bet_ids, strict=True))
    if not record.cancelled:
        late = {f["bet"] for f in findings if f["code"] == AFTER_MAX_ROUND}
        round_totals_add(
            round_pk=round_pk,
            table_pk=table.pk,
            configuration_pk=round_fields["configuration_id"],
            day=day,
            bets=(
                (b.kind, b.stake, b.wagered, b.returned, c.pattern, b.bet_id in late)
                for b, c in zip(record.bets, computed, strict=True)
            ),
        )
    insert_rows(
        Finding,
        ["round_id", "code", "bet_id", "spot", "hand", "message"],
        [
            (round_pk, f["code"], row_of_bet.get(f["bet"]), f["spot"], f["hand"], f["message"])
            for f in findings
        ],
    )
    round_ = Round.objects.defer("document").select_related("table", "shoe").get(pk=round_pk)
    if record.cancelled:
        from .services import incident_attach_cancelled_round

        incident_attach_cancelled_round(round_=round_)
    return round_


def _finding(code: str, message: str, *, bet: str | None = None, spot: str = "") -> dict:
    return {"code": code, "bet": bet, "spot": spot, "hand": None, "message": message}


# A bet's options and a hand's decisions repeat across a round's rows: each distinct value is
# encoded once, and carried with its text (bulk.JsonText) to the COPY.
_NO_OPTIONS = JsonText({}, "{}")
_KINDS_WITHOUT_OPTIONS = frozenset(BET_KINDS) - {"behind", "insurance"}
_JSON_KEPT = 10_000
_options_json: dict[tuple, JsonText] = {}
_actions_json_kept: dict[tuple, JsonText] = {}


class _MoneyTexts(dict):
    """Amount -> its text, as psycopg would write it (str of a Decimal; None stays None), made on
    first use. Equal amounts may share a text ("10.0", "10.00"): the columns keep cents alike."""

    def __missing__(self, amount):
        if len(self) >= _JSON_KEPT:
            self.clear()
        text = self[amount] = None if amount is None else str(amount)
        return text


class _AmountsAsTheyAre(dict):
    def __missing__(self, amount):
        return amount


_MONEY_TEXTS = _MoneyTexts()
_AMOUNTS_AS_THEY_ARE = _AmountsAsTheyAre()


def _bet_options(bet) -> JsonText:
    if bet.kind == "behind":
        key = (bet.follow_double, bet.follow_split, bet.followed_double, bet.followed_split)
        options = _options_json.get(key)
        if options is None:
            value = {"follow_double": bet.follow_double, "follow_split": bet.follow_split}
            if bet.followed_double is not None:
                value["followed_double"] = bet.followed_double
            if bet.followed_split is not None:
                value["followed_split"] = bet.followed_split
            options = JsonText(value)
            if len(_options_json) < _JSON_KEPT:
                _options_json[key] = options
        return options
    if bet.kind == "insurance" and bet.behind:
        return _BEHIND_INSURANCE
    return _NO_OPTIONS


_BEHIND_INSURANCE = JsonText({"behind": True})


def _actions_json(actions: list) -> JsonText:
    """A hand's decisions as stored: each a label, or {"action", "requested"} where the system
    decided otherwise than the player asked."""
    key = tuple(actions)
    text = _actions_json_kept.get(key)
    if text is None:
        text = JsonText(
            [
                a.label if a.requested is None else {"action": a.label, "requested": a.requested}
                for a in actions
            ]
        )
        if len(_actions_json_kept) < _JSON_KEPT:
            _actions_json_kept[key] = text
    return text


# --- players and their limits ---------------------------------------------------------------


class _PlayerRow(NamedTuple):
    """What ingest needs of a player: 5,000 of these cost a fraction of 5,000 model instances (and
    as a tuple, a fraction of 5,000 frozen dataclasses)."""

    pk: int
    external_id: str
    account_type: str
    status: str
    currency: str

    def as_player(self) -> Player:
        return Player(
            id=self.pk,
            external_id=self.external_id,
            account_type=self.account_type,
            status=self.status,
            currency=self.currency,
        )


_PLAYER_ROW_FIELDS = ["id", "external_id", "account_type", "status", "currency"]
_PLAYER_FIELDS = [f.attname for f in Player._meta.concrete_fields]


def _players(record: RoundRecord, table: Table, player_ids: set[str]) -> dict[str, _PlayerRow]:
    """Every player of the round by external id; one the game server sends first is created as a
    real-money account in the table's currency, with its history record."""
    ids = sorted(player_ids)
    known = _players_named(ids)
    missing = [external_id for external_id in ids if external_id not in known]
    if missing:
        _players_create(missing, table.currency, f"First seen in round {record.round_id}")
        known = _players_named(ids)
    return known


def _players_named(ids: list[str]) -> dict[str, _PlayerRow]:
    if connection.vendor != "postgresql":
        rows = Player.objects.filter(external_id__in=ids).values_list(*_PLAYER_ROW_FIELDS)
    else:
        # One array parameter, written as its text: an IN list of 5,000 values costs Django more to
        # build than the query, and psycopg's array adapter most of the rest.
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {', '.join(_PLAYER_ROW_FIELDS)} FROM {Player._meta.db_table} "
                "WHERE external_id = ANY(%s::text[])",
                [_text_array(ids)],
            )
            rows = cursor.fetchall()
    make = _PlayerRow._make
    return {row[1]: make(row) for row in rows}


def _text_array(values: list[str]) -> str:
    """PostgreSQL's text for an array of strings: each element quoted, its quotes and backslashes
    escaped."""
    return "{" + ",".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values) + "}"


def _players_create(external_ids: list[str], currency: str, reason: str) -> None:
    now = timezone.now()
    if connection.vendor == "postgresql":
        # ON CONFLICT: a player first seen by two rounds at once is created once.
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {Player._meta.db_table} "
                "(external_id, display_name, account_type, currency, status, created_at) "
                "SELECT unnest(%s::text[]), '', 'real', %s, 'active', %s "
                "ON CONFLICT (external_id) DO NOTHING RETURNING id",
                [external_ids, currency, now],
            )
            created = [row[0] for row in cursor.fetchall()]
    else:
        new = [
            Player(external_id=external_id, currency=currency, account_type="real", created_at=now)
            for external_id in external_ids
        ]
        Player.objects.bulk_create(new, ignore_conflicts=True)  # writes are serialised here
        created = list(Player.objects.filter(external_id__in=external_ids).values_list("id", flat=True))
    history = Player.history.model
    fields = [*_PLAYER_FIELDS, "history_date", "history_change_reason", "history_type", "history_user_id"]
    insert_rows(
        history,
        fields,
        [
            (*(getattr(p, f) for f in _PLAYER_FIELDS), now, reason[:100], "+", None)
            for p in Player.objects.filter(pk__in=created)
        ],
    )


def _with_personal_limits(player_pks: list[int]) -> list[int]:
    """Those of the players who ever set a personal limit (few: the rest need no more reading)."""
    if connection.vendor != "postgresql":
        return list(
            PersonalLimit.objects.filter(player_id__in=player_pks)
            .values_list("player_id", flat=True)
            .distinct()
        )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT player_id FROM {PersonalLimit._meta.db_table} "
            "WHERE player_id = ANY(%s::bigint[])",
            ["{" + ",".join(map(str, player_pks)) + "}"],
        )
        return [row[0] for row in cursor.fetchall()]


def _limit_findings(
    record: RoundRecord, table: Table, configuration, players: dict[str, _PlayerRow]
) -> list[dict]:
    if configuration is None:
        return []
    findings = []
    seated = configuration.rule_set.seats is not None
    refused_seats = set()
    seat_allowed = {}  # by account type
    for spot in record.spots:
        player = players[spot.player]
        if player.account_type not in seat_allowed:
            seat_allowed[player.account_type] = player.as_player().may_take_a_seat
        if seated and spot.hands and not seat_allowed[player.account_type]:
            refused_seats.add(spot.spot)
            findings.append(
                _finding(
                    "seat_not_allowed",
                    f"Player {player.external_id} ({player.as_player().get_account_type_display().lower()}) "
                    f"sits in seat {spot.seat}; only real-money accounts may take a seat.",
                    spot=spot.spot,
                )
            )
    table_limits = {limit.kind: limit for limit in TableLimit.objects.filter(table=table)}
    # Judged when the round opened, but never later than now: a round dated a little ahead (within the
    # clock tolerance) must not find a pending raise in force before its time.
    judged_at = min(record.opened_at, timezone.now())
    personal = personal_limits_in_force_by_player(
        _with_personal_limits([p.pk for p in players.values()]), judged_at
    )
    # A limit depends on the bet kind and the player's standing, not on who the player is:
    # worked out once per distinct pair, not once per bet; a stake inside its range says nothing.
    standings: dict[tuple, int] = {}  # a standing -> a small number, cheaper to hash in every bet's key
    standing = {
        external_id: standings.setdefault(
            (
                player.account_type,
                player.status,
                player.currency,
                tuple(limit.pk for limit in personal.get(player.pk, ())),
            ),
            len(standings),
        )
        for external_id, player in players.items()
    }
    ranges = {}
    for bet in record.bets:
        key = (bet.kind, bet.behind, standing[bet.player])
        limit = ranges.get(key)
        if limit is None or (limit.reasons and limit.player != bet.player):
            # A refusal's reasons name the player: those are worked out for each one.
            player = players[bet.player]
            own = personal.get(player.pk, [])
            limit = ranges[key] = effective_limit_from(
                player.as_player(),
                table,
                bet.kind,
                configuration=lambda: configuration,
                table_limit=table_limits.get,
                personal_limits=lambda own=own: own,
                insured="behind" if bet.behind else "main",
            )
        if not limit.reasons and limit.min_stake <= bet.stake <= limit.max_stake:
            continue
        if bet.kind == "main" and bet.spot in refused_seats:
            continue  # said once already, as the seat
        refusal = limit.refuses(bet.stake)
        if refusal:
            player = players[bet.player]
            findings.append(
                _finding(
                    "limit_breached",
                    f"Bet {bet.bet_id} ({kind_label(bet.kind)}) of player {player.external_id} stakes "
                    f"{money_text(bet.stake)}: {refusal}",
                    bet=bet.bet_id,
                    spot=bet.spot,
                )
            )
    return findings


# --- the shoe across its rounds ----------------------------------------------------------------


def _shoe_findings(shoe: Shoe, record: RoundRecord, table: Table) -> list[dict]:
    findings = []
    earlier = list(Round.objects.filter(shoe=shoe).values_list("number", "cut_card", "cards_taken"))
    numbers = {number for number, _, _ in earlier}
    if record.number in numbers:
        findings.append(
            _finding("shoe_round_repeated", f"Shoe {shoe.code} already has a round {record.number}.")
        )
    elif numbers and record.number > max(numbers) + 1:
        skipped = record.number - max(numbers) - 1
        findings.append(
            _finding(
                "shoe_round_gap",
                f"Round {record.number} of shoe {shoe.code} follows round {max(numbers)}: {skipped} missing.",
            )
        )
    cut = [number for number, cut_card, _ in earlier if cut_card]
    if cut and record.number > min(cut):
        findings.append(
            _finding(
                "shoe_after_cut_card",
                f"Round {record.number} of shoe {shoe.code} comes after round {min(cut)}, "
                "the cut-card round that ends the shoe.",
            )
        )
    taken = Counter(record.physical_cards())
    counts = Counter(taken)
    limit = preset(table.game).decks
    for _, _, cards in earlier:
        counts.update(cards.split())
    for card in sorted(card for card, count in counts.items() if count > limit):
        if taken[card]:
            findings.append(
                _finding(
                    "shoe_card_count_exceeded",
                    f"{card} has now appeared {counts[card]} times in shoe {shoe.code}; "
                    f"{limit} decks hold {limit}.",
                )
            )
    return findings
