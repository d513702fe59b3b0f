"""Deal and play whole shoes under any rule set, producing round documents (format 1).

The documents have exactly the shape of `round-format.md`: plain dicts, JSON-serialisable, amounts
as decimal strings with two places, times in ISO-8601 UTC. Every wagered and returned amount is
computed from the rule set, so a simulated round replays without a finding, unless a wrong
payout is planted on purpose (`wrong_payout_rate`, for demonstrations of findings).

Players follow basic strategy, with a few realistic slips: a missed decision (the system plays
for the player per `rules.auto_play`), a double or split refused for a low balance (per
`rules.low_balance_double` / `low_balance_split`), a play-behind player unable to follow a
double or a split. Everything random comes from the `random.Random` given, so a seed fixes the
documents.
"""

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from decimal import ROUND_FLOOR, Decimal

from .cards import CARD_VALUE, is_ace, is_ten_value, shuffled_shoe
from .hand import hand_total, is_natural
from .rules import RuleSet, SideOption
from .sideoptions import side_option_returned
from .strategy import basic_strategy, double_allowed, is_pair, up_value

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
CANCEL_REASONS = ("card_unreadable", "network_failure", "malfunction", "procedure_error")

# Stakes as players place them; the odd cents make the rounding-down of payouts matter.
MAIN_STAKES = tuple(
    Decimal(amount)
    for amount in ("5.00", "10.00", "10.00", "25.00", "2.50", "20.00", "50.00", "5.01", "12.50", "100.00")
)
BEHIND_STAKES = tuple(Decimal(amount) for amount in ("2.00", "5.00", "10.00", "4.00", "7.51", "25.00"))
SIDE_STAKES = tuple(Decimal(amount) for amount in ("1.00", "2.00", "5.00", "0.50", "2.51", "10.00"))

# How players behave.
MISS_RATE = 0.02  # a decision not answered in time: the system finishes the spot
REFUSE_RATE = 0.05  # a requested double or split refused for a low balance
SIDE_OPTION_RATE = 0.25  # a side option staked on a spot
INSURANCE_RATE = 0.2  # insurance taken when the facilitator shows an ace
BEHIND_BALANCE_RATE = 0.1  # a play-behind player cannot follow a double or split
TWO_SEAT_RATE = 0.2  # a Deluxe player taking a second seat
SIDE_ONLY_RATE = 0.05  # a Boundless player with side options but no main play
# At a Boundless table most players play the shared deal by the book, and so identically: they
# share one computed play. The rest slip more often, so that slips are about as common as seated.
SHARED_SLIPPING_RATE = 0.2
SHARED_MISS_RATE = MISS_RATE * 5
SHARED_REFUSE_RATE = REFUSE_RATE * 3

_OUTCOME_BLACKJACK = "blackjack"
_OUTCOME_WIN = "win"
_OUTCOME_PUSH = "push"
_OUTCOME_LOSE = "lose"
_OUTCOME_SURRENDER = "surrender"


_MONEY_TEXT: dict[Decimal, str] = {}


def money(amount: Decimal) -> str:
    """An amount as the documents write it: a decimal string with two places."""
    text = _MONEY_TEXT.get(amount)
    if text is None:
        text = str(amount.quantize(CENT))
        if len(_MONEY_TEXT) < 10_000:
            _MONEY_TEXT[amount] = text
    return text


def _floor_cent(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_FLOOR)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# --- the shoe ------------------------------------------------------------------------------


class _Shoe:
    """A shuffled shoe after the burn, with the cut card at `penetration` of the full shoe."""

    __slots__ = ("cards", "position", "cut_at")

    def __init__(self, rules: RuleSet, rng: random.Random, penetration: float):
        self.cards = shuffled_shoe(rules.decks, rng)
        self.cut_at = int(len(self.cards) * penetration)
        # The first card is revealed and discarded with as many more cards as its value.
        self.position = 1 + CARD_VALUE[self.cards[0]]

    def draw(self) -> str:
        card = self.cards[self.position]
        self.position += 1
        return card

    @property
    def cut_out(self) -> bool:
        return self.position > self.cut_at


# --- playing a spot ------------------------------------------------------------------------


class _Hand:
    __slots__ = ("cards", "actions", "doubled", "surrendered")

    def __init__(self, cards: list[str]):
        self.cards = cards
        self.actions: list = []
        self.doubled = False
        self.surrendered = False

    def copy(self) -> "_Hand":
        hand = _Hand(list(self.cards))
        hand.actions = list(self.actions)
        hand.doubled = self.doubled
        hand.surrendered = self.surrendered
        return hand

    def to_dict(self) -> dict:
        return {"cards": self.cards, "actions": self.actions}


class _Player:
    """Plays one spot's hands: basic strategy with the occasional missed decision or refusal."""

    def __init__(self, rules: RuleSet, rng: random.Random):
        self.rules = rules
        self.rng = rng
        self._decisions: dict = {}
        self.hands: list[_Hand] = []
        self.auto = False
        self.up = ""
        self.up_value = 0
        self.draw: Callable[[], str] = _no_card
        self.miss_rate = MISS_RATE
        self.refuse_rate = REFUSE_RATE

    def decide(self, cards: list[str], can_double: bool, can_split: bool, can_surrender: bool) -> str:
        key = (tuple(cards), self.up, can_double, can_split, can_surrender)
        action = self._decisions.get(key)
        if action is None:
            action = basic_strategy(
                self.rules,
                cards,
                self.up,
                can_double=can_double,
                can_split=can_split,
                can_surrender=can_surrender,
            )
            self._decisions[key] = action
        return action

    def play(
        self,
        initial: list[str],
        up: str,
        draw: Callable[[], str],
        *,
        miss_rate: float = MISS_RATE,
        refuse_rate: float = REFUSE_RATE,
    ) -> list[_Hand]:
        """The spot's hands once played; a rate of 0 plays by the book without drawing a random number."""
        self.miss_rate = miss_rate
        self.refuse_rate = refuse_rate
        self.up = up
        self.up_value = up_value(up)
        self.draw = draw
        self.auto = False
        hand = _Hand(initial)
        self.hands = [hand]
        if not is_natural(initial):
            self._play_hand(hand, after_split=False)
        return self.hands

    def _auto_action(
        self, cards: list[str], total: int, can_double: bool, can_split: bool, can_surrender: bool
    ) -> str:
        policy = self.rules.auto_play
        if policy == "hit_to_12":
            return "auto_hit" if total <= 11 else "auto_stand"
        if policy == "stand":
            return "auto_stand"
        return "auto_" + self.decide(cards, can_double, can_split, can_surrender)

    def _refuses(self) -> bool:
        return bool(self.refuse_rate) and self.rng.random() < self.refuse_rate

    def _refused(self, requested: str, total: int, policy: str) -> dict:
        if policy == "hit" or total <= 11:
            return {"action": "auto_hit", "requested": requested}
        return {"action": "auto_stand", "requested": requested}

    def _play_hand(self, hand: _Hand, *, after_split: bool) -> None:
        rules = self.rules
        rng = self.rng
        cards = hand.cards
        actions = hand.actions
        while True:
            total = hand_total(cards)[0]
            if total >= 21 or (rules.max_cards is not None and len(cards) >= rules.max_cards):
                return  # stops by rule
            two_cards = len(cards) == 2
            can_split = two_cards and not after_split and rules.max_splits >= 1 and is_pair(rules, cards)
            can_double = (
                two_cards and (not after_split or rules.double_after_split) and double_allowed(rules, cards)
            )
            can_surrender = (
                rules.surrender and two_cards and not after_split and not actions and 2 <= self.up_value <= 9
            )
            if not self.auto and self.miss_rate and rng.random() < self.miss_rate:
                self.auto = True
            if self.auto:
                action = self._auto_action(cards, total, can_double, can_split, can_surrender)
            else:
                action = self.decide(cards, can_double, can_split, can_surrender)

            if action == "hit" or action == "auto_hit":
                actions.append(action)
                cards.append(self.draw())
            elif action == "stand" or action == "auto_stand":
                actions.append(action)
                return
            elif action == "surrender" or action == "auto_surrender":
                actions.append(action)
                hand.surrendered = True
                return
            elif action == "double" or action == "auto_double":
                policy = rules.low_balance_double
                if action == "double" and policy is not None and self._refuses():
                    refused = self._refused("double", total, policy)
                    actions.append(refused)
                    if refused["action"] == "auto_stand":
                        return
                    cards.append(self.draw())
                    continue
                actions.append(action)
                hand.doubled = True
                cards.append(self.draw())
                return
            else:  # split or auto_split
                policy = rules.low_balance_split
                if action == "split" and policy is not None and self._refuses():
                    refused = self._refused("split", total, policy)
                    actions.append(refused)
                    if refused["action"] == "auto_stand":
                        return
                    cards.append(self.draw())
                    continue
                actions.append(action)
                second = _Hand([cards.pop()])
                self.hands.append(second)
                aces = is_ace(cards[0])
                # The first hand is played to its end before the second takes its second card.
                cards.append(self.draw())
                if not aces:
                    self._play_hand(hand, after_split=True)
                second.cards.append(self.draw())
                if not aces:
                    self._play_hand(second, after_split=True)
                return


def _no_card() -> str:
    raise RuntimeError("no card source")


# --- the facilitator and settlement ---------------------------------------------------------


def _is_live(hands: list[_Hand]) -> bool:
    """Whether some hand still depends on the facilitator's hand (not bust, surrendered or a blackjack)."""
    if len(hands) == 1:
        hand = hands[0]
        if hand.surrendered or is_natural(hand.cards):
            return False
        return hand_total(hand.cards)[0] <= 21
    return any(hand_total(hand.cards)[0] <= 21 for hand in hands)


def _facilitator_plays(
    rules: RuleSet,
    dealer: list[str],
    draw: Callable[[], str],
    *,
    live: bool,
    naturals: bool,
    insurance: bool,
    bust_bonus: bool,
) -> None:
    """The facilitator's draws: only while some bet still depends on the facilitator's hand."""
    up = dealer[0]
    if live or bust_bonus:
        while True:
            total, soft = hand_total(dealer)
            if total > 17 or (total == 17 and (not soft or rules.dealer_stands_on_soft_17)):
                return
            dealer.append(draw())
    if not rules.hole_card and len(dealer) == 1:
        # Without a hole card a blackjack or an insurance waits for the second card, if it could matter.
        if (naturals and (is_ace(up) or is_ten_value(up))) or (insurance and is_ace(up)):
            dealer.append(draw())


def _outcome(hand: _Hand, unsplit: bool, dealer_total: int, dealer_natural: bool) -> str:
    cards = hand.cards
    if hand.surrendered:
        return _OUTCOME_SURRENDER
    if unsplit and is_natural(cards):
        return _OUTCOME_PUSH if dealer_natural else _OUTCOME_BLACKJACK
    total = hand_total(cards)[0]
    if total > 21 or dealer_natural:
        return _OUTCOME_LOSE
    if dealer_total > 21 or total > dealer_total:
        return _OUTCOME_WIN
    if total == dealer_total:
        return _OUTCOME_PUSH
    return _OUTCOME_LOSE


def _paid(outcome: str, wager: Decimal, blackjack_pays: Decimal) -> Decimal:
    if outcome == _OUTCOME_WIN:
        return wager + wager
    if outcome == _OUTCOME_PUSH:
        return wager
    if outcome == _OUTCOME_BLACKJACK:
        return wager + _floor_cent(wager * blackjack_pays)
    if outcome == _OUTCOME_SURRENDER:
        return _floor_cent(wager / 2)
    return ZERO


# --- one shoe ------------------------------------------------------------------------------


class _Spot:
    """A spot while a round is played: its player, stake, the cards and the bets on it."""

    __slots__ = ("spot", "seat", "player", "stake", "initial", "hands", "sides", "behind", "insurance")

    def __init__(self, spot: str, seat: int | None, player: str, stake: Decimal | None):
        self.spot = spot
        self.seat = seat
        self.player = player
        self.stake = stake  # None: side options only (Boundless)
        self.initial: list[str] = []
        self.hands: list[_Hand] = []
        self.sides: list[tuple[SideOption, Decimal]] = []
        self.behind: list[list] = []  # [player, stake, follow_double, follow_split, insured]
        self.insurance = False


class _ShoeSimulation:
    def __init__(
        self,
        rules: RuleSet,
        *,
        table: str,
        shoe_id: str,
        players: int,
        rng: random.Random,
        start: datetime,
        penetration: float,
        wrong_payout_rate: float,
        cancel_rate: float,
    ):
        if not 0 < penetration <= 0.9:
            raise ValueError("penetration must be above 0 and at most 0.9")
        if players < 1:
            raise ValueError("players must be at least 1")
        self.rules = rules
        self.table = table
        self.shoe_id = shoe_id
        self.rng = rng
        self.clock = start
        self.wrong_payout_rate = wrong_payout_rate
        self.cancel_rate = cancel_rate
        self.pool = [f"P{table}{n:04d}" for n in range(1, players + 1)]
        self.player = _Player(rules, rng)
        self.shoe = _Shoe(rules, rng, penetration)

    def rounds(self) -> Iterator[dict]:
        number = 0
        while True:
            number += 1
            document = self.round(number)
            yield document
            if document["cut_card"]:
                return

    # --- a round ---------------------------------------------------------------------------

    def round(self, number: int) -> dict:
        rules = self.rules
        rng = self.rng
        round_id = f"{self.shoe_id}-{number:03d}"
        opened = self.clock
        closed = opened + timedelta(seconds=rng.randint(25, 90))
        self.clock = closed + timedelta(seconds=rng.randint(5, 20))
        cancelled = self.cancel_rate > 0 and rng.random() < self.cancel_rate
        reason = rng.choice(CANCEL_REASONS) if cancelled else None

        if rules.shared_deal:
            spots = self._shared_spots(number)
        else:
            spots = self._seated_spots(number)
        dealer: list[str] = []
        shared = None
        if rules.shared_deal:
            shared = {"initial": [], "draws": []}
            self._deal_shared(spots, dealer, shared, cancelled)
        else:
            # A seated round is cancelled in the initial deal, or while the players decide.
            cancelled_in_play = cancelled and rng.random() < 0.5
            self._deal_seated(spots, dealer, cancelled and not cancelled_in_play)
            if cancelled_in_play and len(dealer) == 2 and is_natural(dealer):
                # The facilitator's blackjack would have ended the round: cancelled before it showed.
                self._put_back(dealer)
            elif cancelled_in_play:
                self._offer_insurance(spots, dealer)
                self._play(spots, dealer, shared, cancel_after=rng.randint(0, len(spots) - 1))
        if not cancelled:
            self._offer_insurance(spots, dealer)
            self._play(spots, dealer, shared)

        bets = self._settle(round_id, spots, dealer, shared, reason)
        if self.wrong_payout_rate > 0 and rng.random() < self.wrong_payout_rate:
            bet = rng.choice(bets)
            returned = Decimal(bet["returned"])
            bet["returned"] = money(returned - 1 if returned >= 1 else returned + 1)

        document = {
            "format": 1,
            "round_id": round_id,
            "table": self.table,
            "shoe": self.shoe_id,
            "number": number,
            "opened_at": _iso(opened),
            "closed_at": _iso(closed),
            "status": "cancelled" if cancelled else "completed",
        }
        if cancelled:
            document["cancel_reason"] = reason
        document["cut_card"] = self.shoe.cut_out
        document["dealer"] = dealer
        document["shared"] = shared
        document["spots"] = [
            {"spot": spot.spot, "seat": spot.seat, "player": spot.player, "hands": _hand_dicts(spot)}
            for spot in spots
        ]
        document["bets"] = bets
        return document

    # --- who plays -------------------------------------------------------------------------

    def _available_sides(self, number: int) -> list[SideOption]:
        return [
            option
            for option in self.rules.side_options
            if option.max_round is None or number <= option.max_round
        ]

    def _seated_spots(self, number: int) -> list[_Spot]:
        rules = self.rules
        rng = self.rng
        seat_count = rules.seats or 7
        occupied = rng.sample(range(1, seat_count + 1), rng.randint(1, seat_count))
        max_per_player = rules.max_seats_per_player or 1
        free = list(self.pool)
        rng.shuffle(free)
        seats_of: dict[str, list[int]] = {}
        for seat in occupied:
            extendable = [player for player, seats in seats_of.items() if len(seats) < max_per_player]
            if extendable and (not free or rng.random() < TWO_SEAT_RATE):
                seats_of[rng.choice(extendable)].append(seat)
            elif free:
                seats_of[free.pop()] = [seat]
        stakes = {player: rng.choice(MAIN_STAKES) for player in seats_of}
        spots = []
        for player, seats in seats_of.items():
            for seat in seats:
                stake = stakes[player] if rules.equal_seat_plays else rng.choice(MAIN_STAKES)
                spots.append(_Spot(str(seat), seat, player, stake))
        spots.sort(key=lambda spot: spot.seat)

        sides = self._available_sides(number)
        for spot in spots:
            for option in sides:
                if rng.random() < SIDE_OPTION_RATE:
                    spot.sides.append((option, rng.choice(SIDE_STAKES)))
            if rules.play_behind and rng.random() < 0.5:
                candidates = [player for player in self.pool if player != spot.player]
                for player in rng.sample(candidates, min(len(candidates), rng.randint(1, 3))):
                    spot.behind.append(
                        [player, rng.choice(BEHIND_STAKES), rng.random() < 0.5, rng.random() < 0.5, False]
                    )
        return spots

    def _shared_spots(self, number: int) -> list[_Spot]:
        rng = self.rng
        random_ = rng.random
        choice = rng.choice
        sides = self._available_sides(number)
        spots = []
        for player in self.pool:
            side_only = sides and random_() < SIDE_ONLY_RATE
            spot = _Spot(player, None, player, None if side_only else choice(MAIN_STAKES))
            for option in sides:
                if random_() < SIDE_OPTION_RATE:
                    spot.sides.append((option, choice(SIDE_STAKES)))
            if spot.stake is None and not spot.sides:
                spot.sides.append((sides[0], choice(SIDE_STAKES)))
            spots.append(spot)
        return spots

    # --- the initial deal ------------------------------------------------------------------

    def _deal_seated(self, spots: list[_Spot], dealer: list[str], cancelled: bool) -> None:
        draw = self.shoe.draw
        rules = self.rules
        order: list = []
        for spot in spots:
            order.append(spot.initial)
        order.append(dealer)
        for spot in spots:
            order.append(spot.initial)
        if rules.hole_card:
            order.append(dealer)
        dealt = len(order)
        if cancelled:
            # Cancelled once every spot has its two cards, before or after the hole card.
            dealt = self.rng.randint(len(order) - 1, len(order)) if rules.hole_card else len(order)
        for target in order[:dealt]:
            target.append(draw())
        if cancelled and len(dealer) == 2 and is_natural(dealer):
            # A cancel is called before a facilitator blackjack shows.
            self._put_back(dealer)
        for spot in spots:
            spot.hands = [_Hand(list(spot.initial))]

    def _deal_shared(self, spots: list[_Spot], dealer: list[str], shared: dict, cancelled: bool) -> None:
        draw = self.shoe.draw
        initial = shared["initial"]
        initial.append(draw())
        dealer.append(draw())
        initial.append(draw())
        if self.rules.hole_card:
            dealer.append(draw())
            if cancelled and (is_natural(dealer) or self.rng.random() < 0.5):
                # Cancelled before the hole card (always, before a facilitator blackjack shows).
                self._put_back(dealer)
        for spot in spots:
            spot.initial = initial
            if spot.stake is not None:
                spot.hands = [_Hand(list(initial))]

    def _put_back(self, dealer: list[str]) -> None:
        """The hole card, the last card drawn, was never dealt: it stays in the shoe for the next round."""
        self.shoe.position -= 1
        dealer.pop()

    def _offer_insurance(self, spots: list[_Spot], dealer: list[str]) -> None:
        if not self.rules.insurance or not is_ace(dealer[0]):
            return
        random_ = self.rng.random
        for spot in spots:
            if spot.stake is not None and random_() < INSURANCE_RATE:
                spot.insurance = True
            for behind in spot.behind:
                if random_() < INSURANCE_RATE:
                    behind[4] = True

    # --- decisions and the facilitator ----------------------------------------------------

    def _play(
        self, spots: list[_Spot], dealer: list[str], shared: dict | None, *, cancel_after: int | None = None
    ) -> None:
        """The players' decisions, then the facilitator's draws; or only the decisions of the first
        `cancel_after` spots when the round is cancelled at that point."""
        rules = self.rules
        up = dealer[0]
        shoe_draw = self.shoe.draw
        facilitator_natural = rules.hole_card and is_natural(dealer)
        if not facilitator_natural:
            player = self.player
            if shared is None:
                for spot in spots[:cancel_after]:
                    spot.hands = player.play(list(spot.initial), up, shoe_draw)
            else:
                draws = shared["draws"]
                random_ = self.rng.random
                by_the_book = None
                for spot in spots:
                    if spot.stake is None:
                        continue
                    if random_() < SHARED_SLIPPING_RATE:
                        spot.hands = player.play(
                            list(spot.initial),
                            up,
                            _shared_source(draws, shoe_draw),
                            miss_rate=SHARED_MISS_RATE,
                            refuse_rate=SHARED_REFUSE_RATE,
                        )
                    else:
                        if by_the_book is None:
                            by_the_book = player.play(
                                list(spot.initial),
                                up,
                                _shared_source(draws, shoe_draw),
                                miss_rate=0,
                                refuse_rate=0,
                            )
                        spot.hands = [hand.copy() for hand in by_the_book]
        if facilitator_natural or cancel_after is not None:
            return
        live = naturals = insurance = bust_bonus = False
        for spot in spots:
            if spot.hands:
                if not live and _is_live(spot.hands):
                    live = True
                if len(spot.hands) == 1 and is_natural(spot.hands[0].cards):
                    naturals = True
            if spot.insurance or (spot.behind and any(behind[4] for behind in spot.behind)):
                insurance = True
            if not bust_bonus and spot.sides:
                bust_bonus = any(option.kind == "bust_bonus" for option, _ in spot.sides)
        _facilitator_plays(
            rules, dealer, shoe_draw, live=live, naturals=naturals, insurance=insurance, bust_bonus=bust_bonus
        )

    # --- settlement ------------------------------------------------------------------------

    def _settle(
        self,
        round_id: str,
        spots: list[_Spot],
        dealer: list[str],
        shared: dict | None,
        cancel_reason: str | None,
    ) -> list[dict]:
        rules = self.rules
        rng = self.rng
        bj_pays = rules.blackjack_pays
        dealer_total = hand_total(dealer)[0]
        dealer_natural = len(dealer) >= 2 and is_natural(dealer[:2])
        pays_dealt_blackjack = cancel_reason == "network_failure" and rules.cancel_pays_dealt_blackjack
        insurance_pays = rules.insurance_pays
        bets: list[dict] = []
        outcomes_cache: dict = {}

        def add(player: str, kind: str, spot: str, stake: Decimal, wagered: Decimal, returned: Decimal):
            bet = {
                "bet_id": f"{round_id}-B{len(bets) + 1}",
                "player": player,
                "kind": kind,
                "spot": spot,
                "stake": money(stake),
                "wagered": money(wagered),
                "returned": money(returned),
            }
            bets.append(bet)
            return bet

        cancelled = cancel_reason is not None
        for spot in spots:
            hands = spot.hands
            stake = spot.stake
            outcomes = []
            if cancelled:
                # Every bet returns what it wagered, except a blackjack dealt where the table pays it.
                outcomes = [
                    _OUTCOME_BLACKJACK
                    if pays_dealt_blackjack and len(hands) == 1 and is_natural(hand.cards)
                    else _OUTCOME_PUSH
                    for hand in hands
                ]
            elif hands:
                key = tuple((tuple(hand.cards), hand.surrendered) for hand in hands)
                outcomes = outcomes_cache.get(key)
                if outcomes is None:
                    unsplit = len(hands) == 1
                    outcomes = [_outcome(hand, unsplit, dealer_total, dealer_natural) for hand in hands]
                    outcomes_cache[key] = outcomes
            if stake is not None:
                wagered = ZERO
                returned = ZERO
                for hand, outcome in zip(hands, outcomes, strict=True):
                    wager = stake + stake if hand.doubled else stake
                    wagered += wager
                    returned += _paid(outcome, wager, bj_pays)
                add(spot.player, "main", spot.spot, stake, wagered, returned)
                if spot.insurance:
                    insurance_stake = _floor_cent(stake / 2)
                    add(
                        spot.player,
                        "insurance",
                        spot.spot,
                        insurance_stake,
                        insurance_stake,
                        _insurance_returned(insurance_stake, insurance_pays, dealer_natural, cancelled),
                    )
            player_cards = [hand.cards[0] for hand in hands] if len(hands) == 2 else spot.initial
            for option, side_stake in spot.sides:
                add(
                    spot.player,
                    option.kind,
                    spot.spot,
                    side_stake,
                    side_stake,
                    side_stake
                    if cancelled
                    else side_option_returned(option, side_stake, player_cards, dealer),
                )
            for player, behind_stake, follow_double, follow_split, insured in spot.behind:
                followed_split = follow_split and len(hands) == 2 and rng.random() >= BEHIND_BALANCE_RATE
                followed = hands if (follow_split and followed_split) else hands[:1]
                doubles = any(hand.doubled for hand in followed)
                followed_double = follow_double and doubles and rng.random() >= BEHIND_BALANCE_RATE
                wagered = ZERO
                returned = ZERO
                for hand, outcome in zip(followed, outcomes, strict=False):
                    wager = (
                        behind_stake + behind_stake if (hand.doubled and followed_double) else behind_stake
                    )
                    wagered += wager
                    returned += _paid(outcome, wager, bj_pays)
                bet = add(player, "behind", spot.spot, behind_stake, wagered, returned)
                bet["follow_double"] = follow_double
                bet["follow_split"] = follow_split
                if follow_double and doubles and not followed_double:
                    bet["followed_double"] = False
                if follow_split and len(hands) == 2 and not followed_split:
                    bet["followed_split"] = False
                if insured:
                    insurance_stake = _floor_cent(behind_stake / 2)
                    bet = add(
                        player,
                        "insurance",
                        spot.spot,
                        insurance_stake,
                        insurance_stake,
                        _insurance_returned(insurance_stake, insurance_pays, dealer_natural, cancelled),
                    )
                    bet["behind"] = True
        return bets


def _insurance_returned(stake: Decimal, pays: Decimal, dealer_natural: bool, cancelled: bool) -> Decimal:
    if cancelled:
        return stake
    return stake + _floor_cent(stake * pays) if dealer_natural else ZERO


def _shared_source(draws: list[str], shoe_draw: Callable[[], str]) -> Callable[[], str]:
    """The j-th card a player's hands take is the j-th card of the common sequence, drawn when needed."""
    taken = 0

    def draw() -> str:
        nonlocal taken
        if taken == len(draws):
            draws.append(shoe_draw())
        card = draws[taken]
        taken += 1
        return card

    return draw


def _hand_dicts(spot: _Spot) -> list[dict]:
    return [hand.to_dict() for hand in spot.hands]


# --- the API -------------------------------------------------------------------------------


def simulate_shoe(
    rules: RuleSet,
    *,
    table: str,
    shoe_id: str,
    players: int,
    rng: random.Random,
    start: datetime,
    penetration: float = 0.8,
    wrong_payout_rate: float = 0.0,
    cancel_rate: float = 0.0,
) -> list[dict]:
    """Every round of one shoe, from the shuffle to the round during which the cut card comes out."""
    simulation = _ShoeSimulation(
        rules,
        table=table,
        shoe_id=shoe_id,
        players=players,
        rng=rng,
        start=start,
        penetration=penetration,
        wrong_payout_rate=wrong_payout_rate,
        cancel_rate=cancel_rate,
    ).rounds()
    return list(simulation)


def simulate(
    rules: RuleSet,
    *,
    table: str,
    shoes: int,
    players: int,
    seed: int,
    start: datetime,
    **options,
) -> Iterator[dict]:
    """The rounds of `shoes` consecutive shoes at `table`; the same seed gives the same documents."""
    unknown = set(options) - {"penetration", "wrong_payout_rate", "cancel_rate"}
    if unknown:
        raise TypeError(f"simulate() got unexpected options: {', '.join(sorted(unknown))}")
    rng = random.Random(seed)
    clock = start
    for number in range(1, shoes + 1):
        simulation = _ShoeSimulation(
            rules,
            table=table,
            shoe_id=f"{table}-S{number:04d}",
            players=players,
            rng=rng,
            start=clock,
            penetration=options.get("penetration", 0.8),
            wrong_payout_rate=options.get("wrong_payout_rate", 0.0),
            cancel_rate=options.get("cancel_rate", 0.0),
        )
        yield from simulation.rounds()
        clock = simulation.clock + timedelta(seconds=rng.randint(120, 300))
