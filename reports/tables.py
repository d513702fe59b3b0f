import django_tables2 as tables

from blackjack.rules import kind_label
from core.listing import BadgeColumn, CellColumn, LocalTimeColumn, MoneyColumn
from core.templatetags.pitboss import local_time
from tables.choices import Game

from .models import (
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    IntervalMethod,
    ReportDocument,
    ReportRun,
)

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}
TABLE_LINK = ("tables:table_detail", [tables.A("table__code")])
INTERVAL_WORDS = {IntervalMethod.NORMAL: "normal", IntervalMethod.LOG: "log"}


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
        if low is None or high is None:
            return "—"
        return f"{low:.2f}–{high:.2f}"

    def value(self, record):
        low = getattr(record, self.prefix + "_low")
        return "" if low is None else f"{low}–{getattr(record, self.prefix + '_high')}"


def game_label(game: str) -> str:
    return Game(game).label if game in Game.values else game


class DailyFiguresTable(tables.Table):
    # The page shows one day: the day is in the title and in the CSV, not in every row.
    day = tables.DateColumn(format="Y-m-d", visible=False)
    table_code = CellColumn(
        "Table",
        template_name="cells/figures_table.html",
        empty_values=(),
        context=lambda value, record: {"game": game_label(record.game)},
        key=lambda value, record: value or ("total", record.game),
    )
    # The amounts' currency: in the CSV (the page shows it with each amount).
    currency = tables.Column("Currency", visible=False)
    kind = tables.Column("Bet kind")
    wagered = MoneyColumn("Handle")
    returned = MoneyColumn("Returned")
    gross_gaming_revenue = MoneyColumn("GGR")
    observed_rtp = PercentColumn("Observed RTP")
    theoretical_rtp = PercentColumn("Theoretical RTP")
    difference = tables.Column("Difference", attrs=NUMBER, orderable=False, empty_values=())
    ci95 = IntervalColumn("ci95", "95% interval")
    ci99 = IntervalColumn("ci99", "99% interval")
    # A word in the column; the method in full when pointed at (and in the page's notes).
    interval_method = CellColumn(
        "Interval",
        template_name="cells/titled.html",
        attrs={"td": {"class": "small"}},
        context=lambda value, record: {
            "title": record.get_interval_method_display(),
            "text": INTERVAL_WORDS.get(record.interval_method, record.interval_method),
        },
        by_value=True,  # the method's label
    )
    outside_99 = tables.BooleanColumn(verbose_name="RTP flag", yesno="outside 99%,")

    class Meta:
        model = DailyFigures
        fields = [
            "day",
            "table_code",
            "currency",
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
            "interval_method",
            "outside_99",
        ]
        empty_text = "No figures: no run of the day has succeeded, or no filter matches."
        row_attrs = {"class": lambda record: "has-finding" if record.outside_99 else ""}

    def value_table_code(self, value, record):
        """A table's code, or the total of a game (in the row's currency): "total Deluxe Blackjack"."""
        return value or f"total {game_label(record.game)}"

    def render_kind(self, value):
        return kind_label(value)

    def value_kind(self, value):
        return value

    def render_difference(self, record):
        difference = record.difference
        return "—" if difference is None else f"{difference:+.2f} pp"

    def value_difference(self, record):
        return "" if record.difference is None else str(record.difference)

    def value_interval_method(self, value):
        return value


class DailyTableSummaryTable(tables.Table):
    day = tables.DateColumn(format="Y-m-d", visible=False)
    table = tables.Column("Table", accessor="table__code", linkify=TABLE_LINK)
    cancelled_rounds = tables.Column("Cancelled", attrs=NUMBER)
    voided_rounds = tables.Column("Voided", attrs=NUMBER)
    # Approved; the proposals of any status beside them when there are others.
    resettled_rounds = CellColumn("Re-settled", template_name="cells/resettled_rounds.html", attrs=NUMBER)
    resettlements = tables.Column("Re-settlements proposed", attrs=NUMBER, visible=False)
    refunds = tables.Column("Bets refunded", attrs=NUMBER, visible=False)
    # The bets refunded and what they were refunded.
    refunded = CellColumn("Refunds", template_name="cells/refunded.html", attrs=NUMBER)
    # The payouts the day's voids took back and the stakes they gave back.
    voided_reversed = CellColumn("Voids: back / returned", template_name="cells/voided.html", attrs=NUMBER)
    voided_stakes_returned = MoneyColumn("Voids: stakes returned", visible=False)
    limit_findings = tables.Column("Limit findings", attrs=NUMBER)
    money_findings = tables.Column("Money findings", attrs=NUMBER)
    findings = tables.Column("Findings", attrs=NUMBER)
    finding_codes = tables.Column("By code", orderable=False, attrs={"td": {"class": "small"}})
    configuration_versions = tables.Column("Versions")
    flagged = tables.BooleanColumn(verbose_name="RTP flag", yesno="outside 99%,")
    beyond_paytable = tables.Column("Payouts beyond the paytable", attrs=NUMBER)

    class Meta:
        model = DailyTableSummary
        fields = [
            "day",
            "table",
            "game",
            "rounds",
            "cancelled_rounds",
            "voided_rounds",
            "resettled_rounds",
            "resettlements",
            "refunds",
            "refunded",
            "voided_reversed",
            "voided_stakes_returned",
            "limit_findings",
            "money_findings",
            "findings",
            "finding_codes",
            "configuration_versions",
            "flagged",
            "beyond_paytable",
        ]
        empty_text = "No table summaries for this run."
        row_attrs = {
            "class": lambda record: "has-finding" if record.flagged or record.beyond_paytable else ""
        }

    def render_game(self, value):
        return game_label(value)

    def value_refunded(self, value):
        return str(value)

    def value_voided_reversed(self, value):
        return str(value)

    def render_finding_codes(self, value):
        return ", ".join(f"{code} {count}" for code, count in sorted(value.items())) or "—"

    def value_finding_codes(self, value):
        return "; ".join(f"{code}={count}" for code, count in sorted(value.items()))


class DailyExposureTable(tables.Table):
    day = tables.DateColumn(format="Y-m-d", visible=False)
    table = tables.Column("Table", accessor="table__code", linkify=TABLE_LINK)
    currency = tables.Column("Currency", visible=False)  # in the CSV, as in DailyFiguresTable
    kind = tables.Column("Side option")
    stakes = MoneyColumn("Stakes")
    returned = MoneyColumn("Returned")
    observed_rtp = PercentColumn("Observed RTP")
    theoretical_rtp = PercentColumn("Theoretical RTP")
    liability_total = MoneyColumn("Liability")
    peak_liability = MoneyColumn("Peak liability")
    peak_round_id = tables.Column(
        "Peak round",
        linkify=("rounds:round_detail", [tables.A("peak_round_id")]),
        attrs={"td": {"class": "mono small"}},
    )
    after_max_round_bets = tables.Column("Bets after max round", attrs=NUMBER)
    after_max_round_stakes = MoneyColumn("Stakes after max round")

    class Meta:
        model = DailyExposure
        fields = [
            "day",
            "table",
            "currency",
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

    def render_kind(self, value):
        return kind_label(value)

    def value_kind(self, value):
        return value


class ReportDocumentTable(tables.Table):
    day = tables.DateColumn(format="Y-m-d")
    kind = tables.Column("Report")
    pages = tables.Column(attrs=NUMBER)
    size = tables.Column("Size", attrs=NUMBER)
    sha256 = tables.Column("SHA-256", attrs={"td": {"class": "mono small"}})
    generated_at = LocalTimeColumn("Made")
    run = CellColumn("Run", accessor="run__pk", template_name="cells/report_run.html")
    download = tables.Column(
        "",
        empty_values=(),
        orderable=False,
        exclude_from_export=True,
        linkify=("reports:document_download", [tables.A("pk")]),
    )

    class Meta:
        model = ReportDocument
        fields = ["day", "kind", "pages", "size", "sha256", "generated_at", "run", "download"]
        order_by = ("-day", "-generated_at")
        empty_text = "No report has been made yet."
        row_attrs = {"class": lambda record: "refused" if record.run.superseded_by_id else ""}

    def render_size(self, value):
        return f"{value / 1024:,.0f} KB"

    def value_size(self, value):
        return value

    def value_run(self, record):
        return record.run_id

    def render_download(self):
        return "Download PDF"


class ReportRunTable(tables.Table):
    # Each run links to its page: its progress, its figures and its PDFs.
    id = tables.Column("Run", attrs=NUMBER, linkify=("reports:run_detail", [tables.A("pk")]))
    day = tables.DateColumn(format="Y-m-d")
    number = tables.Column("Of the day", attrs=NUMBER)
    started_by = tables.Column("By", default="—")
    started_at = LocalTimeColumn("Started")
    finished_at = LocalTimeColumn("Finished", default="—")
    seconds = tables.Column("Seconds", attrs=NUMBER, orderable=False, empty_values=())
    status = BadgeColumn()
    superseded_by = CellColumn(
        "Superseded by",
        accessor="superseded_by_id",
        template_name="cells/superseded_by.html",
        default="—",
        context=lambda value, record: {"at": local_time(record.superseded_at)},
    )
    # The start of the checksum; all of it when pointed at, and in the CSV.
    figures_sha256 = CellColumn(
        "Figures SHA-256",
        template_name="cells/titled.html",
        attrs={"td": {"class": "mono small"}},
        default="—",
        context=lambda value, record: {"title": value, "text": f"{value[:12]}…"},
    )
    error = tables.Column(attrs={"td": {"class": "small"}})

    class Meta:
        model = ReportRun
        fields = [
            "id",
            "day",
            "number",
            "trigger",
            "started_by",
            "started_at",
            "finished_at",
            "seconds",
            "status",
            "superseded_by",
            "tables",
            "figures_sha256",
            "error",
        ]
        order_by = "-started_at"
        empty_text = "The daily job has not run yet."

    def value_id(self, record):
        return record.pk

    def render_seconds(self, record):
        return "—" if record.seconds is None else f"{record.seconds:,.1f}"

    def value_seconds(self, record):
        return "" if record.seconds is None else f"{record.seconds:.3f}"
