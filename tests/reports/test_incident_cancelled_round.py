"""A round the game server reported completed but a supervisor cancelled in an incident counts as
cancelled in the daily figures: its bets were refunded, so its settlement is not the day's money."""

import io
from datetime import date

import pytest
from django.core.management import call_command

from reports.daily import table_day_compute
from reports.models import DailyFigures, DailyTableSummary, ReportRun
from rounds.services import incident_cancel_round, incident_open
from tables.models import Table
from tests import factories
from tests.rounds.corrections_support import classic_completed_blackjack, ingest

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 28)  # the day the shared examples were played


def test_a_round_cancelled_in_an_incident_leaves_the_rtp_figures():
    call_command("seed_demo", stdout=io.StringIO())
    table = Table.objects.get(code="CLS1")
    played = ingest(classic_completed_blackjack())
    run = ReportRun.objects.create(day=DAY, trigger="command", time_zone="Europe/Malta", cutoff="06:00")
    table_day_compute(table=table, day=DAY, run=run)
    assert DailyFigures.objects.filter(day=DAY, table=table).exists()
    assert DailyTableSummary.objects.get(day=DAY, table=table).cancelled_rounds == 0

    supervisor = factories.user("supervisor")
    incident = incident_open(table=table, kind="card_unreadable", opened_by=supervisor, note="unreadable")
    incident_cancel_round(incident=incident, round_=played, cancelled_by=supervisor, reason="card unreadable")
    table_day_compute(table=table, day=DAY, run=run)
    assert not DailyFigures.objects.filter(day=DAY, table=table).exists()
    summary = DailyTableSummary.objects.get(day=DAY, table=table)
    assert (summary.rounds, summary.cancelled_rounds, summary.flagged) == (1, 1, True)
