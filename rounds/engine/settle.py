"""What every bet should have put at risk and paid back, given how the round was played."""

from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal

from .document import BetRecord, RoundRecord
from .hand import hand_total, is_natural
from .play import PlayedHand, PlayedSpot
from .rules import RuleSet
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


@dataclass(slots=True)
class Facilitator:
    cards: list[str]
    total: int
    blackjack: bool

    @classmethod
    def from_cards(cls, cards: list[str]) -> "Facilitator":
        return cls(cards, hand_total(cards)[0] if cards else 0, is_natural(cards[:2]))

    @property
    def bust(self) -> bool:
        return self.total > 21


def hand_returned(wager: Decimal, hand: PlayedHand, facilitator: Facilitator, rules: RuleSet) -> Decimal:
    """What a wager riding on `hand` returns against the facilitator's final hand."""
    if hand.surrendered:
        return round_down(wager / 2)
    if hand.blackjack:
        return wager if facilitator.blackjack else wager + round_down(wager * rules.blackjack_pays)
    if facilitator.blackjack or hand.bust:
        return ZERO
    if facilitator.bust or hand.total > facilitator.total:
        return wager * 2
    return wager if hand.total == facilitator.total else ZERO


def blackjack_refund(wager: Decimal, hand: PlayedHand, rules: RuleSet) -> Decimal:
    """A cancelled round's refund, paying a blackjack already dealt where the table says so."""
    if hand.blackjack:
        return wager + round_down(wager * rules.blackjack_pays)
    return wager


class Settlement:
    """Computes wagered and returned for each bet of a replayed round."""

    def __init__(self, record: RoundRecord, spots: dict[str, PlayedSpot], rules: RuleSet):
        self.record = record
        self.spots = spots
        self.rules = rules
        self.facilitator = Facilitator.from_cards(record.dealer)
        self._settled: dict[tuple, BetResult] = {}  # identical bets on identical plays settle alike
        self.pays_dealt_blackjack = (
            record.cancelled
            and rules.cancel_pays_dealt_blackjack
            and record.cancel_reason == "network_failure"
        )

    def bet(self, bet: BetRecord) -> BetResult:
        kind = bet.kind
        if kind == "main":
            return self._riding(bet, self.spots[bet.spot].hands, follow_double=True)
        if kind == "behind":
            return self._behind(bet)
        if kind == "insurance":
            return self._insurance(bet)
        return self._side_option(bet)

    def _riding(self, bet: BetRecord, hands: list[PlayedHand], *, follow_double: bool) -> BetResult:
        if not hands:
            return BetResult(None, None)
        # Played hands live as long as the replay, so their ids name them.
        key = (bet.stake, follow_double, *map(id, hands))
        known = self._settled.get(key)
        if known is None:
            known = self._settled[key] = self._ride(bet, hands, follow_double=follow_double)
        return known

    def _ride(self, bet: BetRecord, hands: list[PlayedHand], *, follow_double: bool) -> BetResult:
        wagered = returned = ZERO
        for hand in hands:
            wager = bet.stake * 2 if hand.doubled and follow_double else bet.stake
            wagered += wager
            if self.record.cancelled:
                returned += blackjack_refund(wager, hand, self.rules) if self.pays_dealt_blackjack else wager
            else:
                returned += hand_returned(wager, hand, self.facilitator, self.rules)
        return BetResult(wagered, returned)

    def _behind(self, bet: BetRecord) -> BetResult:
        played = self.spots[bet.spot]
        hands = played.hands
        if played.split and not (bet.follow_split and bet.followed_split is not False):
            hands = hands[:1]
        follow_double = bet.follow_double and bet.followed_double is not False
        return self._riding(bet, hands, follow_double=follow_double)

    def _insurance(self, bet: BetRecord) -> BetResult:
        if self.record.cancelled:
            return BetResult(bet.stake, bet.stake)
        wins = is_natural(self.record.dealer[:2])
        returned = bet.stake + round_down(bet.stake * self.rules.insurance_pays) if wins else ZERO
        return BetResult(bet.stake, returned)

    def _side_option(self, bet: BetRecord) -> BetResult:
        option = self.rules.side_option(bet.kind)
        if option is None or self.record.cancelled:
            return BetResult(bet.stake, bet.stake)  # void: refunded
        player_cards = self.player_cards(bet.spot)
        if bet.kind != "bust_bonus" and player_cards is None:
            return BetResult(bet.stake, None)
        key = (bet.kind, bet.stake, player_cards)
        known = self._settled.get(key)
        if known is None:
            winner = winning_pattern(option, player_cards or (), tuple(self.record.dealer))
            returned = side_option_returned(option, bet.stake, player_cards or (), tuple(self.record.dealer))
            known = self._settled[key] = BetResult(bet.stake, returned, winner[0] if winner else "")
        return known

    def player_cards(self, spot_id: str) -> tuple[str, str] | None:
        if self.record.shared is not None and len(self.record.shared.initial) == 2:
            return tuple(self.record.shared.initial)
        return self.spots[spot_id].initial
