"""The report PDFs: HTML from Django templates (templates/reports/pdf/), made into PDF by WeasyPrint.

Every figure comes from the daily rows (DailyFigures, DailyTableSummary, DailyExposure) the run
stored; nothing here reads bets. Render only in Celery tasks: importing WeasyPrint alone takes about a
second, and a report a few more.

Each PDF is written to settings.PITBOSS_REPORTS_DIR/<day>/<kind>-<day>-run-<run>.pdf, a file of the
run's own that no other run writes, through a temporary file in the same folder and a rename, so a
reader never sees half a file; its ReportDocument row (checksum, size, pages) is the run's. The cover
names the run (its number that day, trigger, who started it, when, the checksum of its figures), its
sign-off ("Not signed" when the run ends) and the corrections of the day recorded after it started,
as the PDF was made. Once compliance signs the run, its signed edition is made beside it
(<kind>-<day>-run-<run>-signed.pdf, `signed_documents_render`): a new file, the first never rewritten.
"""

import base64
import hashlib
import os
import tempfile
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from blackjack.rules import BET_KINDS, kind_label, pattern_label
from core.gaming_day import GamingDay
from core.money import money_text
from core.pdf import pdf_document
from ledger.services import ledger_sign_heads
from rounds.choices import FindingCode
from tables.choices import Game
from tables.models import Table

from .models import (
    TREND_WINDOWS,
    ChartSubject,
    DailyExposure,
    DailyFigures,
    DailyTableSummary,
    IntervalMethod,
    ReportChart,
    ReportDocument,
    ReportKind,
    ReportRun,
    ReportSignOff,
)
from .records import run_standing

TEMPLATES = {
    ReportKind.DAILY_RTP: "reports/pdf/daily_rtp.html",
    ReportKind.EXPOSURE: "reports/pdf/exposure.html",
}
TREND_DAYS = TREND_WINDOWS[0]
KIND_ORDER = {kind: position for position, kind in enumerate(BET_KINDS)}


def documents_render(run: ReportRun) -> list[ReportDocument]:
    """Both reports of the run's gaming day, written and recorded as the run's own; none for a run of
    figures only."""
    if run.figures_only:
        return []
    return [document_render(run, kind) for kind in ReportKind.values]


def signed_documents_render(run: ReportRun) -> list[ReportDocument]:
    """The signed edition of each of the run's reports not made yet (the task delivered again makes
    none twice); none for a run not signed or of figures only. The caller holds the run's row."""
    if run.figures_only or not ReportSignOff.objects.filter(run=run).exists():
        return []
    made = set(ReportDocument.objects.filter(run=run, signed=True).values_list("kind", flat=True))
    return [document_render(run, kind, signed=True) for kind in ReportKind.values if kind not in made]


def document_render(run: ReportRun, kind: str, *, signed: bool = False) -> ReportDocument:
    generated_at = timezone.now()
    html = report_html(run, kind, generated_at=generated_at, signed=signed)
    # A report loads nothing from outside itself: its CSS is inline, its charts data: URLs.
    rendered = pdf_document(html)
    content = rendered.write_pdf()
    relative = document_path(run, kind, signed=signed)
    _write_atomically(Path(settings.PITBOSS_REPORTS_DIR) / relative, content)
    document, _ = ReportDocument.objects.update_or_create(
        run=run,
        kind=kind,
        signed=signed,
        defaults={
            "day": run.day,
            "path": str(relative),
            "sha256": hashlib.sha256(content).hexdigest(),
            "size": len(content),
            "pages": len(rendered.pages),
            "generated_at": generated_at,
        },
    )
    return document


def document_path(run: ReportRun, kind: str, *, signed: bool = False) -> Path:
    """Under PITBOSS_REPORTS_DIR: the day's folder, a file named for the report, the day, the run and
    the edition."""
    day = run.day.isoformat()
    return Path(day) / f"{kind}-{day}-run-{run.pk}{'-signed' if signed else ''}.pdf"


def document_file(document: ReportDocument) -> Path:
    return Path(settings.PITBOSS_REPORTS_DIR) / document.path


def report_html(
    run: ReportRun, kind: str, *, generated_at: datetime | None = None, signed: bool = False
) -> str:
    """The HTML WeasyPrint makes the PDF of (tests read it for the charts); `signed`: the edition
    carrying the run's sign-off."""
    context = _cover(run, ReportKind(kind), generated_at or timezone.now())
    context.update(signed=signed, sign_off=sign_off_text(run) if signed else NOT_SIGNED)
    if kind == ReportKind.DAILY_RTP:
        context.update(_daily_rtp(run), ledger_heads=ledger_sign_heads(run.day))
    else:
        context.update(_exposure(run))
    return render_to_string(TEMPLATES[kind], context)


def _write_atomically(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# --- what every report shows -------------------------------------------------------------------


@cache
def pitboss_version() -> str:
    with open(Path(settings.BASE_DIR) / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]["version"]


def weasyprint_version() -> str:
    import weasyprint

    return weasyprint.__version__


def _cover(run: ReportRun, kind: ReportKind, generated_at: datetime) -> dict:
    """Pre-formatted: Django's date filter would turn these local times back into UTC."""
    day = GamingDay(run.day, run.time_zone, run.cutoff)
    zone = ZoneInfo(run.time_zone)
    starts, ends = day.starts_at.astimezone(zone), day.ends_at.astimezone(zone)
    return {
        "title": kind.label,
        "kind": kind.value,
        "run": run,
        "standing": run_standing(run),
        "day": run.day.isoformat(),
        "time_zone": run.time_zone,
        "cutoff": run.cutoff.strftime("%H:%M"),
        "period": (
            f"From {starts:%H:%M} on {starts:%a} {starts.day} {starts:%b %Y} "
            f"to {ends:%H:%M} on {ends:%a} {ends.day} {ends:%b %Y}, {run.time_zone} time"
        ),
        "generated_at": generated_at,
        "made_at": f"{generated_at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC "
        f"({generated_at.astimezone(zone):%H:%M} {run.time_zone})",
        "run_started_at": f"{run.started_at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC",
        "started_by": run.started_by.get_username() if run.started_by else "",
        "trigger": run.get_trigger_display(),
        "pitboss_version": pitboss_version(),
        "weasyprint_version": weasyprint_version(),
    }


NOT_SIGNED = "Not signed"


def sign_off_text(run: ReportRun) -> str:
    """ "Signed by compliance on 2026-03-03 09:12 (Europe/Malta): Checked." in the run's time zone."""
    sign_off = ReportSignOff.objects.select_related("signed_by").filter(run=run).first()
    if sign_off is None:
        return NOT_SIGNED
    signed_at = sign_off.signed_at.astimezone(ZoneInfo(run.time_zone))
    return (
        f"Signed by {sign_off.signed_by.get_username()} on {signed_at:%Y-%m-%d %H:%M} "
        f"({run.time_zone}): {sign_off.comment}"
    )


def rtp_text(value: Decimal | None) -> str:
    """An RTP as stored, in percent with its four places: "99.5150"; None -> "—"."""
    return "—" if value is None else f"{value:.4f}"


def difference_text(value: Decimal | None) -> str:
    return "—" if value is None else f"{value:+.4f}"


def interval_text(low: Decimal | None, high: Decimal | None) -> str:
    if low is None or high is None:
        return "—"
    return f"{low:.4f} – {high:.4f}"


# How each interval was worked out, in a word for a table's column; the notes say it in full.
METHOD_WORDS = {IntervalMethod.NORMAL: "normal", IntervalMethod.LOG: "log"}


def kind_order(kind: str) -> int:
    return KIND_ORDER.get(kind, len(KIND_ORDER))


@dataclass(frozen=True)
class ChartImage:
    """A stored chart as the PDF shows it: its SVG as a data: URL, or the message drawn instead."""

    title: str
    description: str
    message: str
    source: str
    days: int
    window: int


def chart_image(chart: ReportChart) -> ChartImage:
    source = ""
    if chart.drawn:
        source = "data:image/svg+xml;base64," + base64.b64encode(chart.svg.encode()).decode("ascii")
    return ChartImage(
        title=chart.title,
        description=chart.description,
        message=chart.message,
        source=source,
        days=chart.days,
        window=chart.window_days,
    )


# --- the daily RTP report ------------------------------------------------------------------------


@dataclass
class FiguresRow:
    label: str
    rounds: str
    bets: str
    players: str
    wagered: str
    returned: str
    gross_gaming_revenue: str
    observed: str
    theoretical: str
    difference: str
    interval_95: str
    interval_99: str
    outside_99: bool
    method: str


@dataclass
class TableSection:
    code: str
    name: str
    game: str
    currency: str
    configuration_versions: str = ""
    summary: DailyTableSummary | None = None
    figures: list[FiguresRow] = field(default_factory=list)
    findings: list[tuple[str, str, int]] = field(default_factory=list)  # (code, meaning, count)
    trend_charts: list[ChartImage] = field(default_factory=list)

    @property
    def beyond_paytable(self) -> list[DailyTableSummary]:
        """The table's summary when it flags payouts beyond the paytable (the include takes a list)."""
        return [self.summary] if self.summary is not None and self.summary.beyond_paytable else []

    @property
    def rtp_flags(self) -> list[str]:
        """The RTP flag: the bet kinds whose theoretical RTP lies outside the 99% interval."""
        return [row.label for row in self.figures if row.outside_99]

    @property
    def notes(self) -> list[str]:
        """What else the day holds, apart from the RTP flag: corrections, refunds, findings by kind."""
        if self.summary is None:
            return []
        summary, notes = self.summary, []
        for count, one, many in (
            (summary.cancelled_rounds, "cancelled round", "cancelled rounds"),
            (summary.voided_rounds, "voided round", "voided rounds"),
            (summary.resettled_rounds, "re-settled round", "re-settled rounds"),
            (summary.resettlements, "re-settlement proposed", "re-settlements proposed"),
            (summary.refunds, "bet refunded", "bets refunded"),
            (summary.limit_findings, "limit finding", "limit findings"),
            (summary.money_findings, "money finding", "money findings"),
            (summary.findings, "finding in all", "findings in all"),
        ):
            if count:
                notes.append(f"{count:,} {one if count == 1 else many}")
        return notes


def _figures_row(figures: DailyFigures, label: str) -> FiguresRow:
    return FiguresRow(
        label=label,
        rounds=f"{figures.rounds:,}",
        bets=f"{figures.bets:,}",
        players=f"{figures.players:,}",
        wagered=money_text(figures.wagered),
        returned=money_text(figures.returned),
        gross_gaming_revenue=money_text(figures.gross_gaming_revenue),
        observed=rtp_text(figures.observed_rtp),
        theoretical=rtp_text(figures.theoretical_rtp),
        difference=difference_text(figures.difference),
        interval_95=interval_text(figures.ci95_low, figures.ci95_high),
        interval_99=interval_text(figures.ci99_low, figures.ci99_high),
        outside_99=figures.outside_99,
        method=METHOD_WORDS.get(figures.interval_method, figures.interval_method),
    )


def _daily_rtp(run: ReportRun) -> dict:
    rows = list(DailyFigures.objects.filter(run=run))
    rows.sort(key=lambda row: (row.game, row.currency, row.table_code, kind_order(row.kind)))
    summaries = {
        summary.table_id: summary
        for summary in DailyTableSummary.objects.filter(run=run).select_related("table")
    }
    table_ids = {row.table_id for row in rows if row.table_id is not None} | set(summaries)
    sections = {
        table.pk: TableSection(
            code=table.code, name=table.name, game=table.get_game_display(), currency=table.currency
        )
        for table in Table.objects.filter(pk__in=table_ids).order_by("code")
    }
    for table_id, summary in summaries.items():
        section = sections[table_id]
        section.summary = summary
        section.configuration_versions = summary.configuration_versions
        section.findings = [
            (code, FindingCode(code).label if code in FindingCode.values else "", count)
            for code, count in sorted(summary.finding_codes.items(), key=lambda item: (-item[1], item[0]))
        ]
    totals = []
    for row in rows:
        if row.table_id is None:
            game = Game(row.game).label if row.game in Game.values else row.game
            totals.append(
                {"game": game, "currency": row.currency, "row": _figures_row(row, kind_label(row.kind))}
            )
        else:
            sections[row.table_id].figures.append(_figures_row(row, kind_label(row.kind)))
    for chart in ReportChart.objects.filter(run=run, subject=ChartSubject.TREND, window_days=TREND_DAYS):
        sections[chart.table_id].trend_charts.append(chart_image(chart))
    tables = list(sections.values())
    return {
        "tables": tables,
        "totals": totals,
        "trend_days": TREND_DAYS,
        "flag_count": sum(1 for section in tables if section.rtp_flags),
        "beyond_paytable": [summary for section in tables for summary in section.beyond_paytable],
        "outside_99_count": sum(row.outside_99 for section in tables for row in section.figures),
        "methods": [(METHOD_WORDS[method], method.label) for method in IntervalMethod],
    }


# --- the side-option exposure report -------------------------------------------------------------


UNLIKELY = 0.01  # a pattern's hits with a p-value below this are flagged


def p_value_text(value) -> str:
    if value is None:
        return "—"
    value = float(value)
    return "< 0.0001" if value < 0.0001 else f"{value:.4f}"


def expected_text(value) -> str:
    """The expected number of hits: two places below 10 (0.83), one above (16.1); "—" when unknown."""
    if value is None:
        return "—"
    value = float(value)
    return f"{value:,.2f}" if value < 10 else f"{value:,.1f}"


def hit_unit(hit: dict) -> str:
    """What a pattern's hits count: "rounds" where a round's bets share their cards, else "bets"."""
    return "rounds" if hit.get("unit") == "round" else "bets"


def is_unlikely(hit: dict) -> bool:
    return hit.get("p_value") is not None and float(hit["p_value"]) < UNLIKELY


def _exposure_row(exposure: DailyExposure, chart: ReportChart | None) -> dict:
    currency = exposure.currency
    # Expected hits and p-values are unknown (None) where a version's exact odds were not worked out.
    patterns = [
        {
            "pattern": pattern_label(hit["pattern"]),
            "hits": int(hit["hits"]),
            "expected": None if hit.get("expected") is None else float(hit["expected"]),
            "expected_text": expected_text(hit.get("expected")),
            "p_value": p_value_text(hit.get("p_value")),
            "unit": hit_unit(hit),
            "trials": hit.get("trials"),
            "unlikely": is_unlikely(hit),
        }
        for hit in exposure.pattern_hits
    ]
    return {
        "exposure": exposure,
        "code": exposure.table.code,
        "currency": currency,
        "kind": kind_label(exposure.kind),
        "stakes": money_text(exposure.stakes),
        "returned": money_text(exposure.returned),
        "observed": rtp_text(exposure.observed_rtp),
        "theoretical": rtp_text(exposure.theoretical_rtp),
        "liability_total": money_text(exposure.liability_total),
        "peak_liability": money_text(exposure.peak_liability),
        "after_max_round_stakes": money_text(exposure.after_max_round_stakes),
        "top_players": [
            {
                "player": player["player"],
                "bets": player["bets"],
                "stakes": money_text(Decimal(player["stakes"])),
                "liability": money_text(Decimal(player["liability"])),
            }
            for player in exposure.top_players[:10]
        ],
        "patterns": patterns,
        "chart": None if chart is None else chart_image(chart),
    }


def _exposure(run: ReportRun) -> dict:
    rows = list(DailyExposure.objects.filter(run=run).select_related("table"))
    rows.sort(key=lambda row: (kind_order(row.kind), row.table.code))
    charts = {
        (chart.table_id, chart.kind): chart
        for chart in ReportChart.objects.filter(run=run, subject=ChartSubject.HITS)
    }
    options: dict[str, list[dict]] = {}
    for row in rows:
        options.setdefault(kind_label(row.kind), []).append(
            _exposure_row(row, charts.get((row.table_id, row.kind)))
        )
    tables = sorted(
        {(row.table.code, row.table.name, row.table.get_game_display(), row.currency) for row in rows}
    )
    return {
        "options": options,
        "tables": [
            {"code": code, "name": name, "game": game, "currency": currency}
            for code, name, game, currency in tables
        ],
        "after_max_round_count": sum(1 for row in rows if row.after_max_round_bets),
        "unlikely_count": sum(1 for row in rows for hit in row.pattern_hits if is_unlikely(hit)),
    }
