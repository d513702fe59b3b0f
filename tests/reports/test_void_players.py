"""The day's players (reports/players.py) leave out the bets of a voided round, as they leave out
those of a round refunded in an incident: `rounds.outcome.NOT_PLAYED`, read from the round's one
correction. A player whose only bets were voided does not count."""

import io
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from reports.daily import table_day_compute
from reports.models import DailyFigures, ReportRun
from rounds import services
from tables.models import Table
from tests.rounds.corrections_support import classic_completed_blackjack, ingest

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 28)  # the fixture rounds' day


def main_players(table) -> int:
    run = ReportRun.objects.create(day=DAY, trigger="command", time_zone="Europe/Malta", cutoff="06:00")
    table_day_compute(table=table, day=DAY, run=run)
    return DailyFigures.objects.get(run=run, table=table, kind="main").players


def test_a_voided_rounds_players_leave_the_days_players():
    call_command("seed_demo", stdout=io.StringIO())
    users = get_user_model().objects
    table = Table.objects.get(code="CLS1")
    voided = ingest(classic_completed_blackjack("-V"))  # players P7601, P7602
    other = classic_completed_blackjack("-O")
    for spot in other["spots"]:
        spot["player"] = spot["player"].replace("P76", "P86")
    for bet in other["bets"]:
        bet["player"] = bet["player"].replace("P76", "P86")
    ingest(other)
    assert main_players(table) == 4
    void = services.void_propose(
        round_=voided, proposed_by=users.get(username="supervisor"), reason="Shuffler malfunction"
    )
    services.void_approve(void=void, decided_by=users.get(username="supervisor-2"), comment="Seen")
    assert main_players(table) == 2
