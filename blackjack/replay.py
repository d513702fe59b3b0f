"""Re-play a round document under a table's rules: every bet's computed amounts and every finding."""

import gc
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass

from . import options
from .cards import CARD_SET, is_card
from .document import RoundRecord, parse_round
from .findings import Finding
from .hand import is_natural
from .play import PlayedSpot, SpotPlayer, check_dealer
from .rules import RuleSet, kind_label
from .settle import BetResult, Settlement, insurance_stake


@dataclass
class ReplayResult:
    round: RoundRecord
    bets: dict[str, BetResult]
    findings: list[Finding]

    @property
    def round_id(self) -> str:
        return self.round.round_id

    def to_dict(self) -> dict:
        def amount(value):
            return None if value is None else str(value)

        return {
            "round_id": self.round_id,
            "bets": {
                bet_id: {"wagered": amount(result.wagered), "returned": amount(result.returned)}
                for bet_id, result in self.bets.items()
            },
            "findings": [finding.to_dict() for finding in self.findings],
        }


def replay(document: dict | RoundRecord, rules: RuleSet) -> ReplayResult:
    """Raises RoundFormatError when `document` is not a round at all."""
    with cyclic_collector_paused():
        record = document if isinstance(document, RoundRecord) else parse_round(document)
        return _Replay(record, rules).run()


@contextmanager
def cyclic_collector_paused():
    """A 5,000-player round allocates some 100,000 objects, none of them in a cycle; the cyclic
    garbage collector's passes over them took 40% of a replay (measured with `make bench`). Ingest
    holds it paused for the same reason while it stores a round."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Replay:
    def __init__(self, record: RoundRecord, rules: RuleSet):
        self.record = record
        self.rules = rules
        self.findings: list[Finding] = []

    def find(self, code: str, message: str, **where):
        self.findings.append(Finding(code, message, **where))

    def run(self) -> ReplayResult:
        record = self.record
        if not self.cards_exist():
            return ReplayResult(
                record, {bet.bet_id: BetResult(None, None) for bet in record.bets}, self.findings
            )
        self.check_card_counts()
        self.check_seats()
        dealer_up = record.dealer[0] if record.dealer else None
        player = SpotPlayer(self.rules, dealer_up, self.findings, cancelled=record.cancelled)
        spots = {spot.spot: player.play(spot) for spot in record.spots}
        if record.shared is not None:
            self.check_shared_deal(spots.values())
        if not record.cancelled:
            check_dealer(record.dealer, list(spots.values()), record.bets, self.rules, self.findings)
            self.check_hands_finished(spots.values())
        settlement = Settlement(record, spots, self.rules)
        self.check_bets(spots, settlement)
        return ReplayResult(record, self.settle(settlement), self.findings)

    # --- cards ----------------------------------------------------------------------------

    def cards_exist(self) -> bool:
        record = self.record
        seen = set(record.dealer)
        if record.shared is not None:
            seen.update(record.shared.initial, record.shared.draws)
        for spot in record.spots:
            for hand in spot.hands:
                seen.update(hand.cards)
        if seen <= CARD_SET:
            return True
        places = [(f"the {self.rules.dealer_word}'s hand", record.dealer)]
        if record.shared is not None:
            places += [("the shared deal", record.shared.initial), ("the shared draws", record.shared.draws)]
        for spot in record.spots:
            for number, hand in enumerate(spot.hands, start=1):
                places.append((f"spot {spot.spot}, hand {number}", hand.cards))
        ok = True
        for place, cards in places:
            for card in cards:
                if not is_card(card):
                    ok = False
                    self.find("bad_card", f"{card!r} in {place} is not a card; nothing can be settled.")
        return ok

    def check_card_counts(self):
        limit = self.rules.decks
        for card, count in Counter(self.record.physical_cards()).items():
            if count > limit:
                self.find(
                    "card_count_exceeded",
                    f"{card} appears {count} times; a shoe of {limit} decks holds {limit}.",
                )

    def check_shared_deal(self, spots):
        initial = self.record.shared.initial
        draws = self.record.shared.draws
        most_taken = 0
        for played in spots:
            hands = played.spot.hands
            if not hands:
                continue
            if played.split:
                dealt = [hands[0].cards[0], hands[1].cards[0]]
                extras = hands[0].cards[1:] + hands[1].cards[1:]
            else:
                dealt = hands[0].cards[:2]
                extras = hands[0].cards[2:]
            spot_id = played.spot.spot
            if dealt != initial:
                self.find(
                    "shared_deal_mismatch",
                    f"Spot {spot_id} holds {' '.join(dealt)}; the shared deal was {' '.join(initial)}.",
                    spot=spot_id,
                )
            if extras != draws[: len(extras)]:
                self.find(
                    "shared_deal_mismatch",
                    f"Spot {spot_id} took {' '.join(extras)}; "
                    f"the common draws were {' '.join(draws) or 'none'}.",
                    spot=spot_id,
                )
            most_taken = max(most_taken, len(extras))
        if not self.record.cancelled and most_taken < len(draws):
            unused = " ".join(draws[most_taken:])
            self.find("shared_draws_unused", f"The shared draws {unused} were taken by no hand.")

    # --- seats and hands -----------------------------------------------------------------

    def check_seats(self):
        rules = self.rules
        seats_by_player = defaultdict(list)
        for spot in self.record.spots:
            if rules.seats is None:
                if spot.seat is not None:
                    self.find(
                        "seat_invalid",
                        f"Spot {spot.spot} names seat {spot.seat}; this game has no seats.",
                        spot=spot.spot,
                    )
                continue
            if spot.seat is None or not 1 <= spot.seat <= rules.seats or spot.spot != str(spot.seat):
                self.find(
                    "seat_invalid",
                    f"Spot {spot.spot} names seat {spot.seat}; the table has seats 1 to {rules.seats} "
                    "and a seat's spot is its number.",
                    spot=spot.spot,
                )
            if spot.hands:
                seats_by_player[spot.player].append(spot.spot)
        if rules.max_seats_per_player is not None:
            for player, seats in seats_by_player.items():
                if len(seats) > rules.max_seats_per_player:
                    self.find(
                        "too_many_seats",
                        f"Player {player} sits in seats {', '.join(seats)}; "
                        f"at most {rules.max_seats_per_player} per player.",
                    )

    def check_hands_finished(self, spots):
        if self.rules.hole_card and is_natural(self.record.dealer[:2]):
            return  # the dealer's blackjack ended the round before anyone decided
        for played in spots:
            for number, hand in enumerate(played.hands, start=1):
                if not hand.finished:
                    self.find(
                        "hand_not_finished",
                        f"Spot {played.spot.spot}, hand {number} stopped on {hand.total} without a stand or "
                        "another decision that ends it.",
                        spot=played.spot.spot,
                        hand=number,
                    )

    # --- bets ----------------------------------------------------------------------------

    def check_bets(self, spots: dict[str, PlayedSpot], settlement: Settlement):
        rules = self.rules
        record = self.record
        mains = defaultdict(list)
        behind = {}
        side_option_problems = {}
        for bet in record.bets:
            kind = bet.kind
            if kind == "main":
                mains[bet.spot].append(bet)
            elif kind == "behind":
                behind[(bet.spot, bet.player)] = bet
                self.check_behind(bet, record.spots_by_id[bet.spot])
            elif kind != "insurance":
                if kind not in side_option_problems:
                    side_option_problems[kind] = self.side_option_problem(kind)
                problem = side_option_problems[kind]
                if bet.bet_id in settlement.side_bets_without_main_bet:
                    problem = (
                        "side_option_without_main_bet",
                        f"player {bet.player} has no main bet and no bet behind on spot {bet.spot}, which "
                        "this table's side options need; it is void",
                    )
                if problem:
                    code, reason = problem
                    self.find(
                        code,
                        f"Bet {bet.bet_id} ({kind_label(kind)}): {reason}.",
                        bet=bet.bet_id,
                        spot=bet.spot,
                    )
                continue
            if not record.spots_by_id[bet.spot].hands:
                self.find(
                    "bet_without_hand",
                    f"Bet {bet.bet_id} rides on spot {bet.spot}, which has no cards.",
                    bet=bet.bet_id,
                    spot=bet.spot,
                )
        for spot in record.spots:
            spot_mains = mains.get(spot.spot, ())
            if spot.hands and (len(spot_mains) != 1 or spot_mains[0].player != spot.player):
                players = ", ".join(bet.player for bet in spot_mains) or "nobody"
                self.find(
                    "main_bet_invalid",
                    f"Spot {spot.spot} of player {spot.player} has seat plays by {players}; "
                    "a played spot has exactly one, its player's.",
                    spot=spot.spot,
                )
        if rules.equal_seat_plays:
            self.check_equal_seat_plays(mains)
        for bet in record.bets:
            if bet.kind == "insurance":
                base = (
                    behind.get((bet.spot, bet.player))
                    if bet.behind
                    else next(iter(mains.get(bet.spot, [])), None)
                )
                self.check_insurance(bet, base)

    def check_behind(self, bet, spot):
        if not self.rules.play_behind:
            self.find(
                "behind_not_offered",
                f"Bet {bet.bet_id} plays behind; this table offers no play behind.",
                bet=bet.bet_id,
                spot=bet.spot,
            )
        own_seats = {s.spot for s in self.record.spots if s.player == bet.player and s.hands}
        if bet.player == spot.player or bet.spot in own_seats:
            self.find(
                "behind_own_seat",
                f"Player {bet.player} plays behind their own seat {bet.spot} (bet {bet.bet_id}).",
                bet=bet.bet_id,
                spot=bet.spot,
            )

    def side_option_problem(self, kind: str) -> tuple[str, str] | None:
        """What is wrong with staking `kind` in this round (the same for every such stake), if anything."""
        option = self.rules.side_option(kind)
        if option is None:
            return "side_option_not_offered", "which this table does not offer; it is void"
        if option.max_round is not None and self.record.number > option.max_round:
            return (
                "side_option_after_max_round",
                f"staked in round {self.record.number} of the shoe; the option closes after round "
                f"{option.max_round}",
            )
        return None

    def check_equal_seat_plays(self, mains):
        stakes_by_player = defaultdict(set)
        for bets in mains.values():
            for bet in bets:
                stakes_by_player[bet.player].add(bet.stake)
        for player, stakes in stakes_by_player.items():
            if len(stakes) > 1:
                listed = ", ".join(str(stake) for stake in sorted(stakes))
                self.find(
                    "unequal_seat_plays",
                    f"Player {player} has seat plays of {listed}; every seat must carry the same.",
                )

    def check_insurance(self, bet, base):
        where = {"bet": bet.bet_id, "spot": bet.spot}
        dealer = self.record.dealer
        refusals = options.insurance_refusals(self.rules, dealer[0] if dealer else None)
        if options.NOT_OFFERED in refusals:
            self.find(
                "insurance_not_offered", f"Bet {bet.bet_id} is insurance; this table offers none.", **where
            )
        if options.NO_ACE in refusals:
            up = dealer[0] if dealer else "no card"
            self.find(
                "insurance_without_ace",
                f"Bet {bet.bet_id} insures against {up}; insurance needs a {self.rules.dealer_word} ace.",
                **where,
            )
        if base is None:
            what = "play-behind bet" if bet.behind else "seat play"
            self.find(
                "insurance_wrong_stake",
                f"Bet {bet.bet_id} insures a {what} that is not in the round.",
                **where,
            )
        elif bet.stake != insurance_stake(base.stake):
            self.find(
                "insurance_wrong_stake",
                f"Bet {bet.bet_id} stakes {bet.stake}; "
                f"insurance is half of {base.stake}, {insurance_stake(base.stake)}.",
                **where,
            )

    # --- amounts -------------------------------------------------------------------------

    def settle(self, settlement: Settlement) -> dict[str, BetResult]:
        results = {}
        for bet in self.record.bets:
            result = results[bet.bet_id] = settlement.bet(bet)
            if result.returned != bet.returned or result.wagered != bet.wagered:
                self.compare(bet, result)
        return results

    def compare(self, bet, result: BetResult):
        where = {"bet": bet.bet_id, "spot": bet.spot}
        if result.wagered is not None and result.wagered != bet.wagered:
            self.find(
                "wrong_wagered",
                f"Bet {bet.bet_id} ({kind_label(bet.kind)}) reports {bet.wagered} wagered; "
                f"the decisions put {result.wagered} at risk.",
                **where,
            )
        if result.returned is None or result.returned == bet.returned:
            return
        if self.record.cancelled:
            self.find(
                "cancelled_not_refunded",
                f"Bet {bet.bet_id} ({kind_label(bet.kind)}) of a cancelled round returned {bet.returned}; "
                f"it must return {result.returned}.",
                **where,
            )
        else:
            self.find(
                "wrong_returned",
                f"Bet {bet.bet_id} ({kind_label(bet.kind)}) returned {bet.returned}; "
                f"the rules pay {result.returned}.",
                **where,
            )
