import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from config.listing import BadgeColumn, MoneyColumn, UtcDateTimeColumn
from rounds.engine.rules import kind_label
from tables.choices import Game

from .models import DailyExposure, DailyFigures, DailyTableSummary, ReportDocument, ReportRun

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}


class PercentColumn(tables.Column):
    """A percentage with 4 places; blank when unknown."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(*args, **kwargs)

    def render(self, value):
        return f"{value} %"

    def value(self, value):
        return "" if value is None else str(value)


class IntervalColumn(tables.Column):
    """An interval `low – high` of percentages, read from `<prefix>_low` and `<prefix>_high`."""

    def __init__(self, prefix: str, *args, **kwargs):
        self.prefix = prefix
        kwargs.setdefault("attrs", NUMBER)
        kwargs.setdefault("accessor", f"{prefix}_low")
        kwargs.setdefault("orderable", False)
        super().__init__(*args, **kwargs)

    def render(self, record):
        low, high = getattr(record, self.prefix + "_low"), getattr(record, self.prefix + "_high")
        return f"{low:.2f}–{high:.2f}"

    def value(self, record):
        low = getattr(record, self.prefix + "_low")
        return "" if low is None else f"{low}–{getattr(record, self.prefix + '_high')}"


def game_label(game: str) -> str:
    return Game(game).label if game in Game.values else game


class DailyFiguresTable(tables.Table):
    # The page shows one day: the day is in the title and in the CSV, not in every row.
    day = tables.DateColumn(format="Y-m-d", visible=False)
    table_code = tables.Column("Table", empty_values=())
    kind = tables.Column("Bet kind")
    wagered = MoneyColumn("Handle")
    returned = MoneyColumn("Returned")
    gross_gaming_revenue = MoneyColumn("GGR")
    observed_rtp = PercentColumn("Observed RTP")
    theoretical_rtp = PercentColumn("Theoretical RTP")
    difference = tables.Column("Difference", attrs=NUMBER, orderable=False, empty_values=())
    ci95 = IntervalColumn("ci95", "95% interval")
    ci99 = IntervalColumn("ci99", "99% interval")
    outside_99 = tables.BooleanColumn("Outside 99%", yesno="flagged,")

    class Meta:
        model = DailyFigures
        fields = [
            "day",
            "table_code",
            "kind",
            "rounds",
            "bets",
            "players",
            "wagered",
            "returned",
            "gross_gaming_revenue",
            "observed_rtp",
            "theoretical_rtp",
            "difference",
            "ci95",
            "ci99",
            "outside_99",
        ]
        empty_text = "No figures: the day has not been run, or no filter matches."
        row_attrs = {"class": lambda record: "has-finding" if record.outside_99 else ""}

    def render_table_code(self, value, record):
        if not value:
            return format_html(
                '<strong>Total</strong> <span class="subtle">{}</span>', game_label(record.game)
            )
        return format_html('<a href="{}">{}</a>', reverse("tables:table_detail", args=[value]), value)

    def value_table_code(self, value):
        return value or "total"

    def render_kind(self, value):
        return kind_label(value)

    def value_kind(self, value):
        return value

    def render_difference(self, record):
        difference = record.difference
        return "—" if difference is None else f"{difference:+.2f} pp"

    def value_difference(self, record):
        return "" if record.difference is None else str(record.difference)


class DailyTableSummaryTable(tables.Table):
    day = tables.DateColumn(format="Y-m-d", visible=False)
    table = tables.Column(accessor="table__code")
    finding_codes = tables.Column("Findings by code", orderable=False)
    flagged = tables.BooleanColumn(yesno="flagged,")

    class Meta:
        model = DailyTableSummary
        fields = [
            "day",
            "table",
            "game",
            "rounds",
            "cancelled_rounds",
            "resettlements",
            "findings",
            "finding_codes",
            "configuration_versions",
            "flagged",
        ]
        empty_text = "No table summaries for this day."
        row_attrs = {"class": lambda record: "has-finding" if record.flagged else ""}

    def render_table(self, record):
        return format_html(
            '<a href="{}">{}</a>', reverse("tables:table_detail", args=[record.table.code]), record.table.code
        )

    def render_game(self, value):
        return game_label(value)

    def render_finding_codes(self, value):
        return ", ".join(f"{code} {count}" for code, count in sorted(value.items())) or "—"

    def value_finding_codes(self, value):
        return "; ".join(f"{code}={count}" for code, count in sorted(value.items()))


class DailyExposureTable(tables.Table):
    day = tables.DateColumn(format="Y-m-d", visible=False)
    table = tables.Column(accessor="table__code")
    kind = tables.Column("Side option")
    stakes = MoneyColumn("Stakes")
    returned = MoneyColumn("Returned")
    observed_rtp = PercentColumn("Observed RTP")
    theoretical_rtp = PercentColumn("Theoretical RTP")
    liability_total = MoneyColumn("Liability")
    peak_liability = MoneyColumn("Peak liability")
    peak_round_id = tables.Column("Peak round", attrs={"td": {"class": "mono small"}})
    after_max_round_bets = tables.Column("Bets after max round", attrs=NUMBER)
    after_max_round_stakes = MoneyColumn("Stakes after max round")

    class Meta:
        model = DailyExposure
        fields = [
            "day",
            "table",
            "kind",
            "bets",
            "stakes",
            "returned",
            "observed_rtp",
            "theoretical_rtp",
            "liability_total",
            "peak_liability",
            "peak_round_id",
            "after_max_round_bets",
            "after_max_round_stakes",
        ]
        empty_text = "No side option was staked, or the day has not been run."

    def render_table(self, record):
        return format_html(
            '<a href="{}">{}</a>', reverse("tables:table_detail", args=[record.table.code]), record.table.code
        )

    def render_kind(self, value):
        return kind_label(value)

    def value_kind(self, value):
        return value

    def render_peak_round_id(self, value):
        return format_html('<a href="{}">{}</a>', reverse("rounds:round_detail", args=[value]), value)


class ReportDocumentTable(tables.Table):
    day = tables.DateColumn(format="Y-m-d")
    kind = tables.Column("Report")
    pages = tables.Column(attrs=NUMBER)
    size = tables.Column("Size", attrs=NUMBER)
    sha256 = tables.Column("SHA-256", attrs={"td": {"class": "mono small"}})
    generated_at = UtcDateTimeColumn("Made")
    run = tables.Column("Run", accessor="run__pk")
    download = tables.Column("", empty_values=(), orderable=False, exclude_from_export=True)

    class Meta:
        model = ReportDocument
        fields = ["day", "kind", "pages", "size", "sha256", "generated_at", "run", "download"]
        order_by = "-day"
        empty_text = "No report has been made yet."

    def render_size(self, value):
        return f"{value / 1024:,.0f} KB"

    def value_size(self, value):
        return value

    def render_run(self, record):
        return format_html(
            '{} <span class="subtle">({})</span>', record.run_id, record.run.get_trigger_display()
        )

    def render_download(self, record):
        return format_html(
            '<a href="{}">Download PDF</a>', reverse("reports:document_download", args=[record.pk])
        )


class ReportRunTable(tables.Table):
    id = tables.Column("Run", attrs=NUMBER)
    day = tables.DateColumn(format="Y-m-d")
    started_by = tables.Column("By", default="—")
    started_at = UtcDateTimeColumn("Started")
    finished_at = UtcDateTimeColumn("Finished", default="—")
    seconds = tables.Column("Seconds", attrs=NUMBER, orderable=False, empty_values=())
    status = BadgeColumn()
    error = tables.Column(attrs={"td": {"class": "small"}})

    class Meta:
        model = ReportRun
        fields = [
            "id",
            "day",
            "trigger",
            "started_by",
            "started_at",
            "finished_at",
            "seconds",
            "status",
            "tables",
            "error",
        ]
        order_by = "-started_at"
        empty_text = "The daily job has not run yet."

    def render_seconds(self, record):
        return "—" if record.seconds is None else f"{record.seconds:,.1f}"

    def value_seconds(self, record):
        return "" if record.seconds is None else f"{record.seconds:.3f}"
