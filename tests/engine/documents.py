"""Building small round documents for engine tests, in the shape of docs/round-format.md."""

import copy

from blackjack.replay import replay
from blackjack.rules import preset

GAME_OF_TABLE = {"DLX1": "deluxe", "BND1": "boundless", "CLS1": "classic", "MPB1": "multiplayer"}
TABLE_OF_GAME = {game: table for table, game in GAME_OF_TABLE.items()}


def replay_document(document: dict):
    return replay(document, preset(GAME_OF_TABLE[document["table"]]))


def codes(document: dict) -> list[str]:
    return [finding.code for finding in replay_document(document).findings]


def hand(cards: str, *actions) -> dict:
    """hand("8H 3C TD", "split", "double")"""
    return {"cards": cards.split(), "actions": list(actions)}


def seat(number: int, player: str, *hands: dict) -> dict:
    return {"spot": str(number), "seat": number, "player": player, "hands": list(hands)}


def player_spot(player: str, *hands: dict) -> dict:
    return {"spot": player, "seat": None, "player": player, "hands": list(hands)}


def bet(bet_id, player, kind, spot, stake, wagered=None, returned="0.00", **extra) -> dict:
    return {
        "bet_id": bet_id,
        "player": player,
        "kind": kind,
        "spot": str(spot),
        "stake": stake,
        "wagered": wagered or stake,
        "returned": returned,
        **extra,
    }


def round_document(game: str, dealer: str, spots, bets, *, number=1, shared=None, **extra) -> dict:
    table = TABLE_OF_GAME[game]
    document = {
        "format": 1,
        "round_id": f"{table}-T-{number:03d}",
        "table": table,
        "shoe": f"{table}-T",
        "number": number,
        "opened_at": "2026-11-28T14:00:00Z",
        "closed_at": "2026-11-28T14:01:00Z",
        "status": "completed",
        "cut_card": False,
        "dealer": dealer.split(),
        "shared": shared,
        "spots": list(spots),
        "bets": list(bets),
    }
    document.update(extra)
    return document


def changed(document: dict, edit) -> dict:
    """A deep copy of `document` with `edit(copy)` applied."""
    result = copy.deepcopy(document)
    edit(result)
    return result
