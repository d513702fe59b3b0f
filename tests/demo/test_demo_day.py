"""`manage.py demo_day` (what `make demo` plays): earlier days of lighter play with their figures,
then a day through ingest, its incidents and corrections, then the daily job with its charts and both
PDFs; a second run stores nothing twice."""

import io
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command

from core.gaming_day import gaming_day
from demo.management.commands.demo_day import DEALERS, SHIFT, dealer_shifts
from reports.models import DailyFigures, ReportChart, ReportDocument, ReportRun
from rounds.models import Adjustment, Finding, Incident, Refund, Round, RoundCorrection, Void
from tables.guardrail import approvals_of
from tables.models import Table, TableConfiguration
from tables.selectors import dealer_on_duty

pytestmark = pytest.mark.django_db(transaction=True)
# One shoe a table, 30 Boundless players, and two earlier days (`make demo` plays 29).
SMALL_DAY = ("--shoes", "1", "--boundless-players", "30", "--day", "2026-11-27", "--history-days", "2")


def test_a_small_demo_day_has_everything_the_demo_shows(settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    call_command("seed_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo_day", *SMALL_DAY, stdout=out)
    text = out.getvalue()
    rounds = Round.objects.filter(round_id__startswith="20261127-")
    assert set(rounds.values_list("table__code", flat=True)) == {"DLX1", "BND1", "CLS1", "MPB1"}
    assert rounds.filter(table__code="BND1").first().players == 30
    # A malfunction voids a settled round: proposed by one supervisor, approved by another; its
    # incident ends resumed. Nothing of it is refunded on top of its payouts.
    malfunction = Incident.objects.get(kind="malfunction")
    void = Void.objects.get()
    assert (void.status, void.incident, void.round) == ("approved", malfunction, malfunction.round)
    assert (void.proposed_by.username, void.decided_by.username) == ("supervisor", "supervisor-2")
    assert void.lines.count() == void.round.bet_count and malfunction.status == "resumed"
    assert RoundCorrection.objects.get(round=void.round).kind == "voided"
    assert not Refund.objects.filter(bet__round__status="completed").exists()
    # The rounds the game server cancelled (if this short day has any) are cancelled in their
    # incidents, every bet refunded; no incident stays open, so every table is open again.
    cancelled = rounds.filter(status="cancelled", bet_count__gt=0)
    assert Refund.objects.filter(bet__round__in=cancelled).count() == sum(r.bet_count for r in cancelled)
    assert not Incident.objects.filter(status="open").exists()
    assert set(Table.objects.values_list("status", flat=True)) == {"open"}
    assert Adjustment.objects.exists()
    # A configuration change, proposed by one supervisor and approved by another once its odds
    # existed, in force from its approval (after the simulated day, never in the past).
    change = TableConfiguration.objects.get(table__code="BND1", version=2)
    assert (change.status, change.created_by.username, change.decided_by.username) == (
        "approved",
        "supervisor",
        "supervisor-2",
    )
    assert change.valid_from >= change.decided_at and change.odds.current
    assert change.rule_set.side_option("pair").max_round == 45
    # The Pair's RTP did not change: the operator's published figure of the main game is carried to it.
    carried = change.published_rtps.get()
    assert (carried.kind, carried.rtp, carried.carried_from.configuration.version) == (
        "main",
        Decimal("99.46"),
        1,
    )
    # At DLX1 a cheaper Pair, below the floor: explained by its proposer, it awaits compliance.
    guarded = TableConfiguration.objects.get(table__code="DLX1", version=2)
    assert guarded.status == "proposed" and guarded.rtp_fall_reason
    assert approvals_of(guarded).still_needed == ("compliance", "supervisor")
    assert Finding.objects.filter(code="limit_breached").exists()  # the self-limited players
    # Every round says who dealt it: one of its table's dealers, the one whose shift it opened in; the
    # table page's dealer on duty is its latest round's.
    for code, opened_at, dealt_by in rounds.values_list("table__code", "opened_at", "dealt_by"):
        assert dealt_by == dealer_shifts(code, date(2026, 11, 27))(opened_at) and dealt_by in DEALERS[code]
    latest = rounds.filter(table__code="DLX1").order_by("-opened_at", "-id").first()
    assert dealer_on_duty(Table.objects.get(code="DLX1")).dealer == latest.dealt_by
    run = ReportRun.objects.get(day="2026-11-27")
    assert (run.status, run.trigger, run.figures_only) == ("succeeded", "demo", False)
    assert DailyFigures.objects.filter(day="2026-11-27", table=None).exists()
    documents = ReportDocument.objects.filter(day="2026-11-27")
    assert {d.kind for d in documents} == {"daily_rtp", "exposure"}
    assert all((tmp_path / d.path).stat().st_size == d.size for d in documents)
    assert "succeeded" in text and f"{tmp_path / '2026-11-27'}/" in text  # where the PDFs are
    # The earlier days: lighter (one shoe of BND1 with the same 30 players here), no planted errors,
    # each day's figures stored by a current run of figures only: no charts, no PDFs.
    earlier = ReportRun.objects.filter(day__in=["2026-11-25", "2026-11-26"])
    assert [(r.status, r.trigger, r.figures_only) for r in earlier] == [("succeeded", "demo", True)] * 2
    assert not ReportDocument.objects.filter(run__in=earlier) and not ReportChart.objects.filter(
        run__in=earlier
    )
    for day in ("20261125-", "20261126-"):
        played = Round.objects.filter(round_id__startswith=day)
        assert set(played.values_list("table__code", flat=True)) == {"DLX1", "BND1", "CLS1", "MPB1"}
        assert not played.filter(status="cancelled").exists()
    assert DailyFigures.objects.filter(run__in=earlier, table_code="DLX1", kind="main").count() == 2
    # So the day's trends have three days of figures; its side options their hits against expected.
    trend = ReportChart.objects.get(run=run, subject="trend", table__code="DLX1", kind="main", window_days=30)
    assert trend.days == 3 and trend.drawn and trend.svg.startswith("<?xml")
    assert ReportChart.objects.filter(run=run, subject="hits").count() > 0
    assert "2 earlier days of lighter play" in text and "2026-11-25: " in text
    stored, runs = rounds.count(), ReportRun.objects.count()
    call_command("demo_day", *SMALL_DAY, stdout=io.StringIO())
    assert Round.objects.filter(round_id__startswith="20261127-").count() == stored
    assert ReportRun.objects.count() == runs + 1  # the day run again; its earlier days left as they were
    assert Incident.objects.filter(kind="malfunction").count() == 1 and Void.objects.count() == 1
    assert TableConfiguration.objects.filter(table__code="BND1").count() == 2
    assert TableConfiguration.objects.filter(table__code="DLX1").count() == 2


def test_the_demos_dealers_take_turns_in_shifts_of_two_hours():
    starts = gaming_day(date(2026, 11, 27)).starts_at
    shifts = dealer_shifts("DLX1", date(2026, 11, 27))
    dealt = [
        shifts(starts + SHIFT * n + timedelta(minutes=minutes)) for n in range(4) for minutes in (0, 119)
    ]
    assert dealt == ["D-ANA", "D-ANA", "D-BEN", "D-BEN", "D-CARA", "D-CARA", "D-ANA", "D-ANA"]
    assert shifts(datetime(2026, 11, 27, 12, tzinfo=UTC)) in DEALERS["DLX1"]
