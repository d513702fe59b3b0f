"""What a replay can find wrong with a round: a code, where, and a sentence for compliance staff."""

from dataclasses import dataclass

# Every code the engine raises, with the title a reviewer sees in lists and filters.
FINDING_CODES = {
    "bad_card": "Card that does not exist",
    "card_count_exceeded": "More copies of a card than the shoe holds",
    "shared_deal_mismatch": "Hand does not match the shared deal",
    "shared_draws_unused": "Shared draw taken by no hand",
    "dealer_missing_hole_card": "Dealer has no hole card",
    "dealer_stopped_early": "Dealer stopped below 17",
    "dealer_drew_on_17": "Dealer drew on 17 or more",
    "dealer_drew_after_end": "Dealer drew when the round had to end",
    "play_after_dealer_blackjack": "Play after a dealer blackjack",
    "double_not_allowed": "Double the table forbids",
    "split_not_allowed": "Split the table forbids",
    "surrender_not_allowed": "Surrender the table forbids",
    "action_after_hand_ended": "Decision on a hand that had ended",
    "card_limit_exceeded": "More cards than the card limit",
    "cards_actions_mismatch": "Cards do not match the decisions",
    "hand_not_finished": "Hand left without an ending",
    "auto_play_wrong": "Automatic decision against the table's policy",
    "side_option_not_offered": "Side option the table does not offer",
    "side_option_after_max_round": "Side option staked after its max round",
    "side_option_without_main_bet": "Side option without the player's main bet",
    "insurance_not_offered": "Insurance the table does not offer",
    "insurance_without_ace": "Insurance without a dealer ace",
    "insurance_wrong_stake": "Insurance not half the stake",
    "behind_not_offered": "Play behind the table does not offer",
    "behind_own_seat": "Player plays behind their own seat",
    "seat_invalid": "Seat outside the table",
    "too_many_seats": "Player in more seats than allowed",
    "unequal_seat_plays": "Unequal seat plays",
    "main_bet_invalid": "Seat play missing or not the seated player's",
    "bet_without_hand": "Bet on a spot with no cards",
    "wrong_wagered": "Wagered amount differs from the computed one",
    "wrong_returned": "Returned amount differs from the computed one",
    "cancelled_not_refunded": "Cancelled round not refunded exactly",
}


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    message: str
    bet: str | None = None
    spot: str | None = None
    hand: int | None = None  # 1 for the first hand of the spot, 2 for the second split hand

    def __post_init__(self):
        if self.code not in FINDING_CODES:
            raise ValueError(f"unknown finding code {self.code!r}")

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "bet": self.bet,
            "spot": self.spot,
            "hand": self.hand,
            "message": self.message,
        }
