"""The player page's panels from apps above limits (limits never imports them: apps depend
downwards). An app registers a PlayerPanel in `player_panels` from its AppConfig.ready(), as limits
does for the table page (tables.selectors.table_panels)."""

from collections.abc import Callable
from dataclasses import dataclass

from .models import Player


@dataclass(frozen=True)
class PlayerPanel:
    """A panel of the player page, shown to users with `permission`: the page includes `template`
    with `context(player)` as `panel`."""

    permission: str
    template: str
    context: Callable[[Player], dict]


player_panels: list[PlayerPanel] = []


def player_page_panels(player: Player, user) -> list[tuple[str, dict]]:
    """The panels the user may see: (template, panel context), in the order registered."""
    return [
        (panel.template, panel.context(player)) for panel in player_panels if user.has_perm(panel.permission)
    ]
