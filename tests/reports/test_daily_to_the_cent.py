"""To the cent, on PostgreSQL: a played day with every kind of correction (a re-settlement approved, the
game server's cancelled rounds refunded in their incident, a settled round voided with four eyes),
run through the daily job, and every DailyFigures and DailyTableSummary number checked against SQL
written here over the bets, their adjustments, refunds and void lines: none of the report's code.

Which rounds the RTP figures count is worked out here from the money records themselves, not from
the corrections' bookkeeping (RoundCorrection): a completed round counts unless its bets were
refunded or an approved void reversed them.
"""

import json
import math
from collections import defaultdict
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from blackjack.rules import preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day
from reports.models import DailyFigures, DailyTableSummary, ReportRun, RunStatus
from reports.services import report_run_start
from rounds import services
from rounds.ingest import round_ingest
from rounds.models import Round
from tables.models import ConfigurationOdds, Table
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force
from tests.reports.corrections import refund_in_incident, resettle, void

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

DAY = date(2026, 3, 7)
CENT = Decimal("0.01")
PLACES = Decimal("0.0001")
Z = {"95": 1.959964, "99": 2.575829}
SIDE_OPTIONS = {"pair", "bust_bonus", "lucky_trio", "poker_trio", "perfect_pairs", "twenty_one_plus_three"}
# (table, game, players, seed, wrong payouts, cancelled rounds)
SHOES = (
    ("DLX1", "deluxe", 5, 41, 0.08, 0.06),
    ("BND1", "boundless", 25, 42, 0.0, 0.0),
    ("CLS1", "classic", 4, 43, 0.05, 0.08),
)


def query(sql: str, params: list | None = None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params or [])
        return cursor.fetchall()


def cents(value) -> Decimal:
    return Decimal(str(value or 0)).quantize(CENT, ROUND_HALF_UP)


def places(value: Decimal) -> Decimal:
    return value.quantize(PLACES, ROUND_HALF_UP)


@pytest.fixture
def run(settings, tmp_path, django_capture_on_commit_callbacks) -> ReportRun:
    settings.PITBOSS_REPORTS_DIR = tmp_path
    call_command("seed_demo", stdout=StringIO())
    start = gaming_day(DAY).starts_at + timedelta(hours=1)
    for code, game, players, seed, wrong, cancelled in SHOES:
        configuration_odds_compute(configuration=configuration_in_force(Table.objects.get(code=code)))
        for document in simulate(
            preset(game), table=code, shoes=1, players=players, seed=seed, start=start,
            wrong_payout_rate=wrong, cancel_rate=cancelled,
        ):  # fmt: skip
            round_ingest(document=json.loads(json.dumps(document)))
    rounds = Round.objects.filter(gaming_day=DAY).order_by("pk")
    dlx1 = [r for r in rounds.filter(table__code="DLX1", status="completed")]
    resettle(next(r for r in dlx1 if services.bets_to_adjust(r).exists()))
    void(next(r for r in reversed(dlx1) if not services.bets_to_adjust(r).exists() and r.bet_count > 3))
    void(rounds.filter(table__code="BND1", status="completed")[3])
    for code in ("DLX1", "CLS1"):
        refund_in_incident(rounds.filter(table__code=code, status="cancelled").first())
    with django_capture_on_commit_callbacks(execute=True):
        started = report_run_start(day=DAY, trigger="command")
    started.refresh_from_db()
    assert started.status == RunStatus.SUCCEEDED, started.error
    return started


# --- SQL over the money records ----------------------------------------------------------------------

PER_ROUND_AND_KIND = """
WITH played AS (
    SELECT r.id, r.table_id, r.configuration_id
    FROM rounds_round r
    WHERE r.gaming_day = %s AND r.status = 'completed'
      AND NOT EXISTS (
          SELECT 1 FROM rounds_refund refund JOIN rounds_bet rb ON rb.id = refund.bet_id
          WHERE rb.round_id = r.id
      )
      AND NOT EXISTS (
          SELECT 1 FROM rounds_voidline line
          JOIN rounds_void v ON v.id = line.void_id AND v.status = 'approved'
          JOIN rounds_bet vb ON vb.id = line.bet_id
          WHERE vb.round_id = r.id
      )
),
adjusted AS (
    SELECT a.bet_id, sum(a.amount) AS amount
    FROM rounds_adjustment a JOIN rounds_resettlement s ON s.id = a.resettlement_id AND s.status = 'approved'
    GROUP BY a.bet_id
)
SELECT p.table_id, p.configuration_id, b.round_id, b.kind, count(*), array_agg(b.player_id),
    sum(b.wagered), sum(b.returned + coalesce(adjusted.amount, 0))
FROM played p
JOIN rounds_bet b ON b.round_id = p.id
LEFT JOIN adjusted ON adjusted.bet_id = b.id
GROUP BY p.table_id, p.configuration_id, b.round_id, b.kind
"""


def interval(results: list[tuple[Decimal, Decimal]], z: float, kind: str) -> tuple:
    """From each round's (wagered, returned): the ratio q ± z·se for the main game (its lower end at
    least 0), q·exp(±z·se/q) for a side option (none when q = 0), none without spread; in percent."""
    n = len(results)
    if n < 2:
        return None, None
    wagered, returned = [float(w) for w, _ in results], [float(r) for _, r in results]
    q = sum(returned) / sum(wagered)
    se = math.sqrt(sum((r - q * w) ** 2 for w, r in zip(wagered, returned, strict=True)) / (n - 1) / n) / (
        sum(wagered) / n
    )
    if se <= q * 1e-9:  # every round returned the same share: no spread, no interval
        return None, None
    if kind in SIDE_OPTIONS:
        if q == 0:
            return None, None
        low, high = q * math.exp(-z * se / q), q * math.exp(z * se / q)
    else:
        low, high = max(q - z * se, 0.0), q + z * se
    return Decimal(low * 100), Decimal(high * 100)


def expected_figures() -> dict[tuple, dict]:
    """(table code or (game, currency), kind) -> every DailyFigures number, from the rows above."""
    tables = {pk: (code, game, currency) for pk, code, game, currency in query(
        "SELECT id, code, game, currency FROM tables_table"
    )}  # fmt: skip
    rtp = {
        odds.configuration_id: {kind: Decimal(value) for kind, value in odds.figures["rtp"].items()}
        for odds in ConfigurationOdds.objects.all()
    }
    scopes = defaultdict(lambda: {"rounds": [], "bets": 0, "players": set(), "weighted": Decimal(0)})
    for table_id, configuration_id, _, kind, bets, players, wagered, returned in query(
        PER_ROUND_AND_KIND, [DAY]
    ):
        code, game, currency = tables[table_id]
        for scope in (code, (game, currency)):
            entry = scopes[(scope, kind)]
            entry["rounds"].append((Decimal(wagered), Decimal(returned)))
            entry["bets"] += bets
            entry["players"] |= set(players)
            entry["weighted"] += Decimal(wagered) * rtp[configuration_id][kind]
    figures = {}
    for key, entry in scopes.items():
        wagered = sum(w for w, _ in entry["rounds"])
        returned = sum(r for _, r in entry["rounds"])
        theoretical = places(entry["weighted"] / wagered)
        low99, high99 = interval(entry["rounds"], Z["99"], key[1])
        low95, high95 = interval(entry["rounds"], Z["95"], key[1])
        figures[key] = {
            "rounds": len(entry["rounds"]),
            "bets": entry["bets"],
            "players": len(entry["players"]),
            "wagered": cents(wagered),
            "returned": cents(returned),
            "gross_gaming_revenue": cents(wagered - returned),
            "observed_rtp": places(returned / wagered * 100),
            "theoretical_rtp": theoretical,
            "ci95_low": low95,
            "ci95_high": high95,
            "ci99_low": low99,
            "ci99_high": high99,
            "outside_99": low99 is not None and not places(low99) <= theoretical <= places(high99),
            "interval_method": "log" if key[1] in SIDE_OPTIONS else "normal",
        }
    return figures


SUMMARY = """
WITH day_rounds AS (
    SELECT r.*,
        EXISTS (SELECT 1 FROM rounds_refund f JOIN rounds_bet fb ON fb.id = f.bet_id WHERE fb.round_id = r.id)
            AS refunded,
        EXISTS (
            SELECT 1 FROM rounds_voidline l JOIN rounds_void v ON v.id = l.void_id AND v.status = 'approved'
            JOIN rounds_bet lb ON lb.id = l.bet_id WHERE lb.round_id = r.id
        ) AS voided,
        EXISTS (SELECT 1 FROM rounds_resettlement s WHERE s.round_id = r.id AND s.status = 'approved')
            AS resettled
    FROM rounds_round r WHERE r.gaming_day = %s
)
SELECT t.code, count(r.id),
    count(r.id) FILTER (WHERE r.status = 'cancelled' OR r.refunded),
    count(r.id) FILTER (WHERE r.status = 'completed' AND r.voided),
    count(r.id) FILTER (WHERE r.status = 'completed' AND r.resettled),
    (SELECT count(*) FROM rounds_resettlement s JOIN day_rounds x ON x.id = s.round_id
        WHERE x.table_id = t.id),
    (SELECT count(*) FROM rounds_refund f JOIN rounds_bet fb ON fb.id = f.bet_id
        JOIN day_rounds x ON x.id = fb.round_id WHERE x.table_id = t.id),
    (SELECT coalesce(sum(f.amount), 0) FROM rounds_refund f JOIN rounds_bet fb ON fb.id = f.bet_id
        JOIN day_rounds x ON x.id = fb.round_id WHERE x.table_id = t.id),
    (SELECT coalesce(sum(l.reversed_returned), 0) FROM rounds_voidline l
        JOIN rounds_void v ON v.id = l.void_id AND v.status = 'approved'
        JOIN rounds_bet lb ON lb.id = l.bet_id JOIN day_rounds x ON x.id = lb.round_id
        WHERE x.table_id = t.id),
    (SELECT coalesce(sum(l.returned_stake), 0) FROM rounds_voidline l
        JOIN rounds_void v ON v.id = l.void_id AND v.status = 'approved'
        JOIN rounds_bet lb ON lb.id = l.bet_id JOIN day_rounds x ON x.id = lb.round_id
        WHERE x.table_id = t.id)
FROM tables_table t
LEFT JOIN day_rounds r ON r.table_id = t.id
GROUP BY t.id, t.code
"""
FINDINGS = """
SELECT t.code, f.code, count(*)
FROM rounds_finding f JOIN rounds_round r ON r.id = f.round_id JOIN tables_table t ON t.id = r.table_id
WHERE r.gaming_day = %s
GROUP BY t.code, f.code
"""
SUMMARY_FIELDS = (
    *("rounds", "cancelled_rounds", "voided_rounds", "resettled_rounds", "resettlements", "refunds"),
    *("refunded", "voided_reversed", "voided_stakes_returned"),
)


# --- the test -------------------------------------------------------------------------------------------


def test_every_figure_and_summary_number_agrees_with_sql_over_the_money_records(run):
    corrected, summaries = agrees_with_sql(run)
    # The day holds every kind of correction: the figures above left two voids and the refunds out.
    assert corrected == {
        "cancelled_rounds": corrected["cancelled_rounds"],
        "voided_rounds": 2,
        "resettled_rounds": 1,
    }
    assert corrected["cancelled_rounds"] >= 2
    assert summaries["DLX1"].refunds > 0 and summaries["BND1"].voided_reversed > 0


def test_make_demos_day_agrees_with_sql_to_the_cent(settings, tmp_path, django_capture_on_commit_callbacks):
    """The day `make demo` plays (smaller): its void, refunds and re-settlement, and the figures of
    the daily job it runs, checked against the same SQL."""
    settings.PITBOSS_REPORTS_DIR = tmp_path
    with django_capture_on_commit_callbacks(execute=True):  # the tables' odds, as make demo has them
        call_command("seed_demo", stdout=StringIO())
    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "demo_day",
            "--shoes",
            "1",
            "--boundless-players",
            "30",
            "--day",
            DAY.isoformat(),
            stdout=StringIO(),
        )
    run = ReportRun.objects.get(day=DAY)
    assert run.status == RunStatus.SUCCEEDED, run.error
    corrected, _ = agrees_with_sql(run)
    assert corrected["voided_rounds"] == 1 and corrected["resettled_rounds"] == 1


def agrees_with_sql(run: ReportRun) -> tuple[dict, dict]:
    """Check every figure and summary number of `run` (a run for DAY) against the SQL above; the
    corrections counted and the summaries by table code."""
    expected = expected_figures()
    stored = {
        (row.table_code or (row.game, row.currency), row.kind): row
        for row in DailyFigures.objects.filter(run=run)
    }
    assert set(stored) == set(expected)
    assert {scope for scope, _ in stored} >= {"DLX1", "BND1", "CLS1", ("deluxe", "EUR"), ("classic", "EUR")}
    for key, wanted in expected.items():
        row = stored[key]
        for name, value in wanted.items():
            if name.startswith("ci") and value is not None:
                # Floats summed round by round here, exact moments there: the last place may differ.
                assert abs(getattr(row, name) - value) <= PLACES, (key, name, getattr(row, name), value)
            else:
                assert getattr(row, name) == value, (key, name, getattr(row, name), value)

    findings = defaultdict(dict)
    for table, code, count in query(FINDINGS, [DAY]):
        findings[table][code] = count
    summaries = {summary.table.code: summary for summary in DailyTableSummary.objects.filter(run=run)}
    corrected = defaultdict(int)
    for code, *numbers in query(SUMMARY, [DAY]):
        summary = summaries[code]
        wanted = dict(zip(SUMMARY_FIELDS, numbers, strict=True))
        for name, value in wanted.items():
            money = name in ("refunded", "voided_reversed", "voided_stakes_returned")
            assert getattr(summary, name) == (cents(value) if money else value), (code, name)
        for name in ("cancelled_rounds", "voided_rounds", "resettled_rounds"):
            corrected[name] += wanted[name]
        codes = findings.get(code, {})
        assert summary.finding_codes == codes and summary.findings == sum(codes.values())
        assert summary.limit_findings == sum(codes.get(c, 0) for c in ("limit_breached", "seat_not_allowed"))
        assert summary.money_findings == sum(
            codes.get(c, 0) for c in ("wrong_wagered", "wrong_returned", "cancelled_not_refunded")
        )
        outside = [key for key, values in expected.items() if key[0] == code and values["outside_99"]]
        assert (summary.kinds_outside_99, summary.flagged) == (len(outside), bool(outside))
    return corrected, summaries
