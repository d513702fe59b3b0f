import django_tables2 as tables
from django.utils import timezone

from core.listing import BadgeColumn, CellColumn, LocalTimeColumn, MoneyColumn

from .models import PersonalLimit, Player, TableLimit


class PlayerTable(tables.Table):
    external_id = tables.Column(linkify=True, attrs={"td": {"class": "code"}})
    status = BadgeColumn()
    created_at = LocalTimeColumn("created")

    class Meta:
        model = Player
        fields = ["external_id", "display_name", "account_type", "currency", "status", "created_at"]
        order_by = "external_id"
        empty_text = "No player matches."


class TableLimitTable(tables.Table):
    table = tables.Column(
        accessor="table__code", verbose_name="table", linkify=lambda record: record.table.get_absolute_url()
    )
    game = tables.Column(accessor="table__game", verbose_name="game")
    kind = tables.Column()
    min_stake = MoneyColumn(currency="table__currency")
    max_stake = MoneyColumn(currency="table__currency")
    currency = tables.Column(accessor="table__currency", verbose_name="currency")

    class Meta:
        model = TableLimit
        fields = ["table", "game", "kind", "min_stake", "max_stake", "currency"]
        order_by = ("table", "kind")
        empty_text = "No table limit matches."

    def render_game(self, record):
        return record.table.get_game_display()


def personal_limit_state(row: PersonalLimit) -> str:
    """withdrawn, pending, superseded or in force; `superseded` is annotated by the query."""
    if row.withdrawn_at is not None:
        return "withdrawn"
    if row.effective_from > timezone.now():
        return "pending"
    if getattr(row, "superseded", False):
        return "superseded"
    return "in force"


def personal_limit_badge(state: str) -> dict:
    """cells/badge.html of a state: "in force" is `badge-in-force`."""
    return {"badge": state.replace(" ", "-"), "label": state}


class PersonalLimitTable(tables.Table):
    """Every setting of a personal limit, with its state."""

    player = tables.Column(
        accessor="player__external_id",
        verbose_name="player",
        linkify=lambda record: record.player.get_absolute_url(),
    )
    scope = tables.Column(empty_values=(), orderable=False)
    min_stake = MoneyColumn(currency="player__currency")
    max_stake = MoneyColumn(currency="player__currency")
    effective_from = LocalTimeColumn()
    state = CellColumn(
        template_name="cells/badge.html",
        empty_values=(),
        orderable=False,
        context=lambda value, record: personal_limit_badge(personal_limit_state(record)),
    )
    reason = tables.Column(attrs={"td": {"class": "reason"}})
    created_by = tables.Column(accessor="created_by__username", verbose_name="by")

    class Meta:
        model = PersonalLimit
        fields = [
            "player",
            "scope",
            "min_stake",
            "max_stake",
            "effective_from",
            "state",
            "reason",
            "created_by",
        ]
        order_by = "-effective_from"
        empty_text = "No personal limit matches."

    def render_scope(self, record):
        return record.scope_label

    def value_state(self, record):
        return personal_limit_state(record)

    def value_scope(self, record):
        return record.scope_label
