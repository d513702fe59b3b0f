"""Who may open what of round history: one definition, for the views, the links the pages show and
the search box.

Round pages (the round list and its exports, a round's page and its raw document, and the rounds of
the API) need ROUND_PAGES: supervisors and compliance staff hold it. A player's play record needs
PLAY_RECORDS; customer service holds that alone, and so reaches a round only through a player: the
round's bets in the play record of each of its players (`play_record_at`).
"""

from datetime import date
from urllib.parse import urlencode

from django.urls import reverse

ROUND_PAGES = "rounds.view_round"
PLAY_RECORDS = "rounds.view_bet"


def may_open_rounds(user) -> bool:
    return user.has_perm(ROUND_PAGES)


def may_open_play_records(user) -> bool:
    return user.has_perm(PLAY_RECORDS)


def play_record_at(player_id: str, round_id: str, gaming_day: date) -> str:
    """A player's play record at one round: that round's bets of the player, and the totals of its
    gaming day."""
    day = gaming_day.isoformat()
    query = urlencode({"round": round_id, "day": day, "first": day, "last": day})
    return f"{reverse('rounds:play_record', args=[player_id])}?{query}"


def round_href(user, round_, player_id: str | None = None) -> str | None:
    """Where a link to `round_` takes `user`: its page, or else `player_id`'s play record at it; None
    when the user may open neither (the page then shows the round's id without a link)."""
    if may_open_rounds(user):
        return round_.get_absolute_url()
    if player_id is not None and may_open_play_records(user):
        return play_record_at(player_id, round_.round_id, round_.gaming_day)
    return None
