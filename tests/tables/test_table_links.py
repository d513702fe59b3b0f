"""The table page links what concerns the table: its rounds today (and those with findings), its open
incidents, its last daily report and its configuration proposal; a link the role may not follow is
not shown."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from core.gaming_day import gaming_day_of
from reports.daily import table_day_compute
from reports.models import ReportRun, RunStatus, RunTrigger
from rounds.services import incident_open
from tables.models import Table
from tables.services import configuration_propose
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo, ingest, wrongly_paid  # noqa: F401

pytestmark = pytest.mark.usefixtures("demo")


def page_of(code: str, username: str) -> str:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client.get(f"/tables/{code}/").content.decode()


def links(page: str) -> dict[str, str]:
    section = page.split('id="at-this-table"', 1)[1].split("</section>", 1)[0]
    return {
        " ".join(text.split()): href.replace("&amp;", "&")
        for href, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', section)
    }


def test_the_table_page_links_its_rounds_today_and_open_incidents():
    supervisor = get_user_model().objects.get(username="supervisor")
    table = Table.objects.get(code="DLX1")
    incident_open(table=table, kind="other", opened_by=supervisor, note="Camera 2 is dark")
    today = gaming_day_of(timezone.now()).isoformat()
    found = links(page_of("DLX1", "supervisor"))
    assert found["0 rounds today"] == f"/rounds/?table=DLX1&day={today}"
    assert found["1 open incident"] == "/rounds/incidents/?table=DLX1&status=open"
    assert found["every incident"] == "/rounds/incidents/?table=DLX1"
    assert "No daily report yet" in page_of("DLX1", "supervisor")


def test_the_counts_follow_the_rounds_of_the_tables_gaming_day():
    document = round_document("deluxe-split-double-play-behind")
    opened = timezone.now() - timedelta(minutes=5)
    document["round_id"] += "-now"
    document["shoe"] += "-now"
    for bet in document["bets"]:
        bet["bet_id"] += "-now"
    document["opened_at"] = opened.isoformat()
    document["closed_at"] = (opened + timedelta(seconds=40)).isoformat()
    round_ = ingest(document)
    if round_.gaming_day != gaming_day_of(timezone.now()):
        pytest.skip("the gaming day turned over within the last five minutes")
    found = links(page_of("DLX1", "compliance"))
    assert "1 round today" in found


def test_a_proposal_awaiting_a_decision_is_linked():
    table = Table.objects.get(code="DLX1")
    configuration_propose(
        table=table,
        changes={"seats": 5},
        proposed_by=get_user_model().objects.get(username="supervisor"),
        reason="Five seats from Monday",
    )
    found = links(page_of("DLX1", "compliance"))
    (proposal,) = [text for text in found if text.startswith("Configuration proposal v")]
    assert found[proposal] == "/tables/DLX1/proposal/"


def test_the_last_daily_report_is_linked_for_those_who_read_reports():
    played = wrongly_paid().gaming_day
    run = ReportRun.objects.create(
        day=played, trigger=RunTrigger.COMMAND, time_zone="Europe/Malta", cutoff="06:00"
    )
    table_day_compute(table=Table.objects.get(code="DLX1"), day=played, run=run)
    ReportRun.objects.filter(pk=run.pk).update(status=RunStatus.SUCCEEDED)
    found = links(page_of("DLX1", "compliance"))
    day = played.isoformat()
    assert found[f"daily RTP, {day}"] == f"/reports/daily/?day={day}&table=DLX1"
    assert found["side-option exposure"] == f"/reports/exposure/?day={day}&table=DLX1"
