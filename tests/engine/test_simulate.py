"""Simulated shoes: deterministic, physically possible, in the round format, and clean under replay."""

import json
import random
import re
from collections import Counter
from datetime import UTC, datetime
from decimal import ROUND_FLOOR, Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack.cards import ALL_CARDS, CARD_VALUE, is_card, is_ten_value, new_shoe, shuffled_shoe
from blackjack.document import parse_round
from blackjack.hand import is_natural
from blackjack.replay import replay
from blackjack.rules import BET_KINDS, PRESETS
from blackjack.simulate import shoe_cards, simulate, simulate_shoe

GAMES = ("deluxe", "boundless", "classic", "multiplayer")
TABLES = {"deluxe": "DLX1", "boundless": "BND1", "classic": "CLS1", "multiplayer": "MPB1"}
START = datetime(2026, 11, 28, 14, 0, tzinfo=UTC)
CENT = Decimal("0.01")
ROUND_FIELDS = (
    "format",
    "round_id",
    "table",
    "shoe",
    "number",
    "opened_at",
    "closed_at",
    "status",
    "cut_card",
    "dealer",
    "shared",
    "spots",
    "bets",
)
BET_FIELDS = ("bet_id", "player", "kind", "spot", "stake", "wagered", "returned")
AMOUNT = re.compile(r"^\d+\.\d{2}$")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def players_for(game: str) -> int:
    return 40 if game == "boundless" else 12


def run(game: str, seed: int, shoes: int = 2, **options) -> list[dict]:
    return list(
        simulate(
            PRESETS[game],
            table=TABLES[game],
            shoes=shoes,
            players=players_for(game),
            seed=seed,
            start=START,
            **options,
        )
    )


def by_shoe(documents: list[dict]) -> dict[str, list[dict]]:
    shoes: dict[str, list[dict]] = {}
    for document in documents:
        shoes.setdefault(document["shoe"], []).append(document)
    return shoes


def physical_cards(document: dict) -> list[str]:
    if document["shared"] is not None:
        return document["dealer"] + document["shared"]["initial"] + document["shared"]["draws"]
    return document["dealer"] + [
        card for spot in document["spots"] for hand in spot["hands"] for card in hand["cards"]
    ]


def floor_cent(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_FLOOR)


def assert_replays_clean(document: dict, game: str) -> None:
    result = replay(document, PRESETS[game])
    assert result.findings == [], (document["round_id"], [f.message for f in result.findings])
    for bet in document["bets"]:
        computed = result.bets[bet["bet_id"]]
        assert computed.wagered == Decimal(bet["wagered"]), bet
        assert computed.returned == Decimal(bet["returned"]), bet


@pytest.fixture(scope="module", params=GAMES)
def shoes(request):
    game = request.param
    return game, run(game, seed=11, cancel_rate=0.05)


# --- determinism -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_documents(game):
    assert run(game, seed=5, shoes=1, cancel_rate=0.1) == run(game, seed=5, shoes=1, cancel_rate=0.1)


@pytest.mark.parametrize("game", GAMES)
def test_another_seed_gives_other_documents(game):
    assert run(game, seed=5, shoes=1) != run(game, seed=6, shoes=1)


def test_simulate_shoe_is_one_shoe_of_simulate():
    rules = PRESETS["deluxe"]
    first = simulate_shoe(
        rules, table="DLX1", shoe_id="DLX1-S0001", players=12, rng=random.Random(3), start=START
    )
    assert first == list(simulate(rules, table="DLX1", shoes=1, players=12, seed=3, start=START))


def test_it_refuses_unknown_options():
    with pytest.raises(TypeError):
        next(simulate(PRESETS["deluxe"], table="DLX1", shoes=1, players=3, seed=1, start=START, speed=2))
    with pytest.raises(ValueError):
        simulate_shoe(
            PRESETS["deluxe"],
            table="DLX1",
            shoe_id="X",
            players=3,
            rng=random.Random(1),
            start=START,
            penetration=1.0,
        )


# --- the shoe --------------------------------------------------------------------------------


def test_no_card_appears_more_often_than_the_shoe_holds(shoes):
    game, documents = shoes
    for documents_of_shoe in by_shoe(documents).values():
        counts = Counter(card for document in documents_of_shoe for card in physical_cards(document))
        assert max(counts.values()) <= PRESETS[game].decks
        assert all(is_card(card) for card in counts)


def test_rounds_are_numbered_and_only_the_last_has_the_cut_card(shoes):
    game, documents = shoes
    shoes_seen = by_shoe(documents)
    assert list(shoes_seen) == [f"{TABLES[game]}-S0001", f"{TABLES[game]}-S0002"]
    for shoe_id, documents_of_shoe in shoes_seen.items():
        assert [d["number"] for d in documents_of_shoe] == list(range(1, len(documents_of_shoe) + 1))
        assert [d["cut_card"] for d in documents_of_shoe] == [False] * (len(documents_of_shoe) - 1) + [True]
        for document in documents_of_shoe:
            assert document["round_id"] == f"{shoe_id}-{document['number']:03d}"
            assert document["shoe"] == shoe_id


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("penetration", [0.5, 0.8])
def test_the_shoe_is_burned_then_dealt_in_order_up_to_the_cut_card(game, penetration):
    """Every physical card of the shoe's rounds comes, in one run, from after the burn to the cut card."""
    rules = PRESETS[game]
    documents = simulate_shoe(
        rules,
        table="T1",
        shoe_id="T1-S0001",
        players=20,
        rng=random.Random(21),
        start=START,
        penetration=penetration,
    )
    shoe = shuffled_shoe(rules.decks, random.Random(21))  # the simulator's first use of its generator
    burned = 1 + CARD_VALUE[shoe[0]]
    dealt = [card for document in documents for card in physical_cards(document)]
    assert Counter(dealt) == Counter(shoe[burned : burned + len(dealt)])
    cut_at = int(len(shoe) * penetration)
    before_last = sum(len(physical_cards(document)) for document in documents[:-1])
    assert burned + before_last <= cut_at < burned + len(dealt)


def test_with_no_cards_removed_the_shoe_is_the_full_one():
    """The test above pins how the full shoe is shuffled and dealt; removing nothing changes nothing."""
    assert shoe_cards(8) == shoe_cards(8, {}) == shoe_cards(8, {"5": 0}) == new_shoe(8)
    assert run("deluxe", seed=5, shoes=1, removed_per_deck={}) == run("deluxe", seed=5, shoes=1)


def test_a_ten_rich_shoe_has_the_stated_composition():
    """One each of 3, 4, 5 and 6 (spades) out of every deck: 384 cards, a third of them ten-valued
    (128), where the full shoe's 416 hold 30.8%."""
    cards = Counter(shoe_cards(8, {"3": 1, "4": 1, "5": 1, "6": 1}))
    assert {card: cards[card] for card in ALL_CARDS} == {
        card: 0 if card in ("3S", "4S", "5S", "6S") else 8 for card in ALL_CARDS
    }
    assert cards.total() == 384
    assert sum(count for card, count in cards.items() if is_ten_value(card)) == 128


@pytest.mark.parametrize("game", ["deluxe", "boundless"])
def test_a_shoe_with_cards_removed_is_dealt_in_order_and_replays_clean(game):
    removed = {"5": 4, "4": 2}
    rules = PRESETS[game]
    documents = simulate_shoe(
        rules,
        table="T1",
        shoe_id="T1-S0001",
        players=20,
        rng=random.Random(21),
        start=START,
        removed_per_deck=removed,
    )
    shoe = shoe_cards(rules.decks, removed)
    random.Random(21).shuffle(shoe)
    burned = 1 + CARD_VALUE[shoe[0]]
    dealt = [card for document in documents for card in physical_cards(document)]
    assert Counter(dealt) == Counter(shoe[burned : burned + len(dealt)])
    assert not [card for card in dealt if card[0] == "5" or card in ("4S", "4H")]
    for document in documents:
        assert_replays_clean(document, game)


def test_simulate_deals_every_shoe_with_the_cards_removed():
    documents = run("classic", seed=3, removed_per_deck={"5": 4})
    assert len(by_shoe(documents)) == 2
    assert not [card for document in documents for card in physical_cards(document) if card[0] == "5"]


@pytest.mark.parametrize("removed", [{"X": 1}, {"5": 5}, {"5": -1}])
def test_a_removal_is_a_rank_and_up_to_four_cards_a_deck(removed):
    with pytest.raises(ValueError):
        shoe_cards(8, removed)


# --- the format --------------------------------------------------------------------------------


def test_documents_have_the_round_format(shoes):
    game, documents = shoes
    rules = PRESETS[game]
    bet_ids = Counter()
    for document in documents:
        assert json.loads(json.dumps(document)) == document
        for name in ROUND_FIELDS:
            assert name in document
        assert document["format"] == 1
        assert document["table"] == TABLES[game]
        assert TIMESTAMP.match(document["opened_at"]) and TIMESTAMP.match(document["closed_at"])
        assert document["opened_at"] <= document["closed_at"]
        assert document["status"] in ("completed", "cancelled")
        assert ("cancel_reason" in document) == (document["status"] == "cancelled")
        assert (document["shared"] is not None) == rules.shared_deal
        players = set()
        for spot in document["spots"]:
            players.add(spot["player"])
            if rules.shared_deal:
                assert spot["seat"] is None and spot["spot"] == spot["player"]
            else:
                assert spot["spot"] == str(spot["seat"]) and 1 <= spot["seat"] <= rules.seats
            assert len(spot["hands"]) <= 2
            for hand in spot["hands"]:
                assert set(hand) == {"cards", "actions"}
        for bet in document["bets"]:
            for name in BET_FIELDS:
                assert name in bet
            assert bet["kind"] in BET_KINDS
            for name in ("stake", "wagered", "returned"):
                assert AMOUNT.match(bet[name]), bet
            bet_ids[bet["bet_id"]] += 1
            players.add(bet["player"])
            option = rules.side_option(bet["kind"])
            if option is not None and option.max_round is not None:
                assert document["number"] <= option.max_round
        assert len(players) <= players_for(game)
    assert max(bet_ids.values()) == 1


def test_stakes_include_odd_cents(shoes):
    _, documents = shoes
    stakes = {bet["stake"] for document in documents for bet in document["bets"]}
    assert any(not stake.endswith("0") for stake in stakes)


def test_deluxe_players_take_two_seats_with_equal_seat_plays():
    documents = run("deluxe", seed=11)
    two_seats = 0
    for document in documents:
        seats = Counter(spot["player"] for spot in document["spots"])
        assert max(seats.values()) <= 2
        for player, count in seats.items():
            if count == 2:
                two_seats += 1
                stakes = {
                    b["stake"] for b in document["bets"] if b["kind"] == "main" and b["player"] == player
                }
                assert len(stakes) == 1
    assert two_seats > 0


def test_boundless_players_may_stake_side_options_only():
    documents = run("boundless", seed=11, shoes=1)
    side_only = [spot for document in documents for spot in document["spots"] if not spot["hands"]]
    assert side_only
    assert all(
        spot["hands"] == [] or spot["hands"][0]["cards"][:1] == document["shared"]["initial"][:1]
        for document in documents
        for spot in document["spots"]
    )


# --- money -----------------------------------------------------------------------------------


def decisions(hand: dict) -> list[str]:
    return [action if isinstance(action, str) else action["action"] for action in hand["actions"]]


def test_amounts_hold_the_identities_of_the_rules(shoes):
    game, documents = shoes
    rules = PRESETS[game]
    for document in documents:
        spots = {spot["spot"]: spot for spot in document["spots"]}
        mains = {b["spot"]: b for b in document["bets"] if b["kind"] == "main"}
        behinds = {(b["spot"], b["player"]): b for b in document["bets"] if b["kind"] == "behind"}
        cancelled = document["status"] == "cancelled"
        for bet in document["bets"]:
            stake, wagered, returned = (Decimal(bet[name]) for name in ("stake", "wagered", "returned"))
            assert stake > 0 and wagered >= stake and returned >= 0
            hands = spots[bet["spot"]]["hands"]
            if cancelled:
                natural = len(hands) == 1 and is_natural(hands[0]["cards"])
                pays = natural and bet["kind"] in ("main", "behind")
                if (
                    pays
                    and document["cancel_reason"] == "network_failure"
                    and rules.cancel_pays_dealt_blackjack
                ):
                    assert wagered == stake
                    assert returned == stake + floor_cent(stake * rules.blackjack_pays)
                else:
                    assert returned == wagered
                continue
            if bet["kind"] == "main":
                doubles = sum(
                    "double" in decisions(hand) or "auto_double" in decisions(hand) for hand in hands
                )
                assert wagered == stake * (len(hands) + doubles)
                if len(hands) == 1 and not doubles:
                    outcomes = {Decimal(0), floor_cent(stake / 2), stake, stake * 2}
                    outcomes.add(stake + floor_cent(stake * rules.blackjack_pays))
                    assert returned in outcomes
                assert returned <= wagered * 2 + floor_cent(stake * rules.blackjack_pays)
            elif bet["kind"] == "behind":
                assert wagered <= stake * 4
            elif bet["kind"] == "insurance":
                base = behinds[(bet["spot"], bet["player"])] if bet.get("behind") else mains[bet["spot"]]
                assert stake == floor_cent(Decimal(base["stake"]) / 2)
                assert document["dealer"][0][0] == "A"
                assert returned in (Decimal(0), stake * (1 + rules.insurance_pays))
                assert (returned > 0) == is_natural(document["dealer"][:2])
            else:
                option = rules.side_option(bet["kind"])
                assert wagered == stake
                assert returned == 0 or any(
                    returned == stake + floor_cent(stake * odds) for _, odds in option.paytable
                )


# --- replay ----------------------------------------------------------------------------------


def test_every_simulated_round_replays_without_a_finding(shoes):
    game, documents = shoes
    for document in documents:
        assert_replays_clean(document, game)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_any_seed_replays_without_a_finding(game, seed):
    for document in run(game, seed, shoes=1, cancel_rate=0.1):
        assert_replays_clean(document, game)


def test_a_boundless_round_of_thousands_replays_without_a_finding():
    rounds = simulate(PRESETS["boundless"], table="BND1", shoes=1, players=3000, seed=8, start=START)
    for _ in range(3):
        document = next(rounds)
        assert len(document["spots"]) == 3000
        assert_replays_clean(document, "boundless")


def test_a_network_failure_pays_a_dealt_classic_blackjack():
    documents = run("classic", seed=4, cancel_rate=1.0)
    paid = 0
    for document in documents:
        assert document["status"] == "cancelled"
        assert_replays_clean(document, "classic")
        paid += sum(bet["returned"] != bet["wagered"] for bet in document["bets"])
    assert paid > 0


@pytest.mark.parametrize("game", GAMES)
def test_cancelled_rounds_refund_and_replay_without_a_finding(game):
    documents = run(game, seed=6, shoes=1, cancel_rate=1.0)
    decided = 0
    for document in documents:
        assert document["status"] == "cancelled"
        assert document["cancel_reason"] in (
            "card_unreadable",
            "network_failure",
            "malfunction",
            "procedure_error",
        )
        assert_replays_clean(document, game)
        decided += any(hand["actions"] for spot in document["spots"] for hand in spot["hands"])
    if not PRESETS[game].shared_deal:
        assert decided > 0  # some were cancelled while the players decided


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_payout_is_found(game):
    documents = run(game, seed=12, shoes=1, wrong_payout_rate=1.0)
    for document in documents:
        findings = replay(document, PRESETS[game]).findings
        assert [finding.code for finding in findings] == ["wrong_returned"], document["round_id"]


def test_without_dealt_by_the_documents_do_not_say_who_dealt():
    assert all("dealt_by" not in document for document in run("deluxe", 3, shoes=1))


def test_dealt_by_names_who_dealt_every_round_and_the_reader_reads_it():
    documents = run("classic", 3, shoes=1, dealt_by="D-ANA")
    assert {document["dealt_by"] for document in documents} == {"D-ANA"}
    assert parse_round(documents[0]).dealt_by == "D-ANA"


def test_dealt_by_as_a_function_of_the_opening_time_deals_in_shifts():
    def shift(opened: datetime) -> str:
        return "D-ANA" if opened.hour < 15 else "D-BEN"

    documents = run("deluxe", 3, shoes=4, dealt_by=shift)
    for document in documents:
        opened = datetime.fromisoformat(document["opened_at"])
        assert document["dealt_by"] == ("D-ANA" if opened.hour < 15 else "D-BEN")
    assert {document["dealt_by"] for document in documents} == {"D-ANA", "D-BEN"}
    # The same seed deals the same cards whoever deals.
    plain = run("deluxe", 3, shoes=4)
    assert [{k: v for k, v in d.items() if k != "dealt_by"} for d in documents] == plain
