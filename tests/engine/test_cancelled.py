"""A cancelled round refunds every bet exactly what it wagered, with the classic exception."""

from hypothesis import given
from hypothesis import strategies as st

from tests.engine.documents import bet, codes, hand, replay_document, round_document, seat

REASONS = ["card_unreadable", "network_failure", "malfunction", "procedure_error"]


def cancelled(game, reason, cards, bets, actions=()):
    return round_document(
        game,
        "6C",
        [seat(1, "P1", hand(cards, *actions))],
        bets,
        status="cancelled",
        cancel_reason=reason,
    )


@given(
    game=st.sampled_from(["deluxe", "classic", "multiplayer"]),
    reason=st.sampled_from(REASONS),
    cents=st.integers(min_value=1, max_value=10_000_000),
)
def test_a_refund_returns_exactly_what_was_wagered(game, reason, cents):
    stake = f"{cents // 100}.{cents % 100:02d}"
    document = cancelled(game, reason, "9D 7S", [bet("B1", "P1", "main", 1, stake, returned=stake)])
    result = replay_document(document)
    assert result.findings == []
    assert result.bets["B1"].returned == result.bets["B1"].wagered


def test_a_doubled_hand_refunds_the_double_too():
    document = cancelled(
        "deluxe", "malfunction", "5D 6S", [bet("B1", "P1", "main", 1, "10.00", "20.00", "20.00")], ["double"]
    )
    document["spots"][0]["hands"][0]["cards"].append("9H")
    assert codes(document) == []


def test_a_short_refund_is_reported():
    document = cancelled(
        "deluxe", "card_unreadable", "9D 7S", [bet("B1", "P1", "main", 1, "10.00", returned="9.99")]
    )
    assert codes(document) == ["cancelled_not_refunded"]


def test_classic_pays_a_dealt_blackjack_3_to_2_after_a_network_failure_on_every_bet_riding_on_it():
    bets = [
        bet("B1", "P1", "main", 1, "10.00", returned="25.00"),
        bet("B2", "P2", "behind", 1, "5.01", returned="12.52"),
        bet("B3", "P1", "perfect_pairs", 1, "1.00", returned="1.00"),
    ]
    assert codes(cancelled("classic", "network_failure", "AH KC", bets)) == []
    refunded = [bet("B1", "P1", "main", 1, "10.00", returned="10.00")]
    for reason in ("card_unreadable", "malfunction", "procedure_error"):
        assert codes(cancelled("classic", reason, "AH KC", refunded)) == []
    assert codes(cancelled("deluxe", "network_failure", "AH KC", refunded)) == []
