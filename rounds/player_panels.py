"""The player page's limit breaches: how many of the player's bets breached a limit, and the last.
Registered in limits.player_panels.player_panels by RoundsConfig.ready() (limits never imports
rounds: apps depend downwards)."""

from limits.player_panels import PlayerPanel

from .selectors import limit_breaches


def player_breaches(player) -> dict:
    """The player's limit breaches: their count and the last one played (two queries)."""
    breaches = limit_breaches().filter(bet__player=player)
    last = breaches.select_related("round__table", "bet").order_by("-round__opened_at", "-id").first()
    return {"count": breaches.count() if last else 0, "last": last}


PLAYER_BREACHES = PlayerPanel("rounds.view_bet", "rounds/includes/player_breaches.html", player_breaches)
