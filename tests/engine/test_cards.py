"""Cards that cannot be, and the shared deal of a Boundless round."""

from tests.engine.documents import (
    bet,
    changed,
    codes,
    hand,
    player_spot,
    replay_document,
    round_document,
    seat,
)
from tests.fixtures import round_document as fixture_round


def test_a_card_that_does_not_exist_is_reported_and_nothing_is_settled():
    document = changed(
        fixture_round("deluxe-split-double-play-behind"), lambda d: d["dealer"].__setitem__(1, "1X")
    )
    result = replay_document(document)
    assert [f.code for f in result.findings] == ["bad_card"]
    assert "'1X'" in result.findings[0].message
    assert all(r.returned is None for r in result.bets.values())


def test_a_ninth_copy_of_a_card_is_reported():
    spots = [seat(n, f"P{n}", hand("AS 5D AS", "hit", "stand")) for n in range(1, 5)]
    bets = [bet(f"B{n}", f"P{n}", "main", n, "10.00", returned="10.00") for n in range(1, 5)]
    eight = round_document("deluxe", "9S 8D", spots, bets)
    assert codes(eight) == []  # eight aces of spades, 17 against 17
    nine = changed(eight, lambda d: d["dealer"].__setitem__(1, "AS"))
    assert "card_count_exceeded" in codes(nine)


def test_shared_cards_are_counted_once():
    # Every player holds the shared 7H 7D: five players are still two physical cards.
    spots = [player_spot(f"P{n}", hand("7H 7D", "stand")) for n in range(5)]
    bets = [bet(f"B{n}", f"P{n}", "main", f"P{n}", "10.00") for n in range(5)]
    document = round_document(
        "boundless", "8S 9C", spots, bets, shared={"initial": ["7H", "7D"], "draws": []}
    )
    assert codes(document) == []


def boundless(spots, bets, draws):
    return round_document("boundless", "8S 9C", spots, bets, shared={"initial": ["7H", "7D"], "draws": draws})


def test_a_hand_that_does_not_hold_the_shared_initial_cards_is_reported():
    document = boundless(
        [player_spot("P1", hand("7H 7C", "stand"))], [bet("B1", "P1", "main", "P1", "10.00")], []
    )
    assert codes(document) == ["shared_deal_mismatch"]


def test_every_player_takes_the_common_draws_in_order():
    spots = [
        player_spot("P1", hand("7H 7D 4C", "hit", "stand")),
        player_spot("P2", hand("7H 4C KS", "split", "double"), hand("7D TD", "stand")),
    ]
    bets = [
        bet("B1", "P1", "main", "P1", "10.00", returned="20.00"),
        bet("B2", "P2", "main", "P2", "10.00", wagered="30.00", returned="50.00"),
    ]
    assert codes(boundless(spots, bets, ["4C", "KS", "TD"])) == []
    out_of_order = changed(
        boundless(spots, bets, ["4C", "KS", "TD"]),
        lambda d: d["spots"][1]["hands"][1]["cards"].__setitem__(1, "9D"),
    )
    assert "shared_deal_mismatch" in codes(out_of_order)


def test_a_shared_draw_no_hand_took_is_reported():
    document = boundless(
        [player_spot("P1", hand("7H 7D", "stand"))], [bet("B1", "P1", "main", "P1", "10.00")], ["4C"]
    )
    assert codes(document) == ["shared_draws_unused"]
