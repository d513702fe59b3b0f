"""The round list and the play record as django-tables2 tables (page rows and CSV export)."""

import django_tables2 as tables
from django.utils.functional import cached_property
from django.utils.safestring import mark_safe

from config.html import format_html
from config.links import ArgumentUrls
from config.listing import MoneyColumn, UtcDateTimeColumn
from config.money import money
from rounds.engine.rules import kind_label
from tables.templatetags.pitboss import utc_text

from .models import Bet, Round
from .outcome import outcome_label

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}


class OutcomeColumn(tables.Column):
    """A round's outcome (rounds.outcome: the status as sent, and its correction) as a badge; its
    label in exports. The rows carry it as the `outcome_expression()` annotation: no query per row."""

    def __init__(self, verbose_name="Outcome", **kwargs):
        kwargs.setdefault("orderable", False)
        super().__init__(verbose_name, **kwargs)

    def render(self, value):
        return format_html('<span class="badge badge-{}">{}</span>', value, outcome_label(value))

    def value(self, value):
        return outcome_label(value)


class RoundLinks:
    """A link to each row's round page, from one reverse() for the page (config/links.py)."""

    @cached_property
    def round_urls(self) -> ArgumentUrls:
        return ArgumentUrls("rounds:round_detail")

    def round_link(self, round_id: str):
        return format_html('<a href="{}">{}</a>', self.round_urls(round_id), round_id)


class RoundTable(RoundLinks, tables.Table):
    """Newest first, by id: the rows come from a keyset page, so no column re-sorts them."""

    round_id = tables.Column("Round", attrs={"td": {"class": "code"}})
    table = tables.Column("Table", accessor="table__code", attrs={"td": {"class": "code"}})
    shoe = tables.Column("Shoe", accessor="shoe__code", attrs={"td": {"class": "code"}})
    number = tables.Column("No.", attrs=NUMBER)
    opened_at = UtcDateTimeColumn("Opened (UTC)")
    outcome = OutcomeColumn()
    # As the game server sent it (never edited): in exports, beside the outcome.
    status = tables.Column("Status sent", visible=False)
    players = tables.Column(attrs=NUMBER)
    wagered = MoneyColumn("Wagered", currency="table__currency")
    returned = MoneyColumn("Returned", currency="table__currency")
    currency = tables.Column(accessor="table__currency", visible=False)
    finding_count = tables.Column("Findings", attrs=NUMBER)
    reviewed = tables.Column("Review", accessor="reviewed_at", empty_values=())

    class Meta:
        model = Round
        fields = []
        sequence = [
            "round_id",
            "table",
            "shoe",
            "number",
            "opened_at",
            "outcome",
            "status",
            "players",
            "wagered",
            "returned",
            "currency",
            "finding_count",
            "reviewed",
        ]
        orderable = False
        empty_text = "No round matches."
        attrs = {"class": "round-list"}

    def render_round_id(self, value):
        return self.round_link(value)

    def value_round_id(self, value):
        return value

    def value_currency(self, record):
        return record.table.currency  # the code, not its display name

    def render_finding_count(self, value):
        if value:
            return format_html('<span class="badge badge-finding">{}</span>', value)
        return mark_safe('<span class="subtle">0</span>')

    def render_reviewed(self, record):
        if record.reviewed_at:
            return format_html(
                '<span class="badge badge-reviewed" title="{} at {}">reviewed</span>',
                record.reviewed_by,
                utc_text(record.reviewed_at),
            )
        if record.finding_count:
            return mark_safe('<span class="badge badge-to-review">to review</span>')
        return mark_safe('<span class="subtle">—</span>')

    def value_reviewed(self, record):
        return record.reviewed_at.isoformat() if record.reviewed_at else ""


class PlayRecordTable(RoundLinks, tables.Table):
    """A player's bets, newest first (keyset pages, no re-sorting)."""

    opened_at = UtcDateTimeColumn("Opened (UTC)", accessor="round__opened_at")
    round = tables.Column("Round", accessor="round__round_id", attrs={"td": {"class": "code"}})
    table = tables.Column("Table", accessor="round__table__code", attrs={"td": {"class": "code"}})
    bet_id = tables.Column("Bet", attrs={"td": {"class": "code"}})
    kind = tables.Column()
    stake = MoneyColumn(currency="round__table__currency")
    wagered = MoneyColumn("Wagered", currency="round__table__currency")
    returned = MoneyColumn("Returned", currency="round__table__currency")
    computed_returned = MoneyColumn("Computed", currency="round__table__currency")
    outcome = OutcomeColumn("Round outcome")
    adjustment = MoneyColumn("Adjustment", currency="round__table__currency", empty_values=())
    refund = MoneyColumn("Refund", currency="round__table__currency", empty_values=())
    void = MoneyColumn("Void", currency="round__table__currency", empty_values=())

    class Meta:
        model = Bet
        fields = []
        sequence = [
            "opened_at",
            "round",
            "table",
            "bet_id",
            "kind",
            "stake",
            "wagered",
            "returned",
            "computed_returned",
            "outcome",
            "adjustment",
            "refund",
            "void",
        ]
        orderable = False
        empty_text = "No bet matches."
        attrs = {"class": "play-record"}

    def render_kind(self, value):
        return kind_label(value)

    def value_kind(self, value):
        return value

    def render_round(self, value):
        return self.round_link(value)

    def render_computed_returned(self, record):
        value = record.computed_returned
        text = money(value, record.round.table.currency)
        if value is not None and value != record.returned:
            return format_html(
                '<span class="differs" title="differs from the reported amount">{}</span>', text
            )
        return text
