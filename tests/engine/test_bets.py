"""Every bet kind settled to the cent, and the bets a table must refuse."""

import pytest

from tests.engine.documents import bet, codes, hand, player_spot, replay_document, round_document, seat


def settled(document):
    result = replay_document(document)
    return {bet_id: (str(r.wagered), str(r.returned)) for bet_id, r in result.bets.items()}


class TestMainBet:
    @pytest.mark.parametrize(
        ("stake", "returned"),
        [("10.00", "25.00"), ("5.01", "12.52"), ("0.01", "0.02"), ("0.03", "0.07")],
    )
    def test_a_blackjack_pays_3_to_2_rounded_down(self, stake, returned):
        document = round_document(
            "deluxe", "9S 8D", [seat(1, "P1", hand("AC KD"))], [bet("B1", "P1", "main", 1, stake)]
        )
        assert settled(document)["B1"] == (stake, returned)

    @pytest.mark.parametrize(("stake", "returned"), [("10.00", "5.00"), ("5.01", "2.50"), ("0.01", "0.00")])
    def test_a_surrender_returns_half_rounded_down(self, stake, returned):
        document = round_document(
            "boundless",
            "9S 8D",
            [player_spot("P1", hand("TC 6D", "surrender"))],
            [bet("B1", "P1", "main", "P1", stake)],
            shared={"initial": ["TC", "6D"], "draws": []},
        )
        assert settled(document)["B1"] == (stake, returned)

    @pytest.mark.parametrize(
        ("cards", "dealer", "returned"),
        [
            ("TC 9D", "9S 8D", "20.00"),
            ("TC 7D", "9S 8D", "10.00"),
            ("TC 6D", "9S 8D", "0.00"),
            ("TC 6D", "6S TH 8D", "20.00"),
        ],
    )
    def test_win_push_and_loss(self, cards, dealer, returned):
        document = round_document(
            "classic", dealer, [seat(1, "P1", hand(cards, "stand"))], [bet("B1", "P1", "main", 1, "10.00")]
        )
        assert settled(document)["B1"] == ("10.00", returned)

    def test_a_dealer_blackjack_takes_doubled_and_split_stakes_at_multiplayer(self):
        document = round_document(
            "multiplayer",
            "TS AS",
            [
                seat(1, "P1", hand("5H 6D 9C", "double")),
                seat(3, "P3", hand("8S TC", "split", "stand"), hand("8D 7C", "stand")),
            ],
            [bet("B1", "P1", "main", 1, "10.00"), bet("B3", "P3", "main", 3, "10.00", returned="20.00")],
        )
        assert settled(document) == {"B1": ("20.00", "0.00"), "B3": ("20.00", "0.00")}


class TestPlayBehind:
    @staticmethod
    def document(**behind):
        return round_document(
            "deluxe",
            "9S 7H KD",
            [seat(1, "P1", hand("8H 3C TD", "split", "double"), hand("8C 9D", "stand"))],
            [bet("B1", "P1", "main", 1, "10.00"), bet("B2", "P2", "behind", 1, "5.00", **behind)],
        )

    @pytest.mark.parametrize(
        ("choices", "wagered", "returned"),
        [
            ({}, "5.00", "10.00"),
            ({"follow_double": True}, "10.00", "20.00"),
            ({"follow_split": True}, "10.00", "20.00"),
            ({"follow_double": True, "follow_split": True}, "15.00", "30.00"),
            ({"follow_double": True, "followed_double": False}, "5.00", "10.00"),
            ({"follow_split": True, "followed_split": False}, "5.00", "10.00"),
        ],
    )
    def test_it_follows_the_seat_as_the_player_chose(self, choices, wagered, returned):
        assert settled(self.document(**choices))["B2"] == (wagered, returned)

    def test_a_seated_player_may_not_play_behind_their_own_seat(self):
        document = round_document(
            "deluxe",
            "9S 8D",
            [seat(1, "P1", hand("TC 9D", "stand"))],
            [
                bet("B1", "P1", "main", 1, "10.00", returned="20.00"),
                bet("B2", "P1", "behind", 1, "5.00", returned="10.00"),
            ],
        )
        assert codes(document) == ["behind_own_seat"]

    def test_boundless_offers_no_play_behind(self):
        document = round_document(
            "boundless",
            "9S 8D",
            [player_spot("P1", hand("TC 9D", "stand"))],
            [
                bet("B1", "P1", "main", "P1", "10.00", returned="20.00"),
                bet("B2", "P2", "behind", "P1", "5.00", returned="10.00"),
            ],
            shared={"initial": ["TC", "9D"], "draws": []},
        )
        assert codes(document) == ["behind_not_offered"]


class TestInsurance:
    @staticmethod
    def document(dealer, stake="5.00", returned="0.00", main_stake="10.00", cards="TH 6C", actions=()):
        return round_document(
            "deluxe",
            dealer,
            [seat(2, "P1", hand(cards, *actions))],
            [
                bet("B1", "P1", "main", 2, main_stake),
                bet("B2", "P1", "insurance", 2, stake, returned=returned),
            ],
        )

    def test_it_pays_2_to_1_on_a_dealer_blackjack(self):
        assert codes(self.document("AS KD", returned="15.00")) == []

    def test_it_loses_without_a_dealer_blackjack(self):
        assert codes(self.document("AS 6D", cards="TH 6C", actions=("stand",))) == []

    def test_it_needs_a_dealer_ace(self):
        assert codes(self.document("9S 8D", cards="TH 6C", actions=("stand",))) == ["insurance_without_ace"]

    def test_it_is_half_the_seat_play_rounded_down(self):
        assert codes(self.document("AS KD", stake="2.50", main_stake="5.01", returned="7.50")) == []
        assert codes(self.document("AS KD", stake="3.00", returned="9.00")) == ["insurance_wrong_stake"]


class TestSideOptions:
    def test_a_side_option_the_table_does_not_offer_is_void(self):
        document = round_document(
            "classic",
            "9S 8D",
            [seat(1, "P1", hand("8H 8C", "stand"))],
            [bet("B1", "P1", "main", 1, "10.00"), bet("B2", "P1", "pair", 1, "2.00", returned="2.00")],
        )
        assert codes(document) == ["side_option_not_offered"]

    @staticmethod
    def classic_side_bet(kind="perfect_pairs", player="P2", spot=1, returned="2.00", behind=False):
        """Seat 1 (P1) dealt a perfect pair of queens, seat 3 (P3) a 21+3 flush with the QS: `player`
        stakes 2.00 on `kind` at `spot`, with a bet behind seat 1 when `behind`."""
        bets = [
            bet("B1", "P1", "main", 1, "10.00", returned="20.00"),
            bet("B3", "P3", "main", 3, "10.00", returned="20.00"),
        ]
        if behind:
            bets.append(bet("B4", player, "behind", 1, "5.00", returned="10.00"))
        bets.append(bet("B2", player, kind, spot, "2.00", returned=returned))
        return round_document(
            "classic",
            "QS 6C 9D",
            [seat(1, "P1", hand("QH QH", "stand")), seat(3, "P3", hand("4S 9S 3D", "hit", "stand"))],
            bets,
        )

    @pytest.mark.parametrize(
        ("kind", "player", "spot"),
        [
            ("perfect_pairs", "P2", 1),  # a player with no bet at the table
            ("twenty_one_plus_three", "P2", 3),
            ("perfect_pairs", "P1", 3),  # the player's main bet is on another seat
            ("twenty_one_plus_three", "P3", 1),
        ],
    )
    def test_a_classic_side_option_without_the_players_main_bet_is_void(self, kind, player, spot):
        document = self.classic_side_bet(kind, player, spot)
        result = replay_document(document)
        assert [(f.code, f.bet, f.spot) for f in result.findings] == [
            ("side_option_without_main_bet", "B2", str(spot))
        ]
        assert (str(result.bets["B2"].wagered), str(result.bets["B2"].returned)) == ("2.00", "2.00")
        assert result.bets["B2"].pattern == ""

    def test_the_void_side_option_is_reported_as_paid_by_its_paytable_too_when_it_was_paid(self):
        document = self.classic_side_bet(returned="52.00")  # the perfect pair paid 25 to 1
        assert codes(document) == ["side_option_without_main_bet", "wrong_returned"]

    def test_a_classic_side_option_with_the_players_bet_behind_on_the_seat_is_settled(self):
        assert codes(self.classic_side_bet(returned="52.00", behind=True)) == []
        assert codes(self.classic_side_bet(spot=3, behind=True)) == ["side_option_without_main_bet"]

    def test_the_classic_rule_holds_in_a_cancelled_round_too(self):
        document = self.classic_side_bet() | {"status": "cancelled", "cancel_reason": "malfunction"}
        for bet_record in document["bets"]:
            bet_record["returned"] = bet_record["wagered"]
        assert codes(document) == ["side_option_without_main_bet"]

    def test_a_deluxe_pair_needs_no_main_bet(self):
        document = round_document(
            "deluxe",
            "9S 8D",
            [seat(1, "P1", hand("8H 8H", "stand"))],
            [bet("B1", "P1", "main", 1, "10.00"), bet("B2", "P2", "pair", 1, "1.00", returned="31.00")],
        )
        assert codes(document) == []

    @pytest.mark.parametrize(("number", "expected"), [(40, []), (41, ["side_option_after_max_round"])])
    def test_the_boundless_pair_closes_after_round_40(self, number, expected):
        document = round_document(
            "boundless",
            "9S 8D",
            [player_spot("P1", hand("8H 8D", "stand"))],
            [bet("B1", "P1", "main", "P1", "10.00"), bet("B2", "P1", "pair", "P1", "2.00", returned="22.00")],
            shared={"initial": ["8H", "8D"], "draws": []},
            number=number,
        )
        assert codes(document) == expected

    def test_deluxe_suited_trips_pays_50_to_1(self):
        document = round_document(
            "deluxe",
            "8H TD",
            [seat(1, "P1", hand("8H 8H", "stand"))],
            [bet("B1", "P1", "main", 1, "10.00"), bet("B2", "P1", "pair", 1, "1.00", returned="51.00")],
        )
        assert codes(document) == []

    def test_side_options_use_the_pair_before_a_split(self):
        document = round_document(
            "classic",
            "5S TD 4C",
            [
                seat(
                    1,
                    "P1",
                    hand("5S 9H", "split", "stand"),
                    hand("5S 4H", "hit", "stand") | {"cards": ["5S", "4H", "TC"]},
                )
            ],
            [
                bet("B1", "P1", "main", 1, "10.00", wagered="20.00", returned="10.00"),  # 14 loses, 19 pushes
                bet("B2", "P1", "perfect_pairs", 1, "2.00", returned="52.00"),
            ],
        )
        assert codes(document) == []


class TestSeats:
    def test_a_deluxe_player_takes_at_most_two_seats(self):
        spots = [seat(n, "P1", hand("TC 9D", "stand")) for n in (1, 2, 3)]
        bets = [bet(f"B{n}", "P1", "main", n, "10.00", returned="20.00") for n in (1, 2, 3)]
        assert codes(round_document("deluxe", "9S 8D", spots, bets)) == ["too_many_seats"]
        assert codes(round_document("deluxe", "9S 8D", spots[:2], bets[:2])) == []

    def test_a_deluxe_player_plays_equal_amounts_on_both_seats(self):
        spots = [seat(n, "P1", hand("TC 9D", "stand")) for n in (1, 2)]
        bets = [
            bet("B1", "P1", "main", 1, "10.00", returned="20.00"),
            bet("B2", "P1", "main", 2, "20.00", returned="40.00"),
        ]
        assert codes(round_document("deluxe", "9S 8D", spots, bets)) == ["unequal_seat_plays"]

    def test_a_seat_outside_the_table_is_reported(self):
        document = round_document(
            "classic",
            "9S 8D",
            [seat(8, "P1", hand("TC 9D", "stand"))],
            [bet("B1", "P1", "main", 8, "10.00", returned="20.00")],
        )
        assert codes(document) == ["seat_invalid"]

    def test_a_played_seat_needs_its_players_seat_play(self):
        document = round_document(
            "classic",
            "9S 8D",
            [seat(1, "P1", hand("TC 9D", "stand"))],
            [bet("B1", "P2", "main", 1, "10.00", returned="20.00")],
        )
        assert codes(document) == ["main_bet_invalid"]
