"""Walking each hand's decisions and the dealer's draws against the table's rules.

Everything here reports what it finds into a list of findings and returns what actually
happened (the hands as played, the dealer's hand), so that settlement can price it.
"""

from dataclasses import dataclass

from . import options
from .dealer import draws_on, must_draw
from .document import Action, BetRecord, SpotRecord
from .findings import Finding
from .hand import hand_total, is_natural
from .rules import RuleSet
from .strategy import automatic_decision, low_balance_decision

_TAKES_CARD = frozenset({"hit", "double"})


@dataclass(slots=True)
class PlayedHand:
    cards: list[str]
    total: int
    from_split: bool
    doubled: bool = False
    surrendered: bool = False
    finished: bool = False

    @property
    def bust(self) -> bool:
        return self.total > 21

    @property
    def blackjack(self) -> bool:
        return not self.from_split and is_natural(self.cards)

    @property
    def awaits_dealer(self) -> bool:
        """Whether its result depends on the dealer's hand: not bust, surrendered or a blackjack."""
        return not (self.bust or self.surrendered or self.blackjack)


@dataclass(slots=True)
class PlayedSpot:
    spot: SpotRecord
    hands: list[PlayedHand]
    split: bool
    initial: tuple[str, str] | None  # the first two cards dealt to the spot (the pair, after a split)


class SpotPlayer:
    """Replays the decisions of one spot's hands; appends findings to `findings`."""

    def __init__(
        self, rules: RuleSet, dealer_up: str | None, findings: list[Finding], *, cancelled: bool = False
    ):
        self.rules = rules
        self.dealer_up = dealer_up
        self.findings = findings
        self.cancelled = cancelled
        # Spots that hold the same cards and decisions play the same (thousands do in a shared
        # deal): a clean play is worked out once and shared. Played hands are never changed.
        self._clean_plays: dict[tuple, PlayedSpot] = {}

    def play(self, spot: SpotRecord) -> PlayedSpot:
        key = tuple((tuple(hand.cards), tuple(hand.actions)) for hand in spot.hands)
        known = self._clean_plays.get(key)
        if known is not None:
            return PlayedSpot(spot, known.hands, known.split, known.initial)
        found_before = len(self.findings)
        played = self._play(spot)
        if len(self.findings) == found_before:
            self._clean_plays[key] = played
        return played

    def _play(self, spot: SpotRecord) -> PlayedSpot:
        hands = spot.hands
        if not hands:
            return PlayedSpot(spot, [], False, None)
        first = hands[0]
        split = bool(first.actions) and first.actions[0].name == "split"
        if split:
            if len(hands) != 2 or not first.cards or not hands[1].cards:
                self._find(
                    "cards_actions_mismatch", spot, 1, f"a split must leave two hands, not {len(hands)}"
                )
                split = len(hands) >= 2 and bool(first.cards) and bool(hands[1].cards)
        if not split and len(hands) > 1:
            self._find("cards_actions_mismatch", spot, 2, f"{len(hands)} hands without a split")
        if split:
            initial = (first.cards[0], hands[1].cards[0])
            self._check_split(spot, initial, first.actions[0])
            split_aces = options.split_hand_takes_one_card(initial[0])
            played = [
                self._walk(spot, 1, first.cards, first.actions[1:], from_split=True, split_aces=split_aces),
                self._walk(spot, 2, hands[1].cards, hands[1].actions, from_split=True, split_aces=split_aces),
            ]
            played += [
                self._walk(spot, n, hand.cards, hand.actions, from_split=True, split_aces=False)
                for n, hand in enumerate(hands[2:], start=3)
            ]
        else:
            initial = tuple(first.cards[:2]) if len(first.cards) >= 2 else None
            played = [
                self._walk(spot, n, hand.cards, hand.actions, from_split=n > 1, split_aces=False)
                for n, hand in enumerate(hands, start=1)
            ]
        return PlayedSpot(spot, played, split, initial)

    # --- one hand ------------------------------------------------------------------------

    def _walk(self, spot, hand_no, cards, actions, *, from_split: bool, split_aces: bool) -> PlayedHand:
        if len(cards) < 2 and not self.cancelled:  # a cancelled deal may stop after one card
            self._find(
                "cards_actions_mismatch", spot, hand_no, f"the hand holds {len(cards)} card(s), not two"
            )
        held = list(cards[:2])
        position = len(held)
        total, soft = hand_total(held)
        hand = PlayedHand(cards, total, from_split)
        ended = None  # why no decision may follow
        if split_aces:
            ended = "a split ace takes one card only"
        elif total == 21:
            ended = "21" if from_split else "a blackjack"
        automatic = False
        for index, action in enumerate(actions):
            name = action.name
            if ended:
                if name in _TAKES_CARD and ended == "the card limit":
                    self._find(
                        "card_limit_exceeded",
                        spot,
                        hand_no,
                        f"{action.label} on a hand of {len(held)} cards: the table stops a hand at "
                        f"{self.rules.max_cards} cards",
                    )
                else:
                    self._find("action_after_hand_ended", spot, hand_no, f"{action.label} after {ended}")
            else:
                self._check_decision(spot, hand_no, action, held, total, soft, index, from_split)
                if automatic and not action.auto:
                    self._find(
                        "auto_play_wrong",
                        spot,
                        hand_no,
                        f"{action.label} by the player after the system had taken over the hand",
                    )
                if action.auto:
                    self._check_automatic(spot, hand_no, action, held, total, soft, index, from_split)
                    automatic = automatic or action.requested is None
            if name == "split":
                continue
            if name in _TAKES_CARD:
                if position >= len(cards):
                    self._find("cards_actions_mismatch", spot, hand_no, f"no card for the {action.label}")
                else:
                    held.append(cards[position])
                    position += 1
                    total, soft = hand_total(held)
            if name == "stand":
                ended = ended or "a stand"
            elif name == "surrender":
                hand.surrendered = True
                ended = ended or "a surrender"
            elif name == "double":
                hand.doubled = True
                ended = ended or "a double, which takes one card only"
            if not ended or ended == "a double, which takes one card only":
                if total > 21:
                    ended = "a bust" if not ended else ended
                elif total == 21:
                    ended = ended or "21"
                elif self.rules.max_cards and len(held) >= self.rules.max_cards:
                    ended = ended or "the card limit"
        if position < len(cards):
            extra = len(cards) - position
            self._find(
                "cards_actions_mismatch", spot, hand_no, f"{extra} card(s) more than its decisions took"
            )
        hand.total = total
        hand.finished = ended is not None
        return hand

    def _check_decision(self, spot, hand_no, action, held, total, soft, index, from_split):
        name = action.name
        if name == "double":
            reason = self.double_refusal(held, total, soft, index, from_split)
            if reason:
                self._find("double_not_allowed", spot, hand_no, f"{action.label} {reason}")
        elif name == "split":
            reason = (
                "only one split per hand"
                if from_split or index > 0
                else "split is recorded on the first hand"
            )
            self._find("split_not_allowed", spot, hand_no, f"{action.label}: {reason}")
        elif name == "surrender":
            reason = self.surrender_refusal(index, from_split)
            if reason:
                self._find("surrender_not_allowed", spot, hand_no, f"{action.label} {reason}")

    def double_refusal(self, held, total, soft, index, from_split) -> str | None:
        refusal = options.double_refusal(self.rules, held, first_decision=index == 0, after_split=from_split)
        if refusal == options.NOT_FIRST_DECISION:
            return "after another decision: a double is the first decision on two cards"
        if refusal == options.NO_DOUBLE_AFTER_SPLIT:
            return "after a split: this table allows no double after a split"
        if refusal == options.NOT_HARD_9_TO_11:
            kind = "soft" if soft else "hard"
            return f"on {kind} {total}: this table allows a double on hard 9, 10 or 11 only"
        return None

    def surrender_refusal(self, index, from_split) -> str | None:
        up = self.dealer_up
        refusal = options.surrender_refusal(self.rules, up, first_decision=index == 0, after_split=from_split)
        if refusal == options.NOT_OFFERED:
            return "at a table that offers no surrender"
        if refusal == options.NOT_FIRST_DECISION:
            return "after another decision: surrender is only the first decision on the initial hand"
        if refusal == options.DEALER_ACE_OR_TEN:
            return f"against the {self.rules.dealer_word}'s {up}: surrender is offered against 2 to 9 only"
        return None

    def _check_split(self, spot, pair, action: Action):
        if options.split_refusal(self.rules, pair) == options.NOT_A_PAIR:
            same = "rank" if self.rules.split_match == "rank" else "value"
            self._find(
                "split_not_allowed",
                spot,
                1,
                f"split of {pair[0]} and {pair[1]}: not two cards of the same {same}",
            )
        if action.auto:
            held = list(pair)
            total, soft = hand_total(held)
            self._check_automatic(spot, 1, action, held, total, soft, 0, False)

    # --- decisions the system took ----------------------------------------------------------

    def _check_automatic(self, spot, hand_no, action, held, total, soft, index, from_split):
        expected = self.expected_automatic(action, held, total, soft, index, from_split)
        if expected is not None and action.name not in expected:
            why = f"for a requested {action.requested}" if action.requested else "for a missing decision"
            wanted = " or ".join(f"auto_{name}" for name in expected)
            self._find(
                "auto_play_wrong",
                spot,
                hand_no,
                f"{action.label} on {total} {why}: the table's policy gives {wanted}",
            )

    def expected_automatic(self, action, held, total, soft, index, from_split) -> tuple[str, ...] | None:
        """The automatic decisions the table's policy allows here; None when it sets none."""
        rules = self.rules
        if action.requested is not None:
            policy = rules.low_balance_double if action.requested == "double" else rules.low_balance_split
            if action.requested not in ("double", "split") or policy is None:
                return None
            return (low_balance_decision(policy, total),)
        decision = automatic_decision(
            rules,
            held,
            self.dealer_up,
            can_double=options.may_double(rules, held, first_decision=index == 0, after_split=from_split),
            can_split=options.may_split(rules, held, first_decision=index == 0, after_split=from_split),
            can_surrender=options.may_surrender(
                rules, self.dealer_up, first_decision=index == 0, after_split=from_split
            ),
        )
        return (decision,)

    def _find(self, code, spot, hand_no, message):
        self.findings.append(
            Finding(code, f"Spot {spot.spot}, hand {hand_no}: {message}.", spot=spot.spot, hand=hand_no)
        )


# --- the dealer ---------------------------------------------------------------------


def check_dealer(dealer: list[str], spots: list[PlayedSpot], bets: list[BetRecord], rules: RuleSet, findings):
    """Did the dealer draw exactly the cards the rules required, given how the players played?"""
    who = rules.dealer_word
    if rules.hole_card:
        if len(dealer) < 2:
            findings.append(Finding("dealer_missing_hole_card", f"The {who} has no hole card."))
            return
        if is_natural(dealer[:2]):
            for played in spots:
                if (
                    played.split
                    or any(len(h.cards) > 2 for h in played.hands)
                    or any(h.actions for h in played.spot.hands)
                ):
                    findings.append(
                        Finding(
                            "play_after_dealer_blackjack",
                            f"Spot {played.spot.spot} played on after the {who}'s blackjack, "
                            "which ends the round at once.",
                            spot=played.spot.spot,
                        )
                    )
        held = dealer[:2]
    elif not dealer:
        findings.append(Finding("dealer_stopped_early", f"The {who} has no card."))
        return
    else:
        held = dealer[:1]
    hands = [hand for played in spots for hand in played.hands]
    awaited = {
        "live": any(hand.awaits_dealer for hand in hands),
        "blackjacks": any(hand.blackjack for hand in hands),
        "insurance": any(bet.kind == "insurance" for bet in bets),
        "bust_bonus": any(bet.kind == "bust_bonus" for bet in bets),
    }
    stands_on_soft_17 = rules.dealer_stands_on_soft_17
    position = len(held)
    while must_draw(held, rules, **awaited):
        if position >= len(dealer):
            draws = "below 17" if stands_on_soft_17 else "below 17 and on soft 17"
            findings.append(
                Finding(
                    "dealer_stopped_early",
                    f"The {who} stopped on {_total_text(held)} ({' '.join(held)}) and must draw {draws}.",
                )
            )
            return
        held = held + [dealer[position]]
        position += 1
    if position < len(dealer):
        total, soft = hand_total(held)
        extra = " ".join(dealer[position:])
        ended_by_blackjack = rules.hole_card and is_natural(dealer[:2])
        if not draws_on(total, soft, stands_on_soft_17) and not ended_by_blackjack:
            stands = "on all 17" if stands_on_soft_17 else "on hard 17 and on 18 or more, and hits soft 17"
            message = f"The {who} drew {extra} on {_total_text(held)}: the {who} stands {stands}."
            findings.append(Finding("dealer_drew_on_17", message))
        else:
            message = (
                f"The {who} drew {extra} although no bet depended on the {who}'s hand "
                "any more: the round had to end."
            )
            findings.append(Finding("dealer_drew_after_end", message))


def _total_text(cards: list[str]) -> str:
    total, soft = hand_total(cards)
    return f"soft {total}" if soft else str(total)
