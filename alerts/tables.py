"""The alerts' lists as django-tables2 tables: alerts, silences, threshold changes, reportable faults."""

from decimal import Decimal

import django_tables2 as tables

from blackjack.rules import kind_label
from core.listing import BadgeColumn, CellColumn, LocalTimeColumn, MoneyColumn

from .choices import Monitor, Severity
from .definitions import DEFINITIONS
from .filtersets import SILENCE_STATES
from .models import Alert, ReportableFault, Silence, Threshold

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}
ALL_MONITORS = "All monitors"


def number_text(value) -> str:
    """A measure or a threshold as people read it: 10000.00 -> "10,000", 5.1200 -> "5.12"."""
    text = f"{Decimal(value):,f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def subject_text(monitor: str, subject: str) -> str:
    """What an alert is about beside its table: a bet kind by its label, a dealer's id."""
    return kind_label(subject) if monitor == Monitor.RTP_DRIFT else subject


class SeverityColumn(BadgeColumn):
    """A severity as a badge: badge-warning, badge-critical."""

    def stored_value(self, record, bound_column):
        return Severity(bound_column.accessor.resolve(record)).name.lower()


class AlertTable(tables.Table):
    id = tables.Column("Alert", linkify=("alerts:alert_detail", [tables.A("pk")]))
    table = tables.Column(
        accessor="table__code",
        verbose_name="Table",
        order_by="table__code",
        linkify=("floor:table_live", [tables.A("table__code")]),
    )
    monitor = tables.Column()
    subject = tables.Column(default="—")
    severity = SeverityColumn()
    status = BadgeColumn()
    summary = tables.Column(attrs={"td": {"class": "reason alert-summary"}})
    occurrences = tables.Column("Seen", attrs=NUMBER)
    first_seen = LocalTimeColumn()
    last_seen = LocalTimeColumn()
    claimed_by = tables.Column(default="—")
    resolved_by = tables.Column(default="—")
    resolved_at = LocalTimeColumn(default="—")

    class Meta:
        model = Alert
        fields = [
            "id",
            "table",
            "monitor",
            "subject",
            "severity",
            "status",
            "summary",
            "occurrences",
            "first_seen",
            "last_seen",
            "claimed_by",
            "resolved_by",
            "resolved_at",
        ]
        order_by = "-last_seen"
        empty_text = "No alert matches."

    def render_subject(self, value, record):
        return subject_text(record.monitor, value)

    def value_subject(self, value):
        return value


class SilenceStateColumn(BadgeColumn):
    """A silence's state (the view's `state` annotation) as a badge, its label in exports."""

    labels = dict(SILENCE_STATES)
    badges = {"in_force": "in-force", "to_come": "pending", "ended": "withdrawn", "over": "past"}

    def stored_value(self, record, bound_column):
        return self.badges[record.state]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["label"] = self.labels[kwargs["record"].state]
        return context

    def value(self, value):
        return self.labels[value]


class SilenceTable(tables.Table):
    table = tables.Column(
        accessor="table__code",
        verbose_name="Table",
        order_by="table__code",
        linkify=("floor:table_live", [tables.A("table__code")]),
    )
    monitor = tables.Column(accessor="pk", order_by="monitor")
    state = SilenceStateColumn("State", order_by=("state", "-starts_at"))
    starts_at = LocalTimeColumn("From")
    ends_at = LocalTimeColumn("Until")
    reason = tables.Column(attrs={"td": {"class": "reason"}})
    created_by = tables.Column("By")
    ended_by = tables.Column(default="—")
    ended_at = LocalTimeColumn(default="—")
    # The "End now" button of a silence in force: it submits the page's one end form (no markup in the
    # exports, left out for who may not end one: SilenceListView).
    end = CellColumn(
        "",
        accessor="pk",
        template_name="alerts/cells/silence_end.html",
        orderable=False,
        exclude_from_export=True,
    )

    class Meta:
        model = Silence
        fields = ["table", "monitor", "state", "starts_at", "ends_at", "reason", "created_by", "ended_by"]
        sequence = [*fields, "ended_at", "end"]
        order_by = "-starts_at"
        empty_text = "No silence matches."

    def render_monitor(self, record):
        return record.get_monitor_display() or ALL_MONITORS

    def value_monitor(self, record):
        return record.get_monitor_display() or ALL_MONITORS


class ThresholdTable(tables.Table):
    monitor = tables.Column()
    scope = tables.Column("For", accessor="pk", order_by=("table__code", "game"))
    previous = tables.Column("Was", attrs=NUMBER)
    value = tables.Column("Proposed", attrs=NUMBER)
    unit = tables.Column(
        "Unit", accessor="monitor", orderable=False, attrs={"td": {"class": "subtle small threshold-unit"}}
    )
    status = BadgeColumn()
    reason = tables.Column(attrs={"td": {"class": "reason"}})
    proposed_by = tables.Column()
    proposed_at = LocalTimeColumn()
    decided_by = tables.Column(default="—")
    decided_at = LocalTimeColumn(default="—")
    decision_note = tables.Column("Note", default="—", attrs={"td": {"class": "reason"}})

    class Meta:
        model = Threshold
        fields = ["monitor", "scope", "previous", "value", "unit", "status", "reason", "proposed_by"]
        sequence = [*fields, "proposed_at", "decided_by", "decided_at", "decision_note"]
        order_by = "-proposed_at"
        empty_text = "No threshold change matches."

    def render_scope(self, record):
        return record.table.code if record.table_id else f"every {record.get_game_display()} table"

    def value_scope(self, record):
        return record.table.code if record.table_id else record.game

    def render_previous(self, value):
        return number_text(value)

    def render_value(self, value):
        return number_text(value)

    def value_previous(self, value):
        return value

    def value_value(self, value):
        return value

    def render_unit(self, record):
        return DEFINITIONS[record.monitor].unit

    def value_unit(self, record):
        return DEFINITIONS[record.monitor].unit


class FaultTable(tables.Table):
    id = tables.Column("Fault", linkify=("alerts:fault_detail", [tables.A("pk")]))
    table = tables.Column(
        accessor="table__code",
        verbose_name="Table",
        order_by="table__code",
        linkify=("tables:table_detail", [tables.A("table__code")]),
    )
    game = tables.Column()
    what_happened = tables.Column(attrs={"td": {"class": "reason"}})
    found_at = LocalTimeColumn("Found")
    affected_from = LocalTimeColumn()
    affected_to = LocalTimeColumn()
    rounds = tables.Column(attrs=NUMBER)
    players = tables.Column(attrs=NUMBER)
    wagered = MoneyColumn()
    returned = MoneyColumn()
    net = MoneyColumn("Net (wagered − returned)", accessor="net_result")
    currency = tables.Column(visible=False)
    marked_by = tables.Column()
    marked_at = LocalTimeColumn()

    class Meta:
        model = ReportableFault
        fields = [
            "id",
            "table",
            "game",
            "what_happened",
            "found_at",
            "affected_from",
            "affected_to",
            "rounds",
            "players",
            "wagered",
            "returned",
        ]
        sequence = [*fields, "net", "currency", "marked_by", "marked_at"]
        order_by = "-marked_at"
        empty_text = "No reportable fault matches."

    def value_currency(self, record):
        return record.currency  # the code, not its display name
