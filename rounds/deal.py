"""A round's spots and their hands, read from its document.

They are not stored as rows of their own: the document, kept as received, already holds them, and
one row per spot and hand cost 150 bytes a bet on disk (BENCHMARKS.md). The document was checked
when the round was stored (rounds.engine.document), so it is read here as it is.
"""

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


def dealt_spots(document: dict) -> list[DealtSpot]:
    """The spots of a stored round's document, in the order received."""
    return [
        DealtSpot(
            spot=spot["spot"],
            seat=spot.get("seat"),
            player=spot["player"],
            hands=[
                DealtHand(position, hand["cards"], [decision(action) for action in hand.get("actions", [])])
                for position, hand in enumerate(spot.get("hands", []), start=1)
            ],
        )
        for spot in document.get("spots", [])
    ]


def decision(action: str | dict) -> str | dict:
    """A decision as shown: its label, or {"action", "requested"} where the system decided otherwise
    than the player asked (a document may also write a plain decision as {"action": ...})."""
    if not isinstance(action, dict):
        return action
    if action.get("requested") is None:
        return action["action"]
    return {"action": action["action"], "requested": action["requested"]}
