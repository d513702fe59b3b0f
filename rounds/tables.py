"""The round list and the play record as django-tables2 tables (page rows and CSV export)."""

import django_tables2 as tables
from django.utils.functional import cached_property

from blackjack.rules import kind_label
from core.links import ArgumentUrls
from core.listing import CellColumn, LocalTimeColumn, MoneyColumn
from core.templatetags.pitboss import local_time_text

from .choices import RoundStatus
from .models import Bet, Round
from .outcome import outcome_label
from .selectors import finding_codes_of

STATUS_LABELS = dict(RoundStatus.choices)
NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}


class OutcomeColumn(CellColumn):
    """A round's outcome (rounds.outcome: the status as sent, and its correction) as a badge; its
    label in exports. The rows carry it as the `outcome_expression()` annotation: no query per row."""

    template_name = "cells/badge.html"

    def __init__(self, verbose_name="Outcome", **kwargs):
        kwargs.setdefault("orderable", False)
        super().__init__(verbose_name, by_value=True, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["badge"] = kwargs["value"]
        context["label"] = outcome_label(kwargs["value"])
        return context

    def value(self, value):
        return outcome_label(value)


class RoundLinks:
    """A table whose rows link to round pages (`linkify=round_url`): one reverse() for the table,
    not one a row (core/links.py). `round_pages`: whether the viewer may open them
    (rounds.access.may_open_rounds); without, the round ids are shown unlinked."""

    def __init__(self, *args, round_pages: bool = True, **kwargs):
        self.round_pages = round_pages
        super().__init__(*args, **kwargs)

    @cached_property
    def round_urls(self) -> ArgumentUrls:
        return ArgumentUrls("rounds:round_detail")


def round_url(table, value) -> str | None:
    """`linkify` of a round id in a RoundLinks table: its round page (none: no link)."""
    return table.round_urls(value) if table.round_pages else None


class RoundTable(RoundLinks, tables.Table):
    """Newest played first, or sorted by time played, table, wagered, returned or findings: the
    rows come from a keyset page in that order (rounds.views.ROUND_ORDERS)."""

    round_id = tables.Column("Round", linkify=round_url, attrs={"td": {"class": "code"}})
    table = tables.Column("Table", accessor="table_code", attrs={"td": {"class": "code"}}, orderable=True)
    shoe = tables.Column("Shoe", accessor="shoe_code", attrs={"td": {"class": "code"}})
    number = tables.Column("No.", attrs=NUMBER)
    # The game server's id of who dealt it, as sent; blank (not sent) is a value, exported as it is.
    dealt_by = tables.Column("Dealt by", attrs={"td": {"class": "code"}}, empty_values=())
    # On the page in the user's time zone; in exports in UTC, under a header that says so.
    opened_at = LocalTimeColumn("Opened", orderable=True, exclude_from_export=True)
    opened_at_utc = LocalTimeColumn("Opened (UTC)", accessor="opened_at", visible=False)
    outcome = OutcomeColumn()
    # As the game server sent it (never edited): in exports, beside the outcome.
    status = tables.Column("Status sent", visible=False)
    players = tables.Column(attrs=NUMBER)
    wagered = MoneyColumn("Wagered", orderable=True)
    returned = MoneyColumn("Returned", orderable=True)
    currency = tables.Column(visible=False)
    finding_count = CellColumn(
        "Findings", template_name="cells/finding_count.html", by_value=True, attrs=NUMBER, orderable=True
    )
    # The codes of its findings: rounds.selectors.with_finding_codes on a page, the
    # finding_codes_expression annotation in the CSV export.
    finding_codes = CellColumn(
        "Finding codes",
        accessor="finding_codes_text",
        template_name="cells/finding_codes.html",
        default="—",
        context=lambda value, record: {"codes": finding_codes_of(value)},
        by_value=True,
    )
    # Who reviewed the round and when, or whether its findings wait for a review.
    reviewed = CellColumn(
        "Review",
        accessor="reviewed_at",
        template_name="cells/review.html",
        empty_values=(),
        context=lambda value, record: {"at": local_time_text(value)},
        key=lambda value, record: None if value else ("not reviewed", bool(record.finding_count)),
    )
    # In exports, beside the review as the page shows it, when: in UTC like every moment exported.
    reviewed_at_utc = LocalTimeColumn("Reviewed at (UTC)", accessor="reviewed_at", visible=False)

    @cached_property
    def shown(self) -> list[tuple]:
        """Every value the rows show, row by row: the key of the rows in the cache
        (templates/rounds/includes/round_table.html). A column that shows another value of a round
        must add it here."""
        return [
            (
                r.pk,
                r.round_id,
                r.table_code,
                r.currency,
                r.shoe_code,
                r.number,
                r.dealt_by,
                r.opened_at,
                r.outcome,
                r.players,
                r.wagered,
                r.returned,
                r.finding_count,
                getattr(r, "finding_codes_text", None),
                r.reviewed_at,
                r.reviewed_by.username if r.reviewed_by else None,
            )
            for r in self.data
        ]

    class Meta:
        model = Round
        fields = []
        sequence = [
            "round_id",
            "table",
            "shoe",
            "number",
            "dealt_by",
            "opened_at",
            "opened_at_utc",
            "outcome",
            "status",
            "players",
            "wagered",
            "returned",
            "currency",
            "finding_count",
            "finding_codes",
            "reviewed",
            "reviewed_at_utc",
        ]
        orderable = False
        empty_text = "No round matches."
        attrs = {"class": "round-list"}

    def value_status(self, value):
        # The label: the export's rows are dicts of values (RoundListView.get_table_data), a model
        # row gives its label already.
        return STATUS_LABELS.get(value, value)

    def value_finding_codes(self, value):
        return " ".join(finding_codes_of(value))

    def value_reviewed(self, value, record):
        """The badge's word: "reviewed", "to review" (findings, not reviewed), or nothing."""
        if value:
            return "reviewed"
        findings = record["finding_count"] if isinstance(record, dict) else record.finding_count
        return "to review" if findings else ""


class PlayRecordTable(RoundLinks, tables.Table):
    """A player's bets, newest first (keyset pages, no re-sorting)."""

    opened_at = LocalTimeColumn("Opened", accessor="round__opened_at", exclude_from_export=True)
    opened_at_utc = LocalTimeColumn("Opened (UTC)", accessor="round__opened_at", visible=False)
    round = tables.Column(
        "Round", accessor="round__round_id", linkify=round_url, attrs={"td": {"class": "code"}}
    )
    table = tables.Column("Table", accessor="round__table__code", attrs={"td": {"class": "code"}})
    bet_id = tables.Column("Bet", attrs={"td": {"class": "code"}})
    kind = tables.Column()
    stake = MoneyColumn(currency="round__table__currency")
    wagered = MoneyColumn("Wagered", currency="round__table__currency")
    returned = MoneyColumn("Returned", currency="round__table__currency")
    computed_returned = CellColumn("Computed", template_name="cells/computed_returned.html", attrs=NUMBER)
    outcome = OutcomeColumn("Round outcome")
    adjustment = MoneyColumn("Adjustment", currency="round__table__currency", empty_values=())
    refund = MoneyColumn("Refund", currency="round__table__currency", empty_values=())
    void = MoneyColumn("Void", currency="round__table__currency", empty_values=())
    # The `breached` annotation of play_record_bets: no query per row.
    breached = CellColumn(
        "Limit",
        template_name="cells/limit_breached.html",
        by_value=True,
        empty_values=(None, "", False),
        default="",
    )

    @cached_property
    def shown(self) -> list[tuple]:
        """Every value the page's rows show, row by row: the key of the rows in the cache
        (templates/rounds/includes/play_record_table.html). A column that shows another value of a bet
        must add it here."""
        return [
            (
                b.pk,
                b.round.round_id,
                b.round.opened_at,
                b.round.table.code,
                b.round.table.currency,
                b.bet_id,
                b.kind,
                b.stake,
                b.breached,
                b.wagered,
                b.returned,
                b.computed_returned,
                b.outcome,
                b.adjustment,
                b.refund,
                b.void,
            )
            for b in (row.record for row in self.paginated_rows)
        ]

    class Meta:
        model = Bet
        fields = []
        sequence = [
            "opened_at",
            "opened_at_utc",
            "round",
            "table",
            "bet_id",
            "kind",
            "stake",
            "breached",
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

    def value_breached(self, value):
        return "yes" if value else ""

    def value_computed_returned(self, value):
        return str(value)
