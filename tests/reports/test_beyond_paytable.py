"""A day with an absurd bet still reports (issue 44): a Pair bet of 0.01 that the game server says
returned 10,000.00, the only Pair bet of the day at DLX1 (an observed RTP of 100,000,000 %), once failed
the daily job on every run. Now the
run succeeds, its figures are the day's to the cent, and the bet is flagged, on the report page and
in the PDF, as a payout no outcome of its bet kind can make."""

import html
import json
from datetime import timedelta
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from blackjack.rules import preset
from blackjack.simulate import simulate
from core.gaming_day import gaming_day
from reports.models import DailyFigures, DailyTableSummary, ReportDocument, ReportRun, RunStatus
from reports.pdf import document_file
from reports.services import report_run_start
from rounds.ingest import round_ingest
from tables.models import Table
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force
from tests import factories
from tests.pdf_text import pdf_text
from tests.reports.test_jobs import DAY

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def reports_dir(settings, tmp_path) -> Path:
    settings.PITBOSS_REPORTS_DIR = tmp_path / "reports"
    return settings.PITBOSS_REPORTS_DIR


def absurd_pair_round() -> dict:
    """A DLX1 round of the day with one Pair bet, which staked 0.01 and is reported to return 10,000.00."""
    start = gaming_day(DAY).starts_at + timedelta(hours=20)
    for document in simulate(preset("deluxe"), table="DLX1", shoes=1, players=5, seed=7, start=start):
        pairs = [bet for bet in document["bets"] if bet["kind"] == "pair"]
        if document["status"] == "completed" and len(pairs) == 1:
            pair = pairs[0]
            document = json.loads(json.dumps(document))
            for bet in document["bets"]:
                if bet["bet_id"] == pair["bet_id"]:
                    bet.update(stake="0.01", wagered="0.01", returned="10000.00")
            document["round_id"] += "-X"
            document["shoe"] += "-X"
            for bet in document["bets"]:
                bet["bet_id"] += "-X"
            return document
    raise AssertionError("no Pair bet in the shoe")


@pytest.fixture
def run(db, django_capture_on_commit_callbacks) -> ReportRun:
    call_command("seed_demo", stdout=StringIO())
    configuration_odds_compute(configuration=configuration_in_force(Table.objects.get(code="DLX1")))
    document = absurd_pair_round()
    round_ingest(document=document)
    with django_capture_on_commit_callbacks(execute=True):
        started = report_run_start(day=DAY, trigger="portal")
    started.refresh_from_db()
    started.absurd_bet_id = next(bet["bet_id"] for bet in document["bets"] if bet["returned"] == "10000.00")
    started.absurd_round_id = document["round_id"]
    return started


def test_the_day_reports_and_flags_the_payout_beyond_the_paytable(run, client):
    assert run.status == RunStatus.SUCCEEDED, run.error
    pair = DailyFigures.objects.get(run=run, table_code="DLX1", kind="pair")
    assert (pair.wagered, pair.returned, pair.rounds, pair.bets) == (
        Decimal("0.01"),
        Decimal("10000.00"),
        1,
        1,
    )
    assert pair.observed_rtp == Decimal("100000000.0000")
    # Read back at their 4 places, on SQLite too (which keeps a float: 99.5169000000000 once).
    rtps = DailyFigures.objects.filter(run=run).values_list("observed_rtp", "theoretical_rtp")
    assert {value.as_tuple().exponent for row in rtps for value in row if value is not None} == {-4}
    summary = DailyTableSummary.objects.get(run=run, table__code="DLX1")
    assert summary.beyond_paytable == 1
    assert summary.beyond_paytable_bets == [
        {
            "bet": run.absurd_bet_id,
            "round": run.absurd_round_id,
            "kind": "pair",
            "wagered": "0.01",
            "returned": "10000.00",
            "most": "0.51",  # the stake and its winnings at Deluxe Pair's top odds, 50:1 (suited trips)
        }
    ]
    assert (
        not DailyTableSummary.objects.filter(run=run)
        .exclude(table__code="DLX1")
        .filter(beyond_paytable__gt=0)
    )

    client.force_login(factories.user("compliance"))
    page = html.unescape(client.get(reverse("reports:daily_report"), {"run": run.pk}).content.decode())
    assert "1 payout beyond the paytable at DLX1" in page
    assert f"bet {run.absurd_bet_id} of round {run.absurd_round_id}" in page
    assert "Pair wagered 0.01 and returned 10,000.00, more than the 0.51 its best outcome pays (EUR)" in page

    document = ReportDocument.objects.get(run=run, kind="daily_rtp")
    text = " ".join(pdf_text(document_file(document)).split())
    assert "Payouts beyond the paytable" in text
    assert f"bet {run.absurd_bet_id} of round {run.absurd_round_id}" in text
    assert "Pair wagered 0.01 and returned 10,000.00, more than the 0.51 its best outcome pays (EUR)" in text
