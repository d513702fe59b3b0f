"""Shared by the recall tests: what the pages and the API showed of March 2026 before it was archived,
and how a page and a bet are read in them."""

import csv
import io
from dataclasses import dataclass

from django.test import Client

RESTORE_DLX1 = "python manage.py archive_restore DLX1 2026-03"
RESTORE_CLS1 = "python manage.py archive_restore CLS1 2026-03"


@dataclass
class Before:
    """What the pages and the API showed of March while it was in the database."""

    pages: dict[str, str]  # round id -> its page
    documents: dict[str, bytes]
    api: dict[str, dict]
    play_record: dict  # the context of the player's play record over March and April
    player_bets: dict[str, tuple]  # bet id -> what the play record shows of it
    play_record_csv: list[list[str]]  # the play record's CSV of the player's bets, header first


def page_of(client: Client, round_id: str) -> str:
    response = client.get(f"/rounds/{round_id}/")
    assert response.status_code == 200
    return response.content.decode()


def csv_rows(response) -> list[list[str]]:
    """The rows of a CSV response, header first."""
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def region(html: str, start: str, end: str) -> str:
    """The page from `start` up to (not including) `end`; both must be there."""
    first = html.index(start)
    return html[first : html.index(end, first)]


def shown_bet(bet) -> tuple:
    return (
        bet.round.round_id,
        bet.round.opened_at,
        bet.round.table.code,
        bet.kind,
        bet.stake,
        bet.wagered,
        bet.returned,
        bet.computed_returned,
        bet.outcome,
        bet.adjustment,
        bet.refund,
        bet.void,
        bet.breached,
    )


PERIOD = {"first": "2026-03-01", "last": "2026-04-30"}
