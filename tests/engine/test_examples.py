"""Every shared example replays with no finding and the same amounts; one change gives one finding."""

from decimal import Decimal

import pytest

from tests.engine.documents import changed, codes, example, example_names, replay_document

EXAMPLE_TOTALS = {
    "deluxe-split-double-behind.json": ("67.00", "152.00"),
    "deluxe-dealer-blackjack-insurance.json": ("32.00", "31.00"),
    "deluxe-surrender-and-auto-play.json": ("51.00", "8.00"),
    "boundless-shared-deal.json": ("60.00", "92.00"),
    "multiplayer-no-hole-card.json": ("55.00", "10.00"),
    "classic-perfect-pairs-21-plus-3.json": ("41.00", "225.00"),
    "classic-cancelled-network-failure.json": ("21.00", "36.00"),
}


def test_every_example_is_covered():
    assert example_names() == sorted(EXAMPLE_TOTALS)


@pytest.mark.parametrize("name", sorted(EXAMPLE_TOTALS))
def test_it_replays_the_example_without_finding(name):
    document = example(name)
    result = replay_document(document)
    assert result.findings == []
    for bet in document["bets"]:
        computed = result.bets[bet["bet_id"]]
        assert (str(computed.wagered), str(computed.returned)) == (bet["wagered"], bet["returned"])
    wagered = sum(result.bets[b["bet_id"]].wagered for b in document["bets"])
    returned = sum(result.bets[b["bet_id"]].returned for b in document["bets"])
    assert (wagered, returned) == tuple(Decimal(x) for x in EXAMPLE_TOTALS[name])


@pytest.mark.parametrize("name", sorted(EXAMPLE_TOTALS))
def test_it_reports_every_changed_returned_amount(name):
    document = example(name)
    expected = "cancelled_not_refunded" if document["status"] == "cancelled" else "wrong_returned"
    for index, bet in enumerate(document["bets"]):
        wrong = f"{Decimal(bet['returned']) + Decimal('0.01')}"
        mutated = changed(document, lambda d, i=index, w=wrong: d["bets"][i].update(returned=w))
        findings = replay_document(mutated).findings
        assert [(f.code, f.bet) for f in findings] == [(expected, bet["bet_id"])]


@pytest.mark.parametrize("name", sorted(EXAMPLE_TOTALS))
def test_it_reports_every_changed_wagered_amount(name):
    document = example(name)
    for index, bet in enumerate(document["bets"]):
        wrong = f"{Decimal(bet['wagered']) + Decimal('1.00')}"
        mutated = changed(document, lambda d, i=index, w=wrong: d["bets"][i].update(wagered=w))
        assert ("wrong_wagered", bet["bet_id"]) in [
            (f.code, f.bet) for f in replay_document(mutated).findings
        ]


def test_a_changed_facilitator_card_is_a_wrong_settlement():
    # 9S 7H KD busts; with a 4D the facilitator stands on 20: the split hand of 17 now loses, the
    # doubled 21 (and the play behind that follows only it) still wins.
    mutated = changed(example("deluxe-split-double-behind.json"), lambda d: d["dealer"].__setitem__(2, "4D"))
    result = replay_document(mutated)
    assert [(f.code, f.bet) for f in result.findings] == [("wrong_returned", "B-1")]
    assert str(result.bets["B-1"].returned) == "40.00"


def test_a_changed_player_card_breaks_the_pair_payout():
    mutated = changed(
        example("deluxe-split-double-behind.json"),
        lambda d: d["spots"][0]["hands"][1]["cards"].__setitem__(0, "8H"),
    )
    # 8H 8H is a perfect pair (30:1), not the mixed pair paid.
    assert ("wrong_returned", "B-2") in [(f.code, f.bet) for f in replay_document(mutated).findings]


def test_a_changed_action_is_reported():
    # A stand recorded on the doubled hand: the double already ended it.
    mutated = changed(
        example("deluxe-split-double-behind.json"),
        lambda d: d["spots"][0]["hands"][0]["actions"].append("stand"),
    )
    assert codes(mutated) == ["action_after_hand_ended"]


def test_a_removed_shared_draw_is_reported():
    mutated = changed(
        example("boundless-shared-deal.json"), lambda d: d["shared"]["draws"].__setitem__(1, "9S")
    )
    assert "shared_deal_mismatch" in codes(mutated)


def test_a_surrender_against_a_ten_is_reported():
    mutated = changed(
        example("deluxe-surrender-and-auto-play.json"), lambda d: d["dealer"].__setitem__(0, "TS")
    )
    assert "surrender_not_allowed" in codes(mutated)


def test_the_cancelled_blackjack_is_only_paid_after_a_network_failure():
    mutated = changed(
        example("classic-cancelled-network-failure.json"), lambda d: d.update(cancel_reason="malfunction")
    )
    assert [(f.code, f.bet) for f in replay_document(mutated).findings] == [
        ("cancelled_not_refunded", "B-61")
    ]
