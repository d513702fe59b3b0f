"""What every bet should have put at risk and paid back, given how the round was played."""

from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal

from .document import BetRecord, RoundRecord
from .hand import hand_total, is_natural
from .play import PlayedHand, PlayedSpot
from .rules import RuleSet, SideOption
from .sideoptions import side_option_returned, winning_pattern

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def round_down(amount: Decimal) -> Decimal:
    """Any amount paid out is rounded down to the cent."""
    return amount.quantize(CENT, rounding=ROUND_FLOOR)


@dataclass(frozen=True, slots=True)
class BetResult:
    wagered: Decimal | None
    returned: Decimal | None
    pattern: str = ""  # a side option's paying pattern, if it paid


# A main bet or bet behind on a spot with no cards: nothing to price (the replay finds bet_without_hand).
NOT_RIDING = BetResult(None, None)


@dataclass(slots=True)
class DealerHand:
    cards: list[str]
    total: int
    blackjack: bool

    @classmethod
    def from_cards(cls, cards: list[str]) -> "DealerHand":
        return cls(cards, hand_total(cards)[0] if cards else 0, is_natural(cards[:2]))

    @property
    def bust(self) -> bool:
        return self.total > 21


def hand_returned(wager: Decimal, hand: PlayedHand, dealer: DealerHand, rules: RuleSet) -> Decimal:
    """What a wager riding on `hand` returns against the dealer's final hand."""
    if hand.surrendered:
        return round_down(wager / 2)
    if hand.blackjack:
        return wager if dealer.blackjack else wager + round_down(wager * rules.blackjack_pays)
    if dealer.blackjack or hand.bust:
        return ZERO
    if dealer.bust or hand.total > dealer.total:
        return wager * 2
    return wager if hand.total == dealer.total else ZERO


def blackjack_refund(wager: Decimal, hand: PlayedHand, rules: RuleSet) -> Decimal:
    """A cancelled round's refund, paying a blackjack already dealt where the table says so."""
    if hand.blackjack:
        return wager + round_down(wager * rules.blackjack_pays)
    return wager


def followed_hands(
    hands: list[PlayedHand], *, split: bool, follow_split: bool, followed_split: bool | None
) -> list[PlayedHand]:
    """The seat's hands a bet behind rides on: after a split, both only when the bet follows splits and
    was not refused the split (`followed_split` False: too low a balance); else the first."""
    if split and not (follow_split and followed_split is not False):
        return hands[:1]
    return hands


def insurance_stake(stake: Decimal) -> Decimal:
    """Insurance stakes half the bet it insures, rounded down to the cent."""
    return round_down(stake / 2)


class Payouts:
    """What bets return in one round, given the dealer's cards and whether (and why) the round was
    cancelled. The replay's settlement and the simulator both price every bet here.

    Identical bets on identical hands settle alike, so results are kept for the round: hands are named
    by their ids, so they must live as long as this object.
    """

    def __init__(self, rules: RuleSet, dealer: list[str], *, cancelled: bool, cancel_reason: str | None):
        self.rules = rules
        self.dealer = tuple(dealer)
        self.dealer_hand = DealerHand.from_cards(dealer)
        self.cancelled = cancelled
        self.pays_dealt_blackjack = (
            cancelled and rules.cancel_pays_dealt_blackjack and cancel_reason == "network_failure"
        )
        self._riding: dict[tuple, BetResult] = {}
        self._side_options: dict[tuple, BetResult] = {}

    def riding(self, stake: Decimal, hands: list[PlayedHand], *, follow_double: bool = True) -> BetResult:
        """A stake on each of `hands` (a main bet, or a bet behind on the hands it follows), doubled on a
        doubled hand when it follows doubles."""
        key = (stake, follow_double, *map(id, hands))
        known = self._riding.get(key)
        if known is None:
            known = self._riding[key] = self._ride(stake, hands, follow_double)
        return known

    def _ride(self, stake: Decimal, hands: list[PlayedHand], follow_double: bool) -> BetResult:
        rules = self.rules
        wagered = returned = ZERO
        for hand in hands:
            wager = stake * 2 if hand.doubled and follow_double else stake
            wagered += wager
            if not self.cancelled:
                returned += hand_returned(wager, hand, self.dealer_hand, rules)
            elif self.pays_dealt_blackjack:
                returned += blackjack_refund(wager, hand, rules)
            else:
                returned += wager
        return BetResult(wagered, returned)

    def insurance(self, stake: Decimal) -> BetResult:
        """Insurance pays when the dealer's first two cards are a blackjack."""
        if self.cancelled:
            return BetResult(stake, stake)
        if self.dealer_hand.blackjack:
            return BetResult(stake, stake + round_down(stake * self.rules.insurance_pays))
        return BetResult(stake, ZERO)

    def side_option(
        self, option: SideOption | None, stake: Decimal, player_cards: tuple[str, ...]
    ) -> BetResult:
        """A side option on the spot's first two cards (the pair, after a split) and the dealer's
        cards; an option the table does not offer is void and refunded, as is any in a cancelled round."""
        if option is None or self.cancelled:
            return BetResult(stake, stake)
        key = (option.kind, stake, player_cards)
        known = self._side_options.get(key)
        if known is None:
            dealer = self.dealer
            winner = winning_pattern(option, player_cards, dealer)
            returned = side_option_returned(option, stake, player_cards, dealer)
            known = self._side_options[key] = BetResult(stake, returned, winner[0] if winner else "")
        return known


class Settlement:
    """Computes wagered and returned for each bet of a replayed round."""

    def __init__(self, record: RoundRecord, spots: dict[str, PlayedSpot], rules: RuleSet):
        self.record = record
        self.spots = spots
        self.payouts = Payouts(
            rules, record.dealer, cancelled=record.cancelled, cancel_reason=record.cancel_reason
        )
        self.side_options = {option.kind: option for option in rules.side_options}
        # A shared deal's two cards are every player's; else each spot's first two.
        shared = record.shared
        self.shared_pair = tuple(shared.initial) if shared is not None and len(shared.initial) == 2 else None
        # A side option whose player has no main bet and no bet behind on its spot, at a table whose
        # rule sheet asks for one, is void: the ids of such bets.
        self.side_bets_without_main_bet: frozenset[str] = frozenset()
        if rules.side_options_need_main_bet:
            seat_bettors = {(bet.spot, bet.player) for bet in record.bets if bet.kind in ("main", "behind")}
            self.side_bets_without_main_bet = frozenset(
                bet.bet_id
                for bet in record.bets
                if bet.kind in self.side_options and (bet.spot, bet.player) not in seat_bettors
            )

    def bet(self, bet: BetRecord) -> BetResult:
        kind = bet.kind
        payouts = self.payouts
        if kind == "main":
            hands = self.spots[bet.spot].hands
            return payouts.riding(bet.stake, hands) if hands else NOT_RIDING
        if kind == "behind":
            return self._behind(bet)
        if kind == "insurance":
            return payouts.insurance(bet.stake)
        option = self.side_options.get(kind)
        if option is None or payouts.cancelled or bet.bet_id in self.side_bets_without_main_bet:
            return payouts.side_option(None, bet.stake, ())  # void: refunded
        player_cards = self.shared_pair or self.spots[bet.spot].initial
        if kind != "bust_bonus" and player_cards is None:
            return BetResult(bet.stake, None)
        return payouts.side_option(option, bet.stake, player_cards or ())

    def _behind(self, bet: BetRecord) -> BetResult:
        played = self.spots[bet.spot]
        hands = followed_hands(
            played.hands, split=played.split, follow_split=bet.follow_split, followed_split=bet.followed_split
        )
        if not hands:
            return NOT_RIDING
        follow_double = bet.follow_double and bet.followed_double is not False
        return self.payouts.riding(bet.stake, hands, follow_double=follow_double)
