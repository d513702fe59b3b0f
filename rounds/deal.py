"""A round's spots and their hands, read from its document.

They are not stored as rows of their own: the document, kept as received, already holds them, and
one row per spot and hand cost 150 bytes a bet on disk (BENCHMARKS.md). The document was checked
when the round was stored (blackjack.document), so it is read here as it is.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class DealtHand:
    position: int  # 1, or 2 for the second hand of a split
    cards: list[str]
    actions: list  # each a label ("hit", "auto_stand"), or {"action", "requested"} (see decision)


@dataclass(frozen=True)
class DealtSpot:
    spot: str
    seat: int | None
    player: str  # the player's external id
    hands: list[DealtHand]


class DealtSpots(Sequence):
    """The spots of a stored round's document, in the order received, each made into a DealtSpot only
    when asked for: a page of a 5,000-player round shows 25 of them."""

    def __init__(self, spots: list[dict]):
        self.raw = spots

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [dealt_spot(spot) for spot in self.raw[index]]
        return dealt_spot(self.raw[index])

    def codes(self) -> list[str]:
        """Every spot's id, in order."""
        return [spot["spot"] for spot in self.raw]

    def named(self, codes: Iterable[str]) -> "DealtSpots":
        """Those of the spots whose ids are in `codes`, in order."""
        wanted = set(codes)
        return DealtSpots([spot for spot in self.raw if spot["spot"] in wanted])


def dealt_spots(document: dict) -> DealtSpots:
    return DealtSpots(document.get("spots", []))


def dealt_spot(spot: dict) -> DealtSpot:
    return DealtSpot(
        spot=spot["spot"],
        seat=spot.get("seat"),
        player=spot["player"],
        hands=[
            DealtHand(position, hand["cards"], [decision(action) for action in hand.get("actions", [])])
            for position, hand in enumerate(spot.get("hands", []), start=1)
        ],
    )


def decision(action: str | dict) -> str | dict:
    """A decision as shown: its label, or {"action", "requested"} where the system decided otherwise
    than the player asked (a document may also write a plain decision as {"action": ...})."""
    if not isinstance(action, dict):
        return action
    if action.get("requested") is None:
        return action["action"]
    return {"action": action["action"], "requested": action["requested"]}
