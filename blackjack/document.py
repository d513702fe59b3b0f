"""Reading a round document (format 1, docs/round-format.md) into plain records.

`parse_round` refuses anything that is not a round document at all with a `RoundFormatError`
naming the field. Everything that is a round but breaks a rule (an impossible card, a wrong
payout, a forbidden double) is left for `replay` to report as a finding.
"""

import re
import string
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import NamedTuple

from .amounts import AMOUNTS_READ, MAX_AMOUNT_DIGITS, amount_of
from .cards import CARD_SET, is_card
from .rules import BET_KINDS

ACTIONS = frozenset({"hit", "stand", "double", "split", "surrender"})
STATUSES = frozenset({"completed", "cancelled"})
CANCEL_REASONS = frozenset({"card_unreadable", "network_failure", "malfunction", "procedure_error"})
# An id (round, shoe, table, spot, player, bet) is 1 to 64 of these ASCII characters, and not only
# dots: safe in a URL path, a file name and a log line without escaping.
MAX_ID_LENGTH = 64
ID_CHARACTERS = "A-Z a-z 0-9 . _ : -"
_ID_PUNCTUATION = "._:-"
_ID = re.compile(rf"[A-Za-z0-9{re.escape(_ID_PUNCTUATION)}]{{1,{MAX_ID_LENGTH}}}")
# The same alphabet as a set, for the fast path (`_name`), which avoids the pattern's per-call cost.
_ID_ALPHABET = frozenset(string.ascii_letters + string.digits + _ID_PUNCTUATION)
# Words that name the portal's own pages where a round's or a player's page would be
# (/rounds/incidents/, /limits/players/new/): no round or player may be called so.
RESERVED_ROUND_IDS = frozenset({"incidents", "players", "resettlements", "voids"})
RESERVED_PLAYER_IDS = frozenset({"new"})
# The round's number in its shoe is stored in a 32-bit column.
MAX_ROUND_NUMBER = 2**31 - 1
# A seat number; one the table does not have is a finding (seat_invalid), not a refusal.
MAX_SEAT = 999
# A hand stops at 21, and every card counts at least 1: 21 aces is the most a hand can hold.
MAX_HAND_CARDS = 21
# A shared deal's cards come from one shoe: 8 decks at most.
MAX_SHOE_CARDS = 8 * 52
# Rounds are played in this century: earlier or far-future times cannot be a gaming day.
EARLIEST_TIME = datetime(2000, 1, 1, tzinfo=UTC)
# Bet kinds that carry no options of their own (behind and insurance do).
_KINDS_WITHOUT_OPTIONS = frozenset(BET_KINDS) - {"behind", "insurance"}


class RoundFormatError(ValueError):
    """The document is not a round: `field` is where ("bets[2].stake"), `message` says what."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def within(self, prefix: str) -> "RoundFormatError":
        """The same error placed in the document: "stake" inside bets[2] is "bets[2].stake"."""
        return RoundFormatError(f"{prefix}.{self.field}" if self.field else prefix, self.message)


class Action(NamedTuple):
    name: str  # hit, stand, double, split or surrender
    auto: bool = False  # the system decided for the player
    requested: str | None = None  # what the player asked for, when the system decided otherwise

    @property
    def label(self) -> str:
        return f"auto_{self.name}" if self.auto else self.name


@dataclass(slots=True)
class HandRecord:
    cards: list[str]
    actions: list[Action]


@dataclass(slots=True)
class SpotRecord:
    spot: str
    seat: int | None
    player: str
    hands: list[HandRecord]


@dataclass(slots=True)
class BetRecord:
    bet_id: str
    player: str
    kind: str
    spot: str
    stake: Decimal
    wagered: Decimal
    returned: Decimal
    follow_double: bool = False
    follow_split: bool = False
    followed_double: bool | None = None
    followed_split: bool | None = None
    behind: bool = False  # an insurance bet of a play-behind player


@dataclass(slots=True)
class SharedDeal:
    initial: list[str]
    draws: list[str]


@dataclass(slots=True)
class RoundRecord:
    round_id: str
    table: str
    shoe: str
    number: int
    opened_at: datetime
    closed_at: datetime
    status: str
    cancel_reason: str | None
    cut_card: bool
    dealer: list[str]
    shared: SharedDeal | None
    spots: list[SpotRecord]
    bets: list[BetRecord]
    spots_by_id: dict[str, SpotRecord] = field(default_factory=dict)
    dealt_by: str = ""  # the game server's id of who dealt it; "" when the document does not say

    @property
    def cancelled(self) -> bool:
        return self.status == "cancelled"

    def physical_cards(self) -> list[str]:
        """The cards the round took from the shoe: a shared deal's cards once, not once per player."""
        if self.shared is not None:
            return self.dealer + self.shared.initial + self.shared.draws
        return self.dealer + [card for spot in self.spots for hand in spot.hands for card in hand.cards]


def parse_round(document: object, *, strict_cards: bool = False) -> RoundRecord:
    """The round in `document`; with strict_cards a card that does not exist is refused too."""
    reader = _Reader(strict_cards)
    return reader.round(document)


class _Reader:
    def __init__(self, strict_cards: bool):
        self.strict_cards = strict_cards
        # The round's spots and their players, read before its bets: a bet naming one of them needs
        # no second check of that id.
        self.spots_by_id: dict[str, SpotRecord] = {}
        self.players: set[str] = set()

    def round(self, doc: object) -> RoundRecord:
        doc = _object(doc, "document")
        if type(doc.get("format")) is not int or doc["format"] != 1:  # not 1.0, not True
            raise RoundFormatError("format", "must be 1")
        status = _choice(doc, "status", STATUSES, "")
        cancel_reason = None
        if status == "cancelled":
            cancel_reason = _choice(doc, "cancel_reason", CANCEL_REASONS, "")
        opened_at = _timestamp(doc, "opened_at")
        closed_at = _timestamp(doc, "closed_at")
        if closed_at < opened_at:
            raise RoundFormatError("closed_at", "is before opened_at")
        number = _required(doc, "number", "")
        if type(number) is not int or not 1 <= number <= MAX_ROUND_NUMBER:
            raise RoundFormatError("number", f"must be a whole number from 1 to {MAX_ROUND_NUMBER}")
        cut_card = _required(doc, "cut_card", "")
        if not isinstance(cut_card, bool):
            raise RoundFormatError("cut_card", "must be true or false")
        round_id = _id(doc, "round_id", "")
        if round_id in RESERVED_ROUND_IDS:
            raise RoundFormatError("round_id", f"{round_id!r} names a page of Pitboss: not a round id")
        record = RoundRecord(
            round_id=round_id,
            table=_id(doc, "table", ""),
            shoe=_id(doc, "shoe", ""),
            number=number,
            opened_at=opened_at,
            closed_at=closed_at,
            status=status,
            cancel_reason=cancel_reason,
            cut_card=cut_card,
            dealer=self.cards(_required(doc, "dealer", ""), "dealer", MAX_HAND_CARDS),
            shared=self.shared(doc),
            spots=[],
            bets=[],
            spots_by_id=self.spots_by_id,
            dealt_by=_optional_id(doc, "dealt_by"),
        )
        for index, spot in enumerate(_list(doc, "spots", "")):
            try:
                parsed = self.spot(spot)
                if parsed.spot in record.spots_by_id:
                    raise RoundFormatError("spot", f"spot {parsed.spot!r} appears twice")
            except RoundFormatError as error:
                raise error.within(f"spots[{index}]") from None
            record.spots_by_id[parsed.spot] = parsed
            record.spots.append(parsed)
            self.players.add(parsed.player)
        bet_ids = set()
        for index, bet in enumerate(_list(doc, "bets", "")):
            try:
                parsed = self.bet(bet)
                if parsed.bet_id in bet_ids:
                    raise RoundFormatError("bet_id", f"bet {parsed.bet_id!r} appears twice")
                if parsed.spot not in record.spots_by_id:
                    raise RoundFormatError("spot", f"there is no spot {parsed.spot!r} in this round")
            except RoundFormatError as error:
                raise error.within(f"bets[{index}]") from None
            bet_ids.add(parsed.bet_id)
            record.bets.append(parsed)
        return record

    def cards(self, value: object, where: str, most: int) -> list[str]:
        if not isinstance(value, list):
            raise RoundFormatError(where, "must be a list of cards")
        if len(value) > most:
            raise RoundFormatError(where, f"holds {len(value)} cards: at most {most}")
        if all(type(card) is str for card in value) and (not self.strict_cards or CARD_SET.issuperset(value)):
            return value
        for index, card in enumerate(value):
            if not isinstance(card, str):
                raise RoundFormatError(f"{where}[{index}]", "a card is a two-character string such as 'TS'")
            if self.strict_cards and not is_card(card):
                raise RoundFormatError(
                    f"{where}[{index}]", f"{card!r} is not a card (rank A23456789TJQK, suit SHDC)"
                )
        return value

    def shared(self, doc: dict) -> SharedDeal | None:
        shared = doc.get("shared")
        if shared is None:
            return None
        shared = _object(shared, "shared")
        return SharedDeal(
            initial=self.cards(_required(shared, "initial", "shared"), "shared.initial", MAX_HAND_CARDS),
            draws=self.cards(shared.get("draws", []), "shared.draws", MAX_SHOE_CARDS),
        )

    def spot(self, value: object) -> SpotRecord:
        try:  # the common, well-formed case, checked in one pass
            spot_id, seat, player, hands = value["spot"], value["seat"], value["player"], value["hands"]
            if type(hands) is not list:
                raise _NotPlain
            hands = [self.plain_hand(hand) for hand in hands]
            if (
                (seat is None or type(seat) is int and 0 <= seat <= MAX_SEAT)
                and _name(spot_id)
                and _name(player)
                and player not in RESERVED_PLAYER_IDS
            ):
                return SpotRecord(spot_id, seat, player, hands)
        except (KeyError, TypeError, _NotPlain):
            pass
        return self.checked_spot(value)

    def plain_hand(self, hand: dict) -> HandRecord:
        cards, actions = hand["cards"], hand["actions"]
        if type(cards) is not list or len(cards) > MAX_HAND_CARDS or not CARD_SET.issuperset(cards):
            raise _NotPlain
        if type(actions) is not list:
            raise _NotPlain
        return HandRecord(cards, [_PLAIN_ACTIONS[action] for action in actions])

    def checked_spot(self, value: object) -> SpotRecord:
        spot = _object(value, "")
        seat = spot.get("seat")
        if seat is not None and (type(seat) is not int or not 0 <= seat <= MAX_SEAT):
            raise RoundFormatError("seat", f"must be a seat number from 0 to {MAX_SEAT}, or null")
        hands = []
        for index, hand in enumerate(_list(spot, "hands", "")):
            try:
                hands.append(self.hand(hand))
            except RoundFormatError as error:
                raise error.within(f"hands[{index}]") from None
        return SpotRecord(spot=_id(spot, "spot", ""), seat=seat, player=_player_id(spot), hands=hands)

    def hand(self, value: object) -> HandRecord:
        hand = _object(value, "")
        cards = self.cards(_required(hand, "cards", ""), "cards", MAX_HAND_CARDS)
        actions = []
        for number, action in enumerate(_list(hand, "actions", "")):
            parsed = _PLAIN_ACTIONS.get(action) if type(action) is str else None
            actions.append(parsed or _action(action, f"actions[{number}]"))
        return HandRecord(cards, actions)

    def bet(self, value: object) -> BetRecord:
        try:  # the common, well-formed case, checked in one pass
            bet_id, player, kind, spot = value["bet_id"], value["player"], value["kind"], value["spot"]
            stake = AMOUNTS_READ[value["stake"]]  # a KeyError (not read before) takes the checked path
            wagered = AMOUNTS_READ[value["wagered"]]
            returned = AMOUNTS_READ[value["returned"]]
            if (
                kind in _KINDS_WITHOUT_OPTIONS
                and stake
                and spot in self.spots_by_id
                and (player in self.players or _name(player) and player not in RESERVED_PLAYER_IDS)
                and _name(bet_id)
            ):
                return BetRecord(bet_id, player, kind, spot, stake, wagered, returned)
        except (KeyError, TypeError, ValueError):
            pass
        return self.checked_bet(value)

    def checked_bet(self, value: object) -> BetRecord:
        bet = _object(value, "")
        stake = _amount(bet, "stake")
        if stake == 0:
            raise RoundFormatError("stake", "must be above 0")
        kind = _choice(bet, "kind", BET_KINDS, "")
        record = BetRecord(
            bet_id=_id(bet, "bet_id", ""),
            player=_player_id(bet),
            kind=kind,
            spot=_id(bet, "spot", ""),
            stake=stake,
            wagered=_amount(bet, "wagered"),
            returned=_amount(bet, "returned"),
        )
        if kind == "behind":
            record.follow_double = _flag(bet, "follow_double", default=False)
            record.follow_split = _flag(bet, "follow_split", default=False)
            record.followed_double = _flag(bet, "followed_double", default=None)
            record.followed_split = _flag(bet, "followed_split", default=None)
        elif kind == "insurance":
            record.behind = _flag(bet, "behind", default=False)
        return record


class _NotPlain(Exception):
    """Leave the fast path: the checked path names what is wrong."""


def id_problem(value: object) -> str | None:
    """What keeps `value` from being an id (None when it is one): the one definition of an id."""
    if type(value) is not str or not value or value.isspace():
        return "must be a non-empty string"
    if len(value) > MAX_ID_LENGTH:
        return f"must be at most {MAX_ID_LENGTH} characters"
    if "\x00" in value:
        return "must not contain a NUL character"
    if not _ID.fullmatch(value):
        return f"{value!r} is not an id: only the characters {ID_CHARACTERS}"
    if not value.strip("."):
        return "must not be only dots"
    return None


def _name(value: object) -> bool:
    """id_problem's rules without its message, for the fast path. Most ids are letters and digits,
    perhaps with dashes (a bet's "BND1-S0001-001-B1"): those are checked by str's own methods, at C
    speed; others character by character."""
    return (
        type(value) is str
        and 0 < len(value) <= MAX_ID_LENGTH
        and value.isascii()
        and (
            value.isalnum()
            or value.replace("-", "").isalnum()
            or _ID_ALPHABET.issuperset(value)
            and value.strip(".") != ""
        )
    )


def _path(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _object(value: object, where: str) -> dict:
    if not isinstance(value, dict):
        raise RoundFormatError(where, "must be an object")
    return value


def _required(doc: dict, name: str, where: str) -> object:
    if name not in doc:
        raise RoundFormatError(_path(where, name), "is missing")
    return doc[name]


def _id(doc: dict, name: str, where: str) -> str:
    value = _required(doc, name, where)
    problem = id_problem(value)
    if problem:
        raise RoundFormatError(_path(where, name), problem)
    return value


def _optional_id(doc: dict, name: str) -> str:
    """An id the document may leave out or give as null: "" then."""
    value = doc.get(name)
    if value is None:
        return ""
    problem = id_problem(value)
    if problem:
        raise RoundFormatError(name, problem)
    return value


def player_id_problem(value: object) -> str | None:
    """What keeps `value` from being a player id: an id, and not a word of the player pages' own."""
    problem = id_problem(value)
    if problem is None and value in RESERVED_PLAYER_IDS:
        problem = f"{value!r} names a page of Pitboss: not a player id"
    return problem


def _player_id(doc: dict) -> str:
    player = _required(doc, "player", "")
    problem = player_id_problem(player)
    if problem:
        raise RoundFormatError("player", problem)
    return player


def _list(doc: dict, name: str, where: str) -> list:
    value = _required(doc, name, where)
    if not isinstance(value, list):
        raise RoundFormatError(_path(where, name), "must be a list")
    return value


def _choice(doc: dict, name: str, allowed, where: str) -> str:
    value = _required(doc, name, where)
    if type(value) is not str or value not in allowed:
        raise RoundFormatError(_path(where, name), f"{value!r} is not one of {', '.join(sorted(allowed))}")
    return value


def _flag(doc: dict, name: str, *, default: bool | None) -> bool | None:
    value = doc.get(name, default)
    if value is not default and type(value) is not bool:
        raise RoundFormatError(name, "must be true or false")
    return value


def _amount(doc: dict, name: str) -> Decimal:
    value = _required(doc, name, "")
    if not isinstance(value, str):
        raise RoundFormatError(name, "an amount is a decimal string such as '10.00', never a number")
    try:
        return amount_of(value)
    except ValueError:
        raise RoundFormatError(
            name,
            f"{value!r} is not an amount: at most {MAX_AMOUNT_DIGITS} digits, at most 2 decimals, "
            "never negative",
        ) from None


def _timestamp(doc: dict, name: str) -> datetime:
    value = _required(doc, name, "")
    if type(value) is not str or len(value) > 40:
        raise RoundFormatError(name, "must be an ISO 8601 time such as '2026-11-28T18:20:05Z'")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise RoundFormatError(name, f"{value!r} is not an ISO 8601 time") from None
    if moment.tzinfo is None:
        raise RoundFormatError(name, "needs a time zone (for instance a trailing Z for UTC)")
    try:
        in_utc = moment.astimezone(UTC)
    except OverflowError:
        in_utc = None
    if in_utc is None or in_utc < EARLIEST_TIME or in_utc.year > 9998:
        raise RoundFormatError(name, f"{value!r} is not a time a round can be played at (from 2000 on)")
    return moment


def _action(value: object, where: str) -> Action:
    requested = None
    if isinstance(value, dict):
        requested = value.get("requested")
        if requested is not None and (type(requested) is not str or requested not in ACTIONS):
            raise RoundFormatError(f"{where}.requested", f"{requested!r} is not an action")
        value = value.get("action")
        where = f"{where}.action"
    if not isinstance(value, str):
        raise RoundFormatError(where, "an action is a string such as 'hit'")
    auto = value.startswith("auto_")
    name = value[5:] if auto else value
    if name not in ACTIONS:
        raise RoundFormatError(
            where, f"{value!r} is not an action (hit, stand, double, split, surrender, auto_…)"
        )
    if requested is not None and not auto:
        raise RoundFormatError(where, "only an automatic decision (auto_…) carries what was requested")
    return Action(name, auto, requested)


_PLAIN_ACTIONS = {name: Action(name) for name in ACTIONS} | {
    f"auto_{name}": Action(name, True) for name in ACTIONS
}
