"""A round's spots and hands as its document holds them (rounds.deal): what the round page, the API
and search read instead of rows of their own."""

import pytest

from rounds.deal import DealtHand, DealtSpot, dealt_spots
from rounds.ingest import round_ingest
from rounds.models import Round
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo  # noqa: F401 (a fixture)

DOCUMENT = {
    "spots": [
        {"spot": "1", "seat": 1, "player": "P1", "hands": [{"cards": ["8H", "8S"], "actions": ["split"]}]},
        {
            "spot": "2",
            "seat": 2,
            "player": "P2",
            "hands": [
                {"cards": ["9D", "7S"], "actions": [{"action": "auto_stand", "requested": "hit"}]},
                {"cards": ["TD", "6S"], "actions": [{"action": "auto_stand"}]},
            ],
        },
        {"spot": "3", "seat": None, "player": "P3", "hands": []},
    ]
}


def test_spots_are_read_in_order_with_their_hands_numbered_and_decisions_as_shown():
    spots = dealt_spots(DOCUMENT)
    assert len(spots) == 3 and spots.codes() == ["1", "2", "3"]
    assert spots[1] == DealtSpot(
        spot="2",
        seat=2,
        player="P2",
        hands=[
            DealtHand(1, ["9D", "7S"], [{"action": "auto_stand", "requested": "hit"}]),
            DealtHand(2, ["TD", "6S"], ["auto_stand"]),
        ],
    )
    assert spots[2].hands == [] and spots[2].seat is None


def test_a_page_makes_only_its_spots_and_a_filter_keeps_the_order():
    spots = dealt_spots(DOCUMENT)
    assert [spot.spot for spot in spots[1:3]] == ["2", "3"]
    named = spots.named({"3", "1"})
    assert named.codes() == ["1", "3"] and [spot.player for spot in named] == ["P1", "P3"]
    assert len(dealt_spots({})) == 0


@pytest.mark.django_db
def test_a_stored_round_reads_its_spots_from_its_document(demo):  # noqa: F811
    document = round_document("deluxe-split-double-play-behind")
    stored = Round.objects.get(pk=round_ingest(document=document).round.pk)
    assert stored.dealt_spots.codes() == [spot["spot"] for spot in document["spots"]]
    assert [[hand.cards for hand in spot.hands] for spot in stored.dealt_spots] == [
        [hand["cards"] for hand in spot["hands"]] for spot in document["spots"]
    ]
