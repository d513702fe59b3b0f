"""Deal and play whole shoes under any rule set, producing round documents (format 1).

The documents have exactly the shape of `round-format.md`: plain dicts, JSON-serialisable, amounts
as decimal strings with two places, times in ISO-8601 UTC. Every wagered and returned amount is
computed from the rule set, so a simulated round replays without a finding, unless a wrong
payout is planted on purpose (`wrong_payout_rate`, for demonstrations of findings).

Players follow basic strategy, with a few realistic slips (`simulated_player`): a missed decision,
a double or split refused for a low balance; here, a play-behind player unable to follow a double
or a split. `dealt_by`, when given, names who deals: one id for every round, or a function of the
round's opening time (dealers' shifts). The dealer draws by `dealer.must_draw` and every bet is priced by
`settle.Payouts`, as the replay does. Everything random comes from the `random.Random` given, so a
seed fixes the documents.

`removed_per_deck` deals a shoe with cards taken out (a game that deals unfairly while paying correctly,
for the RTP drift monitor's benchmark): {"5": 4} deals a shoe with no 5, {"4": 1} one without the 4 of
spades of each deck. The documents still replay clean: no card appears more often than the decks hold.
"""

import random
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import lru_cache

from . import options
from .cards import CARD_VALUE, RANKS, SUITS, new_shoe
from .dealer import must_draw
from .hand import hand_total, is_natural
from .play import PlayedHand
from .rules import RuleSet, SideOption
from .settle import CENT, BetResult, Payouts, followed_hands, insurance_stake
from .simulated_player import MISS_RATE, REFUSE_RATE, SimulatedHand, SimulatedPlayer, shared_source

# Who deals the rounds: an id, a function of a round's opening time giving one, or None (not said).
DealtBy = str | Callable[[datetime], str] | None

CANCEL_REASONS = ("card_unreadable", "network_failure", "malfunction", "procedure_error")

# Stakes as players place them; the odd cents make the rounding-down of payouts matter.
MAIN_STAKES = tuple(
    Decimal(amount)
    for amount in ("5.00", "10.00", "10.00", "25.00", "2.50", "20.00", "50.00", "5.01", "12.50", "100.00")
)
BEHIND_STAKES = tuple(Decimal(amount) for amount in ("2.00", "5.00", "10.00", "4.00", "7.51", "25.00"))
SIDE_STAKES = tuple(Decimal(amount) for amount in ("1.00", "2.00", "5.00", "0.50", "2.51", "10.00"))

# How players behave (the player's own slips are in `simulated_player`).
SIDE_OPTION_RATE = 0.25  # a side option staked on a spot
INSURANCE_RATE = 0.2  # insurance taken when the dealer shows an ace
BEHIND_BALANCE_RATE = 0.1  # a play-behind player cannot follow a double or split
TWO_SEAT_RATE = 0.2  # a Deluxe player taking a second seat
SIDE_ONLY_RATE = 0.05  # a Boundless player with side options but no main play
# At a Boundless table most players play the shared deal by the book, and so identically: they
# share one computed play. The rest slip more often, so that slips are about as common as seated.
SHARED_SLIPPING_RATE = 0.2
SHARED_MISS_RATE = MISS_RATE * 5
SHARED_REFUSE_RATE = REFUSE_RATE * 3


@lru_cache(maxsize=10_000)  # a day's amounts repeat ("10.00")
def money(amount: Decimal) -> str:
    """An amount as the documents write it: a decimal string with two places."""
    return str(amount.quantize(CENT))


def _iso(moment: datetime) -> str:
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# --- the shoe ------------------------------------------------------------------------------


def shoe_cards(decks: int, removed_per_deck: Mapping[str, int] | None = None) -> list[str]:
    """The cards of a shoe of `decks` decks, unshuffled, with `removed_per_deck[rank]` cards of each rank
    taken out of every deck (suits in the order of `cards.SUITS`: {"4": 2} takes the 4 of spades and
    of hearts)."""
    if not removed_per_deck:
        return new_shoe(decks)
    for rank, count in removed_per_deck.items():
        if rank not in RANKS or not 0 <= count <= len(SUITS):
            raise ValueError(f"removed_per_deck: {rank!r}: {count!r} is not a rank and 0 to 4 cards")
    removed = {rank + suit for rank, count in removed_per_deck.items() for suit in SUITS[:count]}
    return [card for card in new_shoe(decks) if card not in removed]


class _Shoe:
    """A shuffled shoe after the burn, with the cut card at `penetration` of the full shoe."""

    __slots__ = ("cards", "position", "cut_at")

    def __init__(
        self, rules: RuleSet, rng: random.Random, penetration: float, removed_per_deck: Mapping | None
    ):
        self.cards = shoe_cards(rules.decks, removed_per_deck)
        rng.shuffle(self.cards)  # as cards.shuffled_shoe does
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


class _Spot:
    """A spot while a round is played: its player, stake, the cards and the bets on it."""

    __slots__ = (
        "spot",
        "seat",
        "player",
        "stake",
        "initial",
        "hands",
        "played",
        "sides",
        "behind",
        "insurance",
    )

    def __init__(self, spot: str, seat: int | None, player: str, stake: Decimal | None):
        self.spot = spot
        self.seat = seat
        self.player = player
        self.stake = stake  # None: side options only (Boundless)
        self.initial: list[str] = []
        self.hands: list[SimulatedHand] = []
        self.played: list[PlayedHand] = []  # the hands as settlement reads them, once played
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
        dealt_by: DealtBy = None,
        removed_per_deck: Mapping[str, int] | None = None,
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
        self.dealt_by = dealt_by
        self.pool = [f"P{table}{n:04d}" for n in range(1, players + 1)]
        self.player = SimulatedPlayer(rules, rng)
        self.shoe = _Shoe(rules, rng, penetration, removed_per_deck)
        self._played: dict[tuple, list[PlayedHand]] = {}  # this round's distinct played hands

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
                # The dealer's blackjack would have ended the round: cancelled before it showed.
                self._put_back(dealer)
            elif cancelled_in_play:
                self._offer_insurance(spots, dealer)
                self._decide(spots, dealer, shared, cancel_after=rng.randint(0, len(spots) - 1))
        if not cancelled:
            self._offer_insurance(spots, dealer)
            self._decide(spots, dealer, shared)
        self._hands_played(spots)
        if not cancelled:
            self._dealer_draws(spots, dealer)

        bets = self._settle(round_id, spots, dealer, reason)
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
        if self.dealt_by is not None:
            document["dealt_by"] = self.dealt_by(opened) if callable(self.dealt_by) else self.dealt_by
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
            # A cancel is called before a dealer blackjack shows.
            self._put_back(dealer)
        for spot in spots:
            spot.hands = [SimulatedHand(list(spot.initial))]

    def _deal_shared(self, spots: list[_Spot], dealer: list[str], shared: dict, cancelled: bool) -> None:
        draw = self.shoe.draw
        initial = shared["initial"]
        initial.append(draw())
        dealer.append(draw())
        initial.append(draw())
        if self.rules.hole_card:
            dealer.append(draw())
            if cancelled and (is_natural(dealer) or self.rng.random() < 0.5):
                # Cancelled before the hole card (always, before a dealer blackjack shows).
                self._put_back(dealer)
        for spot in spots:
            spot.initial = initial
            if spot.stake is not None:
                spot.hands = [SimulatedHand(list(initial))]

    def _put_back(self, dealer: list[str]) -> None:
        """The hole card, the last card drawn, was never dealt: it stays in the shoe for the next round."""
        self.shoe.position -= 1
        dealer.pop()

    def _offer_insurance(self, spots: list[_Spot], dealer: list[str]) -> None:
        if not options.may_insure(self.rules, dealer[0]):
            return
        random_ = self.rng.random
        for spot in spots:
            if spot.stake is not None and random_() < INSURANCE_RATE:
                spot.insurance = True
            for behind in spot.behind:
                if random_() < INSURANCE_RATE:
                    behind[4] = True

    # --- decisions and the dealer ----------------------------------------------------

    def _decide(
        self, spots: list[_Spot], dealer: list[str], shared: dict | None, *, cancel_after: int | None = None
    ) -> None:
        """The players' decisions; only those of the first `cancel_after` spots when the round is
        cancelled at that point. A dealer blackjack at a hole-card table leaves none to take."""
        up = dealer[0]
        shoe_draw = self.shoe.draw
        if not (self.rules.hole_card and is_natural(dealer)):
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
                            shared_source(draws, shoe_draw),
                            miss_rate=SHARED_MISS_RATE,
                            refuse_rate=SHARED_REFUSE_RATE,
                        )
                    else:
                        if by_the_book is None:
                            by_the_book = player.play(
                                list(spot.initial),
                                up,
                                shared_source(draws, shoe_draw),
                                miss_rate=0,
                                refuse_rate=0,
                            )
                        spot.hands = [hand.copy() for hand in by_the_book]

    def _hands_played(self, spots: list[_Spot]) -> None:
        """Each spot's hands as settlement reads them. Hands of the same cards and decisions (thousands
        in a shared deal) share one, so that they are judged and priced once."""
        known = self._played = {}
        for spot in spots:
            hands = spot.hands
            if not hands:
                continue
            key = tuple((tuple(hand.cards), hand.doubled, hand.surrendered) for hand in hands)
            played = known.get(key)
            if played is None:
                from_split = len(hands) > 1
                played = known[key] = [
                    PlayedHand(
                        hand.cards, hand_total(hand.cards)[0], from_split, hand.doubled, hand.surrendered
                    )
                    for hand in hands
                ]
            spot.played = played

    def _dealer_draws(self, spots: list[_Spot], dealer: list[str]) -> None:
        """The dealer's draws: only while some bet still depends on the dealer's hand."""
        hands = [hand for played in self._played.values() for hand in played]
        insurance = bust_bonus = False
        for spot in spots:
            if not insurance and (spot.insurance or any(behind[4] for behind in spot.behind)):
                insurance = True
            if not bust_bonus and spot.sides:
                bust_bonus = any(option.kind == "bust_bonus" for option, _ in spot.sides)
        awaited = {
            "live": any(hand.awaits_dealer for hand in hands),
            "blackjacks": any(hand.blackjack for hand in hands),
            "insurance": insurance,
            "bust_bonus": bust_bonus,
        }
        draw = self.shoe.draw
        while must_draw(dealer, self.rules, **awaited):
            dealer.append(draw())

    # --- settlement ------------------------------------------------------------------------

    def _settle(
        self, round_id: str, spots: list[_Spot], dealer: list[str], cancel_reason: str | None
    ) -> list[dict]:
        rng = self.rng
        payouts = Payouts(
            self.rules, dealer, cancelled=cancel_reason is not None, cancel_reason=cancel_reason
        )
        bets: list[dict] = []

        def add(player: str, kind: str, spot: str, stake: Decimal, result: BetResult) -> dict:
            bet = {
                "bet_id": f"{round_id}-B{len(bets) + 1}",
                "player": player,
                "kind": kind,
                "spot": spot,
                "stake": money(stake),
                "wagered": money(result.wagered),
                "returned": money(result.returned),
            }
            bets.append(bet)
            return bet

        for spot in spots:
            played = spot.played
            stake = spot.stake
            if stake is not None:
                add(spot.player, "main", spot.spot, stake, payouts.riding(stake, played))
                if spot.insurance:
                    insured = insurance_stake(stake)
                    add(spot.player, "insurance", spot.spot, insured, payouts.insurance(insured))
            if spot.sides:
                player_cards = tuple(spot.initial)  # the first two cards dealt: the pair, after a split
                for option, side_stake in spot.sides:
                    add(
                        spot.player,
                        option.kind,
                        spot.spot,
                        side_stake,
                        payouts.side_option(option, side_stake, player_cards),
                    )
            split = len(played) == 2
            for player, behind_stake, follow_double, follow_split, insured in spot.behind:
                followed_split = follow_split and split and rng.random() >= BEHIND_BALANCE_RATE
                followed = followed_hands(
                    played, split=split, follow_split=follow_split, followed_split=followed_split
                )
                doubles = any(hand.doubled for hand in followed)
                followed_double = follow_double and doubles and rng.random() >= BEHIND_BALANCE_RATE
                bet = add(
                    player,
                    "behind",
                    spot.spot,
                    behind_stake,
                    payouts.riding(behind_stake, followed, follow_double=followed_double),
                )
                bet["follow_double"] = follow_double
                bet["follow_split"] = follow_split
                if follow_double and doubles and not followed_double:
                    bet["followed_double"] = False
                if follow_split and split and not followed_split:
                    bet["followed_split"] = False
                if insured:
                    insured_stake = insurance_stake(behind_stake)
                    bet = add(player, "insurance", spot.spot, insured_stake, payouts.insurance(insured_stake))
                    bet["behind"] = True
        return bets


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
    dealt_by: DealtBy = None,
    removed_per_deck: Mapping[str, int] | None = None,
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
        dealt_by=dealt_by,
        removed_per_deck=removed_per_deck,
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
    known = {"penetration", "wrong_payout_rate", "cancel_rate", "dealt_by", "removed_per_deck"}
    unknown = set(options) - known
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
            dealt_by=options.get("dealt_by"),
            removed_per_deck=options.get("removed_per_deck"),
        )
        yield from simulation.rounds()
        clock = simulation.clock + timedelta(seconds=rng.randint(120, 300))
