"""Best play against the table's automatic play: the RTP a player who never acts gets (pinned, and against a
literal simulation that does not use odds.py) and the strategy chart best play implies."""

import math
import random

import pytest

from blackjack.cards import new_shoe
from blackjack.dealer import draws_on
from blackjack.hand import hand_total
from blackjack.odds import theoretical_odds
from blackjack.rules import GAMES, preset
from blackjack.strategy import automatic_decision

# --- best play and automatic play ------------------------------------------------------------------------
# AUTO: the main game when the table decides every hand (a player who never acts), pinned: hit while 11
# or less then stand (Deluxe, Boundless), always stand (classic), the strategy table (multi-player, whose
# table is basic strategy: BASIC above).
AUTO = {"deluxe": 91.9761, "boundless": 91.9761, "classic": 84.0095, "multiplayer": 99.1667}


@pytest.mark.parametrize("game", GAMES)
def test_automatic_play_returns_less_than_best_play(game):
    odds = theoretical_odds(preset(game))

    assert float(odds.auto_play_rtp) == pytest.approx(AUTO[game], abs=0.00005)
    assert odds.auto_play_rtp < odds.rtp["main"]


def test_the_chart_of_the_multiplayer_table_differs_from_its_strategy_table_on_aces_against_a_ten():
    chart = theoretical_odds(preset("multiplayer")).chart

    # Without a hole card a dealer blackjack takes split stakes too, yet two aces are still worth
    # splitting against a ten; the table's strategy table hits them.
    assert chart.differences() == [("pair A", "10", "P", "H")]
    rows = dict(chart.rows)
    assert [cell.best for cell in rows["hard 11"]] == list("DDDDDDDDHH")
    assert [cell.best for cell in rows["hard 16"]] == list("SSSSSHHHHH")


def test_the_deluxe_chart_doubles_eleven_against_a_ten_and_surrenders_sixteen_against_a_nine():
    rows = dict(theoretical_odds(preset("deluxe")).chart.rows)

    assert rows["hard 11"][8].best == "D"  # against a ten: the hole card has been checked
    # Surrender is allowed against 2-9 only: sixteen surrenders against a 9, and hits against a ten.
    assert [cell.best for cell in rows["hard 16"]][7:9] == ["R", "H"]
    assert all(cell.automatic is None for _, cells in rows.items() for cell in cells)  # no strategy table


def never_acting_player_return(rules, rounds: int, seed: int) -> tuple[float, float]:
    """A literal simulation, not odds.py: each round off the top of a shuffled full shoe, the hole card
    dealt before the player draws, every decision the table's automatic one; the mean return per unit
    staked (the stake included) and its standard error."""
    rng = random.Random(seed)
    shoe = new_shoe(rules.decks)
    total = total_squared = 0.0
    for _ in range(rounds):
        cards = rng.sample(shoe, 12)
        player, up, hole, draws = cards[0:2], cards[2], cards[3], iter(cards[4:])
        dealer = [up, hole]
        player_total, _ = hand_total(player)
        dealer_total, _ = hand_total(dealer)
        if dealer_total == 21:
            gain = 0.0 if player_total == 21 else -1.0
        elif player_total == 21:
            gain = float(rules.blackjack_pays)
        else:
            while (
                automatic_decision(rules, player, up, can_double=False, can_split=False, can_surrender=False)
                == "hit"
                and hand_total(player)[0] < 21
            ):
                player.append(next(draws))
            player_total = hand_total(player)[0]
            if player_total > 21:
                gain = -1.0
            else:
                while draws_on(*hand_total(dealer), rules.dealer_stands_on_soft_17):
                    dealer.append(next(draws))
                dealer_total = hand_total(dealer)[0]
                if dealer_total > 21 or player_total > dealer_total:
                    gain = 1.0
                else:
                    gain = 0.0 if player_total == dealer_total else -1.0
        total += 1 + gain
        total_squared += (1 + gain) ** 2
    mean = total / rounds
    return mean, math.sqrt((total_squared / rounds - mean**2) / rounds)


@pytest.mark.parametrize("game", ["deluxe", "classic"])  # hit while 11 or less; always stand
def test_the_automatic_play_rtp_agrees_with_a_literal_simulation_of_a_player_who_never_acts(game):
    rules = preset(game)
    simulated, standard_error = never_acting_player_return(rules, rounds=200_000, seed=14)

    assert float(theoretical_odds(rules).auto_play_rtp) == pytest.approx(
        100 * simulated, abs=4 * 100 * standard_error
    )
