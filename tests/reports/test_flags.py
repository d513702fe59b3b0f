"""An RTP flag is about RTP. A player betting above a personal limit, or a wrong payout, is counted in its
own column (limit findings, money findings); the table's flag means a bet kind's theoretical RTP lies
outside its 99% interval, and nothing else."""

import html
import json
from datetime import date, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from freezegun import freeze_time

from blackjack.rules import preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day
from limits.models import Player
from limits.services import personal_limit_set
from reports.daily import table_day_compute
from reports.models import DailyFigures, DailyTableSummary, ReportRun, RunStatus
from reports.pdf import report_html
from rounds.ingest import round_ingest
from rounds.models import Finding
from tables.models import ConfigurationOdds, Table
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force
from tests import factories

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 4)
SELF_LIMITED = "PDLX10001"  # the simulator's first player at DLX1


def succeeded_run() -> ReportRun:
    bounds = gaming_day(DAY)
    return ReportRun.objects.create(
        day=DAY,
        trigger="command",
        time_zone=bounds.time_zone,
        cutoff=bounds.cutoff,
        status=RunStatus.SUCCEEDED,
    )


@pytest.fixture
def table(db) -> Table:
    """DLX1's day: a player who limited their own stakes to 5.00 bets above it all day; a few wrong
    payouts; the RTP of every bet kind well inside its interval."""
    call_command("seed_demo", stdout=StringIO())
    table = Table.objects.get(code="DLX1")
    configuration_odds_compute(configuration=configuration_in_force(table))
    with freeze_time(DAY - timedelta(days=30)):
        player = Player.objects.filter(external_id=SELF_LIMITED).first() or factories.player(SELF_LIMITED)
        personal_limit_set(
            player=player,
            changed_by=factories.user("customer_service"),
            reason="Asked for a limit of 5.00",
            max_stake=Decimal("5.00"),
        )
    start = gaming_day(DAY).starts_at + timedelta(hours=2)
    for document in simulate(
        preset("deluxe"), table="DLX1", shoes=1, players=5, seed=21, start=start, wrong_payout_rate=0.05
    ):
        round_ingest(document=json.loads(json.dumps(document)))
    return table


def findings(*codes: str) -> int:
    return Finding.objects.filter(round__gaming_day=DAY, code__in=codes).count()


def test_limit_and_money_findings_have_their_own_columns_and_do_not_flag_rtp(table, client):
    run = succeeded_run()
    table_day_compute(table=table, day=DAY, run=run)
    summary = DailyTableSummary.objects.get(run=run, table=table)
    assert not DailyFigures.objects.filter(run=run, outside_99=True).exists()
    assert summary.flagged is False and summary.kinds_outside_99 == 0
    assert summary.limit_findings == findings("limit_breached", "seat_not_allowed") > 10
    assert summary.money_findings == findings("wrong_wagered", "wrong_returned", "cancelled_not_refunded") > 0
    assert summary.findings == Finding.objects.filter(round__gaming_day=DAY).count()

    client.force_login(factories.user("compliance"))
    page = html.unescape(client.get(reverse("reports:daily_report"), {"run": run.pk}).content.decode())
    assert "outside 99%" not in page.split("Tables that day")[1]
    cover = report_html(run, "daily_rtp").split("Totals per game and currency")[0]
    assert "inside 99%" in cover and "outside 99%" not in cover


def test_the_flag_is_raised_by_rtp_outside_its_interval_alone(table, client):
    odds = ConfigurationOdds.objects.get(configuration=configuration_in_force(table))
    odds.figures["rtp"]["main"] = "20.0000"  # far below anything the day's main bets returned
    odds.save()
    run = succeeded_run()
    table_day_compute(table=table, day=DAY, run=run)
    summary = DailyTableSummary.objects.get(run=run, table=table)
    outside = list(DailyFigures.objects.filter(run=run, outside_99=True).values_list("kind", flat=True))
    assert outside == ["main"]
    assert summary.flagged is True and summary.kinds_outside_99 == 1
    assert summary.limit_findings == findings("limit_breached", "seat_not_allowed")

    client.force_login(factories.user("compliance"))
    page = html.unescape(client.get(reverse("reports:daily_report"), {"run": run.pk}).content.decode())
    assert "outside 99%" in page.split("Tables that day")[1]
    assert "outside 99%: Main" in report_html(run, "daily_rtp")
