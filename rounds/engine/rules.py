"""A table's rules as one frozen value, and the four presets of the operators' rule sheets.

A RuleSet validates itself when built, so a configuration that names an unknown rule, a paytable
line without odds or a max round below 1 can never exist. `to_dict`/`from_dict` give the JSON
form that table configurations store.
"""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

GAMES = ("deluxe", "boundless", "classic", "multiplayer")

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


class RuleError(ValueError):
    """A rule set that cannot be: `field` names the rule, `message` says why."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


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
        seen = set()
        lines = []
        for pattern, odds in self.paytable:
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
            lines.append((pattern, odds))
        # In the canonical pattern order, so that equal paytables are equal however they were
        # written (PostgreSQL's jsonb does not keep the order of an object's keys).
        order = SIDE_OPTION_PATTERNS[self.kind]
        object.__setattr__(self, "paytable", tuple(sorted(lines, key=lambda line: order.index(line[0]))))
        if self.max_round is not None and (
            isinstance(self.max_round, bool) or not isinstance(self.max_round, int) or self.max_round < 1
        ):
            raise RuleError(f"{where}.max_round", "max round must be a whole number of at least 1")

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
    max_splits: int = 1
    surrender: bool = False
    max_cards: int | None = None
    auto_play: str = "hit_to_12"
    low_balance_double: str | None = None
    low_balance_split: str | None = None
    play_behind: bool = True
    cancel_pays_dealt_blackjack: bool = False
    side_options: tuple[SideOption, ...] = field(default_factory=tuple)
    published_rtp: Decimal | None = None
    # Changes to the strategy table: (hand, facilitator's first card, action), e.g. ("hard16", "T", "stand").
    strategy_overrides: tuple[tuple[str, str, str], ...] = ()

    def __post_init__(self):
        if self.game not in GAMES:
            raise RuleError("game", f"unknown game {self.game!r} (known: {', '.join(GAMES)})")
        for name in ("decks", "max_splits"):
            self._check_int(name, minimum=1 if name == "decks" else 0)
        if self.decks > 8:
            raise RuleError("decks", "at most 8 decks")
        for name in ("seats", "max_seats_per_player", "max_cards"):
            if getattr(self, name) is not None:
                self._check_int(name, minimum=1 if name != "max_cards" else 2)
        if self.seats is None and not self.shared_deal:
            raise RuleError("seats", "a table without seats must share one deal")
        for name, allowed in (
            ("double", DOUBLE_RULES),
            ("split_match", SPLIT_MATCHES),
            ("auto_play", AUTO_PLAY_POLICIES),
        ):
            if getattr(self, name) not in allowed:
                raise RuleError(name, f"must be one of {', '.join(allowed)}")
        for name in ("low_balance_double", "low_balance_split"):
            value = getattr(self, name)
            if value is not None and value not in LOW_BALANCE_POLICIES:
                raise RuleError(name, f"must be one of {', '.join(LOW_BALANCE_POLICIES)}")
        for name in ("blackjack_pays", "insurance_pays"):
            odds = _decimal(getattr(self, name), name)
            if odds <= 0:
                raise RuleError(name, "odds must be above 0")
            object.__setattr__(self, name, odds)
        if self.published_rtp is not None:
            rtp = _decimal(self.published_rtp, "published_rtp")
            if not 0 < rtp <= 100:
                raise RuleError("published_rtp", "a percentage above 0 and at most 100")
            object.__setattr__(self, "published_rtp", rtp)
        kinds = [option.kind for option in self.side_options]
        if len(kinds) != len(set(kinds)):
            raise RuleError("side_options", "a side option is listed twice")
        ordered = sorted(self.side_options, key=lambda option: SIDE_OPTION_KINDS.index(option.kind))
        object.__setattr__(self, "side_options", tuple(ordered))
        self._check_strategy_overrides()

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

    def _check_int(self, name: str, *, minimum: int):
        value = getattr(self, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise RuleError(name, f"must be a whole number of at least {minimum}")

    # --- lookups -----------------------------------------------------------------------------

    def side_option(self, kind: str) -> SideOption | None:
        for option in self.side_options:
            if option.kind == kind:
                return option
        return None

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
        for name in data:
            if name not in known:
                raise RuleError(name, "unknown rule")
        values = dict(data)
        if "side_options" in values:
            values["side_options"] = _side_options_from_dict(values["side_options"])
        if "strategy_overrides" in values:
            values["strategy_overrides"] = _overrides_from_dict(values["strategy_overrides"])
        try:
            return cls(**values)
        except TypeError as error:  # a required field missing
            raise RuleError("rules", str(error)) from None

    def with_changes(self, changes: Mapping) -> "RuleSet":
        """A new rule set with `changes` (in the stored form) applied; validated."""
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
        return RuleSet.from_dict(data)


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
    result = []
    for kind, option in options.items():
        if not isinstance(option, Mapping):
            raise RuleError(f"side_options.{kind}", "must be an object with a paytable")
        unknown = set(option) - {"paytable", "max_round"}
        if unknown:
            raise RuleError(f"side_options.{kind}.{sorted(unknown)[0]}", "unknown rule")
        paytable = option.get("paytable")
        if not isinstance(paytable, Mapping):
            raise RuleError(f"side_options.{kind}.paytable", "must be an object of pattern -> odds")
        result.append(SideOption(kind, tuple(paytable.items()), option.get("max_round")))
    return tuple(result)


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
        published_rtp=Decimal("99.53"),
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
        published_rtp=Decimal("99.46"),
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
