"""The cells of the report pages' tables (daily figures, table summaries, exposure, archive, runs)
are drawn by templates/cells/: each branch is the markup it was when Python wrote it, and the
same rows export plain data, never markup."""

import re
from datetime import UTC, date, datetime
from decimal import Decimal

from core.money import money
from reports.models import DailyExposure, DailyFigures, DailyTableSummary, ReportDocument, ReportRun
from reports.tables import (
    DailyExposureTable,
    DailyFiguresTable,
    DailyTableSummaryTable,
    ReportDocumentTable,
    ReportRunTable,
)
from tables.models import Table

DAY = date(2026, 11, 30)
AT = datetime(2026, 12, 1, 6, 30, tzinfo=UTC)
SHA = "8c4bb76de8cf3a02a4128b6b78717d31e6719f1a1b64ba5690eaae93f6c01b29"


def cells(table, name: str) -> list[str]:
    return [str(row.get_cell(name)) for row in table.rows]


def exported(table, name: str) -> list:
    header, *rows = table.as_values()
    return [row[header.index(table.columns[name].header)] for row in rows]


def no_markup_exported(table) -> bool:
    """No tag in any exported value (a game named "<new>" is data, exported as it is)."""
    tag = re.compile(r"</?(a|span|strong|em|time|abbr)\b")
    return not any(tag.search(str(value)) for row in table.as_values() for value in row)


def bnd1() -> Table:
    return Table(code="BND1", game="boundless", currency="EUR")


def test_daily_figures_link_a_table_name_a_total_and_explain_the_interval():
    common = {"day": DAY, "kind": "main", "rounds": 1, "bets": 1, "players": 1, "currency": "EUR"}
    rows = [
        DailyFigures(table_code="", game="boundless", interval_method="normal", **common),
        DailyFigures(table=bnd1(), table_code="BND1", game="boundless", interval_method="log", **common),
        DailyFigures(table_code="", game="<new>", interval_method="log", **common),
    ]
    table = DailyFiguresTable(rows)
    assert cells(table, "table_code") == [
        '<strong>Total</strong> <span class="subtle">Boundless Blackjack</span>',
        '<a href="/tables/BND1/">BND1</a>',
        '<strong>Total</strong> <span class="subtle">&lt;new&gt;</span>',
    ]
    normal, log = rows[0].get_interval_method_display(), rows[1].get_interval_method_display()
    assert cells(table, "interval_method") == [
        f'<span title="{normal}">normal</span>',
        f'<span title="{log}">log</span>',
        f'<span title="{log}">log</span>',
    ]
    assert exported(table, "table_code") == ["total Boundless Blackjack", "BND1", "total <new>"]
    assert exported(table, "interval_method") == [normal, log, log]
    assert no_markup_exported(table)


def summary(**fields) -> DailyTableSummary:
    values = {
        "day": DAY,
        "table": bnd1(),
        "game": "boundless",
        "currency": "EUR",
        "rounds": 10,
        "resettlements": 0,
        "findings": 0,
        "refunded": Decimal("0.00"),
        "voided_reversed": Decimal("0.00"),
        "voided_stakes_returned": Decimal("0.00"),
    }
    return DailyTableSummary(**(values | fields))


def test_table_summaries_show_refunds_voids_and_re_settlements_as_before():
    rows = [
        summary(),
        summary(
            resettled_rounds=1,
            resettlements=3,
            refunds=1,
            refunded=Decimal("5.00"),
            voided_rounds=2,
            voided_reversed=Decimal("25.00"),
            voided_stakes_returned=Decimal("55.00"),
        ),
        summary(resettled_rounds=2, resettlements=2, refunds=591, refunded=Decimal("6681.84")),
    ]
    table = DailyTableSummaryTable(rows)
    assert cells(table, "table") == ['<a href="/tables/BND1/">BND1</a>'] * 3
    assert cells(table, "resettled_rounds") == ["0", '1 <span class="subtle">of 3 proposed</span>', "2"]
    assert cells(table, "refunded") == [
        "—",
        f'{money(Decimal("5.00"), "EUR")} <span class="subtle">(1 bet)</span>',
        f'{money(Decimal("6681.84"), "EUR")} <span class="subtle">(591 bets)</span>',
    ]
    assert cells(table, "voided_reversed") == [
        "—",
        f"{money(Decimal('25.00'), 'EUR')} / {money(Decimal('55.00'), 'EUR')}",
        "—",
    ]
    assert exported(table, "table") == ["BND1"] * 3
    assert exported(table, "resettled_rounds") == [0, 1, 2]
    assert exported(table, "refunded") == ["0.00", "5.00", "6681.84"]
    assert exported(table, "voided_reversed") == ["0.00", "25.00", "0.00"]
    assert no_markup_exported(table)


def test_exposure_links_the_table_and_the_peak_round():
    common = {"day": DAY, "game": "boundless", "currency": "EUR", "kind": "pair", "bets": 1}
    rows = [DailyExposure(table=bnd1(), peak_round_id="20261130-BND1-S0002-037", **common)]
    rows.append(DailyExposure(table=bnd1(), peak_round_id="", **common))
    table = DailyExposureTable(rows)
    assert cells(table, "table") == ['<a href="/tables/BND1/">BND1</a>'] * 2
    assert cells(table, "peak_round_id") == [
        '<a href="/rounds/20261130-BND1-S0002-037/">20261130-BND1-S0002-037</a>',
        "—",
    ]
    assert exported(table, "peak_round_id") == ["20261130-BND1-S0002-037", None]
    assert no_markup_exported(table)


def run(pk: int, **fields) -> ReportRun:
    values = {"pk": pk, "day": DAY, "number": 1, "trigger": "manual", "status": "succeeded", "started_at": AT}
    return ReportRun(**(values | fields))


def test_the_archive_names_each_documents_run_and_links_its_pdf():
    current, older = run(2), run(1, superseded_by_id=2, superseded_at=AT)
    rows = [
        ReportDocument(pk=7, run=current, day=DAY, kind="daily_rtp", size=2048, sha256=SHA, generated_at=AT),
        ReportDocument(pk=5, run=older, day=DAY, kind="daily_rtp", size=2048, sha256=SHA, generated_at=AT),
    ]
    table = ReportDocumentTable(rows)
    trigger = current.get_trigger_display()
    assert cells(table, "run") == [
        f'2 <span class="subtle">({trigger})</span>',
        f'1 <span class="subtle">({trigger})</span> '
        '<span class="badge badge-superseded">superseded by run 2</span>',
    ]
    assert cells(table, "download") == [
        '<a href="/reports/documents/7/pdf/">Download PDF</a>',
        '<a href="/reports/documents/5/pdf/">Download PDF</a>',
    ]
    assert exported(table, "run") == [2, 1]
    assert "download" not in [
        column.name for column in table.columns if not column.column.exclude_from_export
    ]
    assert no_markup_exported(table)


def test_the_run_list_links_each_runs_page_and_shortens_the_checksum():
    rows = [
        run(3, figures_sha256=SHA, finished_at=AT),
        run(2, status="failed", started_at=datetime(2026, 12, 1, 6, 0, tzinfo=UTC)),
        run(1, superseded_by_id=3, superseded_at=AT, started_at=datetime(2026, 12, 1, 5, 0, tzinfo=UTC)),
    ]
    table = ReportRunTable(rows)
    assert cells(table, "id") == [
        '<a href="/reports/runs/3/">3</a>',
        '<a href="/reports/runs/2/">2</a>',
        '<a href="/reports/runs/1/">1</a>',
    ]
    assert cells(table, "figures_sha256") == [f'<span title="{SHA}">8c4bb76de8cf…</span>', "—", "—"]
    assert cells(table, "superseded_by") == [
        "—",
        "—",
        'run 3 <span class="subtle"><time datetime="2026-12-01T06:30:00+00:00" title="2026-12-01 06:30 UTC">'
        "2026-12-01 06:30 UTC</time></span>",
    ]
    assert exported(table, "id") == [3, 2, 1]
    assert exported(table, "figures_sha256") == [SHA, None, None]
    assert exported(table, "superseded_by") == [None, None, 3]
    assert no_markup_exported(table)
