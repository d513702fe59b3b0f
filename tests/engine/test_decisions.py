"""Decisions the table forbids, and cards that do not match the decisions."""

import pytest

from tests.engine.documents import bet, codes, hand, replay_document, round_document, seat


def one_seat(game, dealer, *hands, stake="10.00", wagered=None, returned="0.00"):
    return round_document(
        game,
        dealer,
        [seat(1, "P1", *hands)],
        [bet("B1", "P1", "main", 1, stake, wagered, returned)],
    )


def test_it_accepts_a_double_on_hard_11_at_multiplayer():
    assert (
        codes(one_seat("multiplayer", "9S 8D", hand("6H 5D TC", "double"), wagered="20.00", returned="40.00"))
        == []
    )


@pytest.mark.parametrize(
    ("cards", "total"), [("7H 5D 2C", "hard 12"), ("4H 4D TC", "hard 8"), ("AH 8D 2C", "soft 19")]
)
def test_it_refuses_a_double_outside_hard_9_to_11_at_multiplayer(cards, total):
    document = one_seat("multiplayer", "9S 8D", hand(cards, "double"), wagered="20.00", returned="0.00")
    result = replay_document(document)
    assert [f.code for f in result.findings if f.code != "wrong_returned"] == ["double_not_allowed"]
    assert total in result.findings[0].message


def test_it_refuses_a_double_after_split_at_classic():
    document = one_seat(
        "classic",
        "9S 8D",
        hand("8H 3C TD", "split", "double"),
        hand("8C 9D", "stand"),
        wagered="30.00",
        returned="50.00",
    )
    assert codes(document) == ["double_not_allowed"]


def test_it_accepts_a_double_after_split_at_deluxe():
    document = one_seat(
        "deluxe",
        "9S 8D",
        hand("8H 3C TD", "split", "double"),
        hand("8C 9D", "stand"),
        wagered="30.00",
        returned="50.00",
    )
    assert codes(document) == []


def test_it_refuses_a_double_on_a_split_ace():
    document = one_seat(
        "deluxe",
        "9S 8D",
        hand("AH 5C", "split", "double"),
        hand("AC 9D"),
        wagered="30.00",
        returned="40.00",
    )
    assert "action_after_hand_ended" in codes(document)


def test_it_refuses_a_second_split():
    document = one_seat(
        "deluxe",
        "9S 8D",
        hand("8H 8C", "split", "split", "stand"),
        hand("8D 9D", "stand"),
        wagered="20.00",
        returned="10.00",
    )
    assert codes(document) == ["split_not_allowed"]


def test_it_splits_ten_values_by_value_but_multiplayer_by_rank():
    hands = (hand("KH 9C", "split", "stand"), hand("QD 8D", "stand"))
    assert codes(one_seat("deluxe", "9S 8D", *hands, wagered="20.00", returned="40.00")) == []
    assert codes(one_seat("multiplayer", "9S 8D", *hands, wagered="20.00", returned="40.00")) == [
        "split_not_allowed"
    ]


def test_a_split_ace_takes_one_card_and_ace_ten_is_21_not_blackjack():
    document = one_seat(
        "deluxe", "9S 8D", hand("AH KC", "split"), hand("AC 9D"), wagered="20.00", returned="40.00"
    )
    assert codes(document) == []  # 21 wins 1:1, 20 wins 1:1: 20 + 20
    hit_on_split_ace = one_seat(
        "deluxe", "9S 8D", hand("AH 2C 5D", "split", "hit"), hand("AC 9D"), wagered="20.00", returned="40.00"
    )
    assert codes(hit_on_split_ace) == ["action_after_hand_ended"]


@pytest.mark.parametrize(
    ("game", "dealer", "actions", "cards", "reason"),
    [
        ("deluxe", "AS 8D", ["surrender"], "TC 6D", "against the facilitator's AS"),
        ("deluxe", "KS 8D", ["surrender"], "TC 6D", "against the facilitator's KS"),
        ("deluxe", "9S 8D", ["hit", "surrender"], "9C 3D 2H", "after another decision"),
        ("classic", "9S 8D", ["surrender"], "TC 6D", "offers no surrender"),
        ("multiplayer", "9S 8D", ["surrender"], "TC 6D", "offers no surrender"),
    ],
)
def test_it_refuses_a_surrender_the_table_forbids(game, dealer, actions, cards, reason):
    document = one_seat(game, dealer, hand(cards, *actions), returned="5.00")
    findings = [f for f in replay_document(document).findings if f.code == "surrender_not_allowed"]
    assert len(findings) == 1 and reason in findings[0].message


@pytest.mark.parametrize(
    ("cards", "actions", "ended"),
    [
        ("TC 6D 5H 2S", ["hit", "hit"], "after 21"),
        ("TC 6D 8H 2S", ["hit", "hit"], "after a bust"),
        ("TC AD 2S", ["hit"], "after a blackjack"),
        ("5C 6D TH 2S", ["double", "hit"], "after a double"),
        ("TC 7D 2S", ["stand", "hit"], "after a stand"),
    ],
)
def test_it_refuses_a_decision_after_the_hand_ended(cards, actions, ended):
    findings = replay_document(one_seat("deluxe", "9S 8D", hand(cards, *actions))).findings
    ended_findings = [f for f in findings if f.code == "action_after_hand_ended"]
    assert len(ended_findings) == 1 and ended in ended_findings[0].message


def test_a_multiplayer_hand_stands_at_nine_cards_and_a_tenth_is_refused():
    nine = "AH AD AC AS 2H 2D 2C 2S 3H"  # 15 on nine cards: stands by rule
    document = one_seat("multiplayer", "9S 8D", hand(nine, *["hit"] * 7))
    assert codes(document) == []
    ten = one_seat("multiplayer", "9S 8D", hand(nine + " 3D", *["hit"] * 8))
    assert codes(ten) == ["card_limit_exceeded", "wrong_returned"] or codes(ten) == ["card_limit_exceeded"]


def test_deluxe_has_no_card_limit():
    nine = "AH AD AC AS 2H 2D 2C 2S 3H"
    document = one_seat("deluxe", "9S 8D", hand(nine + " 3D", *["hit"] * 8, "stand"), returned="20.00")
    assert codes(document) == []  # 18 beats 17


@pytest.mark.parametrize(
    ("cards", "actions", "problem"),
    [
        ("TC 6D", ["hit"], "no card for the hit"),
        ("TC 2D 5H", ["stand"], "1 card(s) more"),
        ("TC", ["stand"], "holds 1 card"),
    ],
)
def test_it_reports_cards_that_do_not_match_the_decisions(cards, actions, problem):
    findings = replay_document(one_seat("deluxe", "9S 8D", hand(cards, *actions))).findings
    mismatches = [f for f in findings if f.code == "cards_actions_mismatch"]
    assert mismatches and problem in mismatches[0].message


def test_it_reports_a_hand_left_without_ending():
    assert codes(one_seat("deluxe", "9S 8D", hand("TC 6D"))) == ["hand_not_finished"]


class TestAutomaticPlay:
    def test_deluxe_hits_to_12_then_stands(self):
        document = one_seat("deluxe", "6S TH 2C", hand("4H 3D 2C 5D", "auto_hit", "auto_hit", "auto_stand"))
        assert codes(document) == []  # 14 against 18

    def test_deluxe_refuses_an_automatic_hit_on_12(self):
        document = one_seat("deluxe", "6S TH 2C", hand("TH 2D 5D", "auto_hit", "auto_stand"))
        assert codes(document) == ["auto_play_wrong"]

    def test_classic_stands_for_a_missing_decision(self):
        assert codes(one_seat("classic", "6S TH 2C", hand("4H 3D", "auto_stand"))) == []
        assert "auto_play_wrong" in codes(
            one_seat("classic", "6S TH 2C", hand("4H 3D 2C", "auto_hit", "auto_stand"))
        )

    def test_multiplayer_follows_the_strategy_table(self):
        # Hard 16 against a 10 hits by basic strategy; standing is against the table's strategy.
        assert (
            codes(
                one_seat("multiplayer", "TS 8D", hand("TH 6D 3C", "auto_hit", "auto_stand"), returned="20.00")
            )
            == []
        )
        assert codes(one_seat("multiplayer", "TS 8D", hand("TH 6D", "auto_stand"))) == ["auto_play_wrong"]

    def test_a_player_decision_after_the_system_took_over_is_reported(self):
        document = one_seat("deluxe", "6S TH 2C", hand("4H 3D 2C AD", "auto_hit", "hit", "stand"))
        assert "auto_play_wrong" in codes(document)

    def test_deluxe_hits_when_the_balance_is_too_low_to_double(self):
        low = {"action": "auto_hit", "requested": "double"}
        assert codes(one_seat("deluxe", "6S TH 2C", hand("9H 6D 2C", low, "stand"))) == []

    def test_boundless_stands_above_11_when_the_balance_is_too_low_to_double(self):
        from tests.engine.documents import player_spot

        def document(action):
            shared = {"initial": ["9H", "6D"], "draws": ["2C"] if action["action"] == "auto_hit" else []}
            cards = "9H 6D 2C" if action["action"] == "auto_hit" else "9H 6D"
            actions = [action, "stand"] if action["action"] == "auto_hit" else [action]
            return round_document(
                "boundless",
                "6S TH 2C",
                [player_spot("P1", hand(cards, *actions))],
                [bet("B1", "P1", "main", "P1", "10.00")],
                shared=shared,
            )

        assert codes(document({"action": "auto_stand", "requested": "double"})) == []
        assert codes(document({"action": "auto_hit", "requested": "double"})) == ["auto_play_wrong"]


def test_multiplayer_plays_a_missing_decision_by_the_tables_own_strategy_table():
    from blackjack.replay import replay
    from blackjack.rules import preset

    rules = preset("multiplayer").with_changes({"strategy_overrides": {"hard16": {"T": "stand"}}})
    document = one_seat("multiplayer", "TS 8D", hand("TH 6D", "auto_stand"))
    assert [f.code for f in replay(document, rules).findings] == []
    hit = one_seat("multiplayer", "TS 8D", hand("TH 6D 2C", "auto_hit", "auto_stand"), returned="10.00")
    assert [f.code for f in replay(hit, rules).findings] == ["auto_play_wrong"]
