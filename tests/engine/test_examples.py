"""Every fixture round replays with no finding and its hand-worked amounts; one change gives one finding."""

from decimal import Decimal

import pytest

from tests.engine.documents import changed, codes, replay_document
from tests.fixtures import ROUND_NAMES, round_document

# (wagered, returned) of each fixture round, worked out by hand from the rules, bet by bet, in
# tests/fixtures/README.md; not taken from the engine.
HAND_WORKED_TOTALS = {
    "deluxe-split-double-play-behind": ("96.25", "233.12"),
    "deluxe-facilitator-blackjack-insurance": ("81.37", "121.36"),
    "deluxe-surrender-auto-play": ("101.00", "201.50"),
    "boundless-shared-deal-split-double": ("70.00", "95.00"),
    "boundless-bust-bonus-and-trios": ("51.00", "481.00"),
    "multiplayer-facilitator-blackjack-no-hole-card": ("74.00", "12.00"),
    "multiplayer-nine-cards-and-strategy": ("70.00", "140.00"),
    "classic-perfect-pairs-21-plus-3-behind": ("81.50", "258.00"),
    "classic-network-failure-refunds": ("41.50", "77.50"),
}


def test_every_fixture_round_is_covered():
    assert list(ROUND_NAMES) == sorted(HAND_WORKED_TOTALS)


@pytest.mark.parametrize("name", sorted(HAND_WORKED_TOTALS))
def test_it_replays_the_fixture_without_finding(name):
    document = round_document(name)
    result = replay_document(document)
    assert result.findings == []
    for bet in document["bets"]:
        computed = result.bets[bet["bet_id"]]
        assert (str(computed.wagered), str(computed.returned)) == (bet["wagered"], bet["returned"])
    wagered = sum(result.bets[b["bet_id"]].wagered for b in document["bets"])
    returned = sum(result.bets[b["bet_id"]].returned for b in document["bets"])
    assert (wagered, returned) == tuple(Decimal(x) for x in HAND_WORKED_TOTALS[name])


@pytest.mark.parametrize("name", sorted(HAND_WORKED_TOTALS))
def test_it_reports_every_changed_returned_amount(name):
    document = round_document(name)
    expected = "cancelled_not_refunded" if document["status"] == "cancelled" else "wrong_returned"
    for index, bet in enumerate(document["bets"]):
        wrong = f"{Decimal(bet['returned']) + Decimal('0.01')}"
        mutated = changed(document, lambda d, i=index, w=wrong: d["bets"][i].update(returned=w))
        findings = replay_document(mutated).findings
        assert [(f.code, f.bet) for f in findings] == [(expected, bet["bet_id"])]


@pytest.mark.parametrize("name", sorted(HAND_WORKED_TOTALS))
def test_it_reports_every_changed_wagered_amount(name):
    document = round_document(name)
    for index, bet in enumerate(document["bets"]):
        wrong = f"{Decimal(bet['wagered']) + Decimal('1.00')}"
        mutated = changed(document, lambda d, i=index, w=wrong: d["bets"][i].update(wagered=w))
        assert ("wrong_wagered", bet["bet_id"]) in [
            (f.code, f.bet) for f in replay_document(mutated).findings
        ]


def test_a_changed_dealer_card_is_a_wrong_settlement():
    # 5C TS 8D busts; with a 4S the dealer stands on 19: seat 2's second split hand (17) now
    # loses, its doubled 20 still wins. D23-1 (both hands) and D23-6 (behind, following the split)
    # are paid too much; D23-4 follows the first hand only and is still right.
    mutated = changed(
        round_document("deluxe-split-double-play-behind"), lambda d: d["dealer"].__setitem__(2, "4S")
    )
    result = replay_document(mutated)
    assert [(f.code, f.bet) for f in result.findings] == [
        ("wrong_returned", "D23-1"),
        ("wrong_returned", "D23-6"),
    ]
    assert (str(result.bets["D23-1"].returned), str(result.bets["D23-6"].returned)) == ("60.00", "12.00")


def test_a_changed_player_card_breaks_the_pair_payout():
    mutated = changed(
        round_document("deluxe-split-double-play-behind"),
        lambda d: d["spots"][0]["hands"][1]["cards"].__setitem__(0, "6D"),
    )
    # 6D 6D is a perfect pair (30:1), not the coloured pair paid.
    result = replay_document(mutated)
    assert [(f.code, f.bet) for f in result.findings] == [("wrong_returned", "D23-2")]
    assert str(result.bets["D23-2"].returned) == "124.00"


def test_a_changed_action_is_reported():
    # A stand recorded on the doubled hand: the double already ended it.
    mutated = changed(
        round_document("deluxe-split-double-play-behind"),
        lambda d: d["spots"][0]["hands"][0]["actions"].append("stand"),
    )
    assert codes(mutated) == ["action_after_hand_ended"]


def test_a_changed_shared_draw_is_reported():
    # The second common draw was 9H, which P7302's first split hand and P7303 both took.
    mutated = changed(
        round_document("boundless-shared-deal-split-double"),
        lambda d: d["shared"]["draws"].__setitem__(1, "9S"),
    )
    assert "shared_deal_mismatch" in codes(mutated)


def test_a_surrender_against_a_ten_is_reported():
    mutated = changed(
        round_document("deluxe-surrender-auto-play"), lambda d: d["dealer"].__setitem__(0, "TS")
    )
    assert "surrender_not_allowed" in codes(mutated)


def test_bust_bonus_pays_by_the_number_of_cards_in_the_bust():
    # 8C 2D 3H 2S then 9H: bust on 24 with 5 cards (9:1), not 6 (50:1).
    mutated = changed(
        round_document("boundless-bust-bonus-and-trios"),
        lambda d: d.update(dealer=["8C", "2D", "3H", "2S", "9H"]),
    )
    result = replay_document(mutated)
    assert [(f.code, f.bet) for f in result.findings] == [
        ("wrong_returned", "B09-2"),
        ("wrong_returned", "B09-8"),
    ]
    assert (str(result.bets["B09-2"].returned), str(result.bets["B09-8"].returned)) == ("20.00", "10.00")


def test_a_tenth_card_is_beyond_the_card_limit():
    def hit_again(document):
        hand = document["spots"][0]["hands"][0]
        hand["cards"].append("4D")
        hand["actions"].append("hit")

    mutated = changed(round_document("multiplayer-nine-cards-and-strategy"), hit_again)
    assert "card_limit_exceeded" in codes(mutated)


def test_the_cancelled_blackjack_is_only_paid_after_a_network_failure():
    # The blackjack's seat play and the bet behind it are paid 3:2 only for a network failure.
    mutated = changed(
        round_document("classic-network-failure-refunds"), lambda d: d.update(cancel_reason="malfunction")
    )
    assert [(f.code, f.bet) for f in replay_document(mutated).findings] == [
        ("cancelled_not_refunded", "C18-1"),
        ("cancelled_not_refunded", "C18-2"),
    ]


@pytest.mark.parametrize(("spot", "expected"), [("5", []), ("1", ["side_option_without_main_bet"])])
def test_a_classic_side_option_needs_the_players_own_bet_on_the_seat(spot, expected):
    # P7551 plays behind seat 5 only and stakes Perfect Pairs: on seat 5 (5D 6H, no pair) it loses;
    # on seat 1 (QH QH, a perfect pair) it is void and returns its stake, 25 to 1 notwithstanding.
    side_bet = {"bet_id": "C17-9", "player": "P7551", "kind": "perfect_pairs", "spot": spot}
    side_bet |= {"stake": "1.00", "wagered": "1.00", "returned": "0.00" if spot == "5" else "1.00"}
    mutated = changed(
        round_document("classic-perfect-pairs-21-plus-3-behind"), lambda d: d["bets"].append(side_bet)
    )
    result = replay_document(mutated)
    assert [finding.code for finding in result.findings] == expected
    assert all(finding.bet == "C17-9" for finding in result.findings)
