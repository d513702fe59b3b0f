"""A table's rules as one frozen value, and the four presets of the operators' rule sheets.

A RuleSet validates itself when built, so a configuration that names an unknown rule, a paytable
line without odds or a max round below 1 can never exist; it names every problem at once
(`RuleErrors`). `to_dict`/`from_dict` give the JSON form that table configurations store. A new
version (`RuleSet.with_changes`) must also keep within the bounds a table may be configured with
(`bound_problems`: seats, odds, max round); versions stored before a bound existed are read as stored.
"""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from .pattern_words import PATTERN_WORDS

GAMES = ("deluxe", "boundless", "classic", "multiplayer")
# Rules that versions stored before their removal may still hold; read and dropped. The published RTP
# is the operator's statement about a version, kept with its source by tables.PublishedRtp.
RETIRED_RULES = frozenset({"published_rtp"})
# The code says dealer; a page says what the game's rule sheet calls the person who deals.
DEALER_WORDS = {
    "deluxe": "facilitator",
    "boundless": "facilitator",
    "classic": "dealer",
    "multiplayer": "dealer",
}

# Every bet kind, in the order pages and reports list them, with the label they show for it: the
# one list of both (limits.choices.BetKind is built from it).
BET_KIND_LABELS = {
    "main": "Main",
    "behind": "Play behind",
    "insurance": "Insurance",
    "pair": "Pair",
    "perfect_pairs": "Perfect Pairs",
    "twenty_one_plus_three": "21+3",
    "lucky_trio": "Lucky Trio",
    "poker_trio": "Poker Trio",
    "bust_bonus": "Bust Bonus",
}
BET_KINDS = tuple(BET_KIND_LABELS)
MAIN_KINDS = ("main", "behind", "insurance")
SIDE_OPTION_KINDS = tuple(kind for kind in BET_KINDS if kind not in MAIN_KINDS)


def kind_label(kind: str) -> str:
    """A bet kind's label: "twenty_one_plus_three" -> "21+3"; anything else as it came."""
    return BET_KIND_LABELS.get(kind, kind)


def pattern_label(pattern: str) -> str:
    """A side option pattern's label for staff, as a paytable writes it: "unsuited_6_7_8" -> "Unsuited
    6 7 8" (pattern_words.PATTERN_WORDS); anything else as it came."""
    words = PATTERN_WORDS.get(pattern)
    return pattern if words is None else words.staff


# Every pattern a side option can pay on; a paytable names a subset of these.
SIDE_OPTION_PATTERNS = {
    "pair": ("mixed_pair", "coloured_pair", "perfect_pair", "suited_trips"),
    "perfect_pairs": ("mixed_pair", "coloured_pair", "perfect_pair"),
    "twenty_one_plus_three": ("flush", "straight", "three_of_a_kind", "straight_flush", "suited_trips"),
    "poker_trio": ("flush", "straight", "three_of_a_kind", "straight_flush", "suited_trips"),
    "lucky_trio": (
        "total_19_or_20",
        "unsuited_21",
        "suited_21",
        "unsuited_6_7_8",
        "unsuited_7_7_7",
        "suited_6_7_8",
        "suited_7_7_7",
    ),
    "bust_bonus": ("bust_3", "bust_4", "bust_5", "bust_6", "bust_7", "bust_8_plus"),
}

DOUBLE_RULES = ("any_two", "hard_9_to_11")
# The strategy table's rows and columns, for a table that plays missing decisions by strategy.
STRATEGY_HANDS = (
    tuple(f"hard{total}" for total in range(4, 21))
    + tuple(f"soft{total}" for total in range(12, 21))
    + tuple(f"pair{rank}" for rank in "23456789TA")
)
STRATEGY_UPCARDS = tuple("23456789TA")
STRATEGY_ACTIONS = ("hit", "stand", "double", "split", "surrender")
SPLIT_MATCHES = ("value", "rank")
AUTO_PLAY_POLICIES = ("hit_to_12", "stand", "strategy")
LOW_BALANCE_POLICIES = ("hit", "hit_to_12")


# The bounds a table's configuration keeps (`bound_problems`): a paytable line pays at most
# MAX_ODDS to 1, a side option's max round is from 1 to MAX_ROUND_BOUND, and a seated game has no more
# seats than its rule sheet (SHEET_SEATS; None: the game has no seats, every player shares one deal).
MAX_ODDS = Decimal(10000)
MAX_ROUND_BOUND = 100
SHEET_SEATS = {"deluxe": 7, "boundless": None, "classic": 7, "multiplayer": 7}
# Whether a side option needs the player's own main bet or bet behind on its seat: the classic sheet
# says all players must bet to bet on Perfect Pairs and 21+3; Deluxe's and Boundless's allow a side
# option alone; the multi-player table has none. Part of the game, so no rule a table stores.
SIDE_OPTIONS_NEED_MAIN_BET = {"deluxe": False, "boundless": False, "classic": True, "multiplayer": False}


class RuleError(ValueError):
    """A rule set that cannot be: `field` names the rule, `message` says why."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    @property
    def problems(self) -> tuple["RuleError", ...]:
        """Every problem found, each with its own field: this one alone."""
        return (self,)


class RuleErrors(RuleError):
    """Every problem of a rule set at once; `field` and `message` are the first one's."""

    def __init__(self, problems):
        flat = tuple(one for problem in problems for one in problem.problems)
        super().__init__(flat[0].field, flat[0].message)
        self.args = ("; ".join(f"{problem.field}: {problem.message}" for problem in flat),)
        self.all = flat

    @property
    def problems(self) -> tuple[RuleError, ...]:
        return self.all


class _Problems:
    """Collects RuleErrors so that every problem is named, not only the first."""

    def __init__(self):
        self.found: list[RuleError] = []

    def check(self, check, *args):
        """`check(*args)`'s result, or None when it raised a RuleError (kept)."""
        try:
            return check(*args)
        except RuleError as error:
            self.found.append(error)
            return None

    def raise_any(self):
        if self.found:
            raise RuleErrors(self.found)


def _decimal(value: object, field_name: str) -> Decimal:
    if isinstance(value, float):
        raise RuleError(field_name, "odds must be given as a decimal string or integer, not a float")
    try:
        result = Decimal(str(value))
    except InvalidOperation:
        raise RuleError(field_name, f"{value!r} is not a number") from None
    if not result.is_finite():
        raise RuleError(field_name, f"{value!r} is not a number")
    return result


@dataclass(frozen=True)
class SideOption:
    """A side option as a table offers it: its paytable (pattern -> odds, "to 1") and availability."""

    kind: str
    paytable: tuple[tuple[str, Decimal], ...]
    max_round: int | None = None

    def __post_init__(self):
        where = f"side_options.{self.kind}"
        if self.kind not in SIDE_OPTION_PATTERNS:
            raise RuleError("side_options", f"unknown side option {self.kind!r}")
        if not self.paytable:
            raise RuleError(f"{where}.paytable", "a paytable needs at least one line")
        problems = _Problems()
        seen = set()
        lines = []
        for pattern, odds in self.paytable:
            line = problems.check(self._line, pattern, odds, seen)
            if line is not None:
                lines.append(line)
        # In the canonical pattern order, so that equal paytables are equal however they were
        # written (PostgreSQL's jsonb does not keep the order of an object's keys).
        order = SIDE_OPTION_PATTERNS[self.kind]
        object.__setattr__(self, "paytable", tuple(sorted(lines, key=lambda line: order.index(line[0]))))
        if self.max_round is not None and (
            isinstance(self.max_round, bool) or not isinstance(self.max_round, int) or self.max_round < 1
        ):
            problems.found.append(
                RuleError(f"{where}.max_round", "max round must be a whole number of at least 1")
            )
        problems.raise_any()

    def _line(self, pattern: str, odds: object, seen: set) -> tuple[str, Decimal]:
        where = f"side_options.{self.kind}"
        if pattern not in SIDE_OPTION_PATTERNS[self.kind]:
            known = ", ".join(SIDE_OPTION_PATTERNS[self.kind])
            raise RuleError(f"{where}.paytable", f"unknown pattern {pattern!r} (known: {known})")
        if pattern in seen:
            raise RuleError(f"{where}.paytable.{pattern}", "pattern listed twice")
        seen.add(pattern)
        if odds is None or odds == "":
            raise RuleError(f"{where}.paytable.{pattern}", "a paytable line needs odds")
        odds = _decimal(odds, f"{where}.paytable.{pattern}")
        if odds <= 0:
            raise RuleError(f"{where}.paytable.{pattern}", "odds must be above 0")
        return pattern, odds

    def odds(self, pattern: str) -> Decimal | None:
        for name, odds in self.paytable:
            if name == pattern:
                return odds
        return None

    def to_dict(self) -> dict:
        return {
            "paytable": {pattern: str(odds) for pattern, odds in self.paytable},
            "max_round": self.max_round,
        }


@dataclass(frozen=True)
class RuleSet:
    """Every rule of a blackjack table that the engine needs to replay and settle a round."""

    game: str
    decks: int = 8
    seats: int | None = 7  # None: no seats, every player shares one deal
    max_seats_per_player: int | None = None
    equal_seat_plays: bool = False
    shared_deal: bool = False
    hole_card: bool = True
    dealer_stands_on_soft_17: bool = True
    blackjack_pays: Decimal = Decimal("1.5")
    insurance: bool = True
    insurance_pays: Decimal = Decimal("2")
    double: str = "any_two"
    double_after_split: bool = True
    split_match: str = "value"
    # Split once is the rule of every game (blackjack/options.py); kept so that stored rules still read.
    max_splits: int = 1
    surrender: bool = False
    max_cards: int | None = None
    auto_play: str = "hit_to_12"
    low_balance_double: str | None = None
    low_balance_split: str | None = None
    play_behind: bool = True
    cancel_pays_dealt_blackjack: bool = False
    side_options: tuple[SideOption, ...] = field(default_factory=tuple)
    # Changes to the strategy table: (hand, dealer's first card, action), e.g. ("hard16", "T", "stand").
    strategy_overrides: tuple[tuple[str, str, str], ...] = ()

    def __post_init__(self):
        problems = _Problems()
        if self.game not in GAMES:
            problems.found.append(
                RuleError("game", f"unknown game {self.game!r} (known: {', '.join(GAMES)})")
            )
        if problems.check(lambda: self._check_int("decks", minimum=1)) is not None and self.decks > 8:
            problems.found.append(RuleError("decks", "at most 8 decks"))
        if isinstance(self.max_splits, bool) or self.max_splits != 1:
            problems.found.append(RuleError("max_splits", "a pair is split once at every game: must be 1"))
        for name in ("seats", "max_seats_per_player", "max_cards"):
            if getattr(self, name) is not None:
                problems.check(
                    lambda name=name: self._check_int(name, minimum=1 if name != "max_cards" else 2)
                )
        if self.seats is None and not self.shared_deal:
            problems.found.append(RuleError("seats", "a table without seats must share one deal"))
        for name, allowed in (
            ("double", DOUBLE_RULES),
            ("split_match", SPLIT_MATCHES),
            ("auto_play", AUTO_PLAY_POLICIES),
        ):
            if getattr(self, name) not in allowed:
                problems.found.append(RuleError(name, f"must be one of {', '.join(allowed)}"))
        for name in ("low_balance_double", "low_balance_split"):
            value = getattr(self, name)
            if value is not None and value not in LOW_BALANCE_POLICIES:
                problems.found.append(RuleError(name, f"must be one of {', '.join(LOW_BALANCE_POLICIES)}"))
        for name in ("blackjack_pays", "insurance_pays"):
            odds = problems.check(_decimal, getattr(self, name), name)
            if odds is not None and odds <= 0:
                problems.found.append(RuleError(name, "odds must be above 0"))
            elif odds is not None:
                object.__setattr__(self, name, odds)
        kinds = [option.kind for option in self.side_options]
        if len(kinds) != len(set(kinds)):
            problems.found.append(RuleError("side_options", "a side option is listed twice"))
        else:
            ordered = sorted(self.side_options, key=lambda option: SIDE_OPTION_KINDS.index(option.kind))
            object.__setattr__(self, "side_options", tuple(ordered))
        problems.check(self._check_strategy_overrides)
        problems.raise_any()

    def _check_strategy_overrides(self):
        seen = set()
        for entry in self.strategy_overrides:
            if not (isinstance(entry, tuple) and len(entry) == 3):
                raise RuleError("strategy_overrides", "each change is (hand, facilitator card, action)")
            hand, up, action = entry
            where = f"strategy_overrides.{hand}.{up}"
            if hand not in STRATEGY_HANDS:
                raise RuleError(
                    "strategy_overrides", f"unknown hand {hand!r} (hard4-hard20, soft12-soft20, pair2-pairA)"
                )
            if up not in STRATEGY_UPCARDS:
                raise RuleError(f"strategy_overrides.{hand}", f"unknown facilitator card {up!r} (2-9, T, A)")
            if action not in STRATEGY_ACTIONS:
                raise RuleError(where, f"unknown action {action!r} ({', '.join(STRATEGY_ACTIONS)})")
            if action == "split" and not hand.startswith("pair"):
                raise RuleError(where, "only a pair can be split")
            if (hand, up) in seen:
                raise RuleError(where, "changed twice")
            seen.add((hand, up))
        object.__setattr__(self, "strategy_overrides", tuple(sorted(self.strategy_overrides)))

    def strategy_override(self, hand: str, up: str) -> str | None:
        for row, column, action in self.strategy_overrides:
            if row == hand and column == up:
                return action
        return None

    def _check_int(self, name: str, *, minimum: int) -> int:
        value = getattr(self, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise RuleError(name, f"must be a whole number of at least {minimum}")
        return value

    # --- lookups -----------------------------------------------------------------------------

    def side_option(self, kind: str) -> SideOption | None:
        for option in self.side_options:
            if option.kind == kind:
                return option
        return None

    @property
    def dealer_word(self) -> str:
        """What the game's rule sheet calls the person who deals: "dealer" or "facilitator"."""
        return DEALER_WORDS[self.game]

    @property
    def side_options_need_main_bet(self) -> bool:
        return SIDE_OPTIONS_NEED_MAIN_BET[self.game]

    @property
    def offered_kinds(self) -> tuple[str, ...]:
        kinds = ["main"]
        if self.play_behind:
            kinds.append("behind")
        if self.insurance:
            kinds.append("insurance")
        return tuple(kinds) + tuple(option.kind for option in self.side_options)

    # --- the stored form -----------------------------------------------------------------

    def to_dict(self) -> dict:
        data = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "side_options":
                value = {option.kind: option.to_dict() for option in value}
            elif f.name == "strategy_overrides":
                value = _overrides_to_dict(value)
            elif isinstance(value, Decimal):
                value = str(value)
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> "RuleSet":
        if not isinstance(data, Mapping):
            raise RuleError("rules", "must be an object")
        known = {f.name for f in dataclasses.fields(cls)}
        problems = _Problems()
        problems.found += [
            RuleError(name, "unknown rule") for name in data if name not in known | RETIRED_RULES
        ]
        values = {name: value for name, value in data.items() if name in known}
        # Each part on its own, so that every problem of every part is named at once.
        if "side_options" in values:
            values["side_options"] = problems.check(_side_options_from_dict, values["side_options"]) or ()
        if "strategy_overrides" in values:
            values["strategy_overrides"] = (
                problems.check(_overrides_from_dict, values["strategy_overrides"]) or ()
            )
        try:
            rules = problems.check(lambda: cls(**values))
        except TypeError as error:  # a required field missing
            problems.found.append(RuleError("rules", str(error)))
        problems.raise_any()
        return rules

    def with_changes(self, changes: Mapping) -> "RuleSet":
        """A new rule set with `changes` (in the stored form) applied; validated, within the bounds a
        table keeps (`bound_problems`), every problem named at once (`RuleErrors`)."""
        data = self.to_dict()
        for name, value in changes.items():
            if name == "side_options" and isinstance(value, Mapping) and isinstance(data.get(name), dict):
                merged = dict(data[name])
                for kind, option in value.items():
                    if option is None:
                        merged.pop(kind, None)
                    else:
                        merged[kind] = option
                value = merged
            data[name] = value
        problems = _Problems()
        rules = problems.check(RuleSet.from_dict, data)
        problems.found += bound_problems(data)
        problems.raise_any()
        return rules


def bound_problems(data: Mapping) -> list[RuleError]:
    """Where a rule set in its stored form leaves the bounds a table's configuration keeps: seats (no
    more than the game's rule sheet), a paytable line's odds (at most MAX_ODDS to 1), a side option's
    max round (1 to MAX_ROUND_BOUND). A value that is not even valid is left to the rule set's own
    checks, so each field gets one message."""
    problems = []
    game = data.get("game")
    seats = data.get("seats")
    if game in SHEET_SEATS and seats is not None:
        sheet = SHEET_SEATS[game]
        if sheet is None:
            problems.append(RuleError("seats", "this game has no seats: every player shares one deal"))
        elif isinstance(seats, int) and not isinstance(seats, bool) and seats > sheet:
            problems.append(RuleError("seats", f"at most {sheet} seats at this game (its rule sheet)"))
    options = data.get("side_options")
    for kind, option in options.items() if isinstance(options, Mapping) else ():
        if not isinstance(option, Mapping):
            continue
        where = f"side_options.{kind}"
        max_round = option.get("max_round")
        if isinstance(max_round, int) and not isinstance(max_round, bool) and max_round > MAX_ROUND_BOUND:
            problems.append(
                RuleError(f"{where}.max_round", f"max round must be from 1 to {MAX_ROUND_BOUND} (or none)")
            )
        paytable = option.get("paytable")
        for pattern, odds in paytable.items() if isinstance(paytable, Mapping) else ():
            try:
                value = _decimal(odds, f"{where}.paytable.{pattern}")
            except RuleError:
                continue
            if value > MAX_ODDS:
                problems.append(
                    RuleError(f"{where}.paytable.{pattern}", f"odds must be at most {MAX_ODDS:,} to 1")
                )
    return problems


def _overrides_to_dict(overrides) -> dict:
    table: dict[str, dict[str, str]] = {}
    for hand, up, action in overrides:
        table.setdefault(hand, {})[up] = action
    return table


def _overrides_from_dict(table: object) -> tuple[tuple[str, str, str], ...]:
    if not isinstance(table, Mapping):
        raise RuleError("strategy_overrides", "must be an object of hand -> {facilitator card -> action}")
    entries = []
    for hand, row in table.items():
        if not isinstance(row, Mapping):
            raise RuleError(f"strategy_overrides.{hand}", "must be an object of facilitator card -> action")
        entries += [(hand, up, action) for up, action in row.items()]
    return tuple(entries)


def _side_options_from_dict(options: object) -> tuple[SideOption, ...]:
    if not isinstance(options, Mapping):
        raise RuleError("side_options", "must be an object of side option -> {paytable, max_round}")
    problems = _Problems()
    result = [problems.check(_side_option_from_dict, kind, option) for kind, option in options.items()]
    problems.raise_any()
    return tuple(result)


def _side_option_from_dict(kind: str, option: object) -> SideOption:
    if not isinstance(option, Mapping):
        raise RuleError(f"side_options.{kind}", "must be an object with a paytable")
    unknown = set(option) - {"paytable", "max_round"}
    if unknown:
        raise RuleError(f"side_options.{kind}.{sorted(unknown)[0]}", "unknown rule")
    paytable = option.get("paytable")
    if not isinstance(paytable, Mapping):
        raise RuleError(f"side_options.{kind}.paytable", "must be an object of pattern -> odds")
    return SideOption(kind, tuple(paytable.items()), option.get("max_round"))


def _paytable(**odds: int) -> tuple[tuple[str, Decimal], ...]:
    return tuple((pattern, Decimal(value)) for pattern, value in odds.items())


_PAIR_5_10_30 = dict(mixed_pair=5, coloured_pair=10, perfect_pair=30)
_TRIO_POKER = dict(flush=5, straight=10, three_of_a_kind=30, straight_flush=40, suited_trips=100)

PRESETS: dict[str, RuleSet] = {
    "deluxe": RuleSet(
        game="deluxe",
        seats=7,
        max_seats_per_player=2,
        equal_seat_plays=True,
        surrender=True,
        auto_play="hit_to_12",
        low_balance_double="hit",
        low_balance_split="hit_to_12",
        play_behind=True,
        side_options=(SideOption("pair", _paytable(**_PAIR_5_10_30, suited_trips=50)),),
    ),
    "boundless": RuleSet(
        game="boundless",
        seats=None,
        shared_deal=True,
        surrender=True,
        auto_play="hit_to_12",
        low_balance_double="hit_to_12",
        low_balance_split="hit_to_12",
        play_behind=False,
        side_options=(
            SideOption("pair", _paytable(**_PAIR_5_10_30), max_round=40),
            SideOption(
                "bust_bonus",
                _paytable(bust_3=1, bust_4=2, bust_5=9, bust_6=50, bust_7=100, bust_8_plus=250),
                max_round=45,
            ),
            SideOption(
                "lucky_trio",
                _paytable(
                    total_19_or_20=2,
                    unsuited_21=3,
                    suited_21=10,
                    unsuited_6_7_8=30,
                    unsuited_7_7_7=50,
                    suited_6_7_8=100,
                    suited_7_7_7=200,
                ),
                max_round=45,
            ),
            SideOption("poker_trio", _paytable(**_TRIO_POKER), max_round=45),
        ),
    ),
    "classic": RuleSet(
        game="classic",
        seats=7,
        double_after_split=False,
        auto_play="stand",
        play_behind=True,
        cancel_pays_dealt_blackjack=True,
        side_options=(
            SideOption("perfect_pairs", _paytable(mixed_pair=6, coloured_pair=12, perfect_pair=25)),
            SideOption("twenty_one_plus_three", _paytable(**_TRIO_POKER)),
        ),
    ),
    "multiplayer": RuleSet(
        game="multiplayer",
        seats=7,
        hole_card=False,
        double="hard_9_to_11",
        double_after_split=False,
        split_match="rank",
        max_cards=9,
        auto_play="strategy",
        play_behind=True,
    ),
}


def preset(game: str) -> RuleSet:
    try:
        return PRESETS[game]
    except KeyError:
        raise RuleError("game", f"unknown game {game!r} (known: {', '.join(GAMES)})") from None
