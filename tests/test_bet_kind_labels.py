"""Bet kinds have one list of labels (blackjack.rules.BET_KIND_LABELS), and every page, PDF and API
label shows a kind by it: "21+3", never "twenty_one_plus_three"; "Main" the same on every page."""

from datetime import date, time
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from blackjack.rules import BET_KIND_LABELS, BET_KINDS, MAIN_KINDS, SIDE_OPTION_KINDS, preset
from limits.choices import TABLE_LIMIT_KINDS, BetKind
from limits.models import Player
from limits.services import personal_limit_set
from reports.models import DailyExposure, DailyFigures, ReportRun
from reports.pdf import report_html
from rounds.models import Bet, Finding
from tables.forms import ConfigurationForm
from tables.models import Table
from tests.display_support import (
    cancelled_round,
    demo_user,
    raw_kinds,
    resettled,
    seed_demo,
    shown_text,
    shown_texts,
    wrongly_paid_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def demo():
    seed_demo()


def page(role: str, url: str, **query) -> str:
    client = Client()
    client.force_login(demo_user(role))
    response = client.get(url, query)
    assert response.status_code == 200, url
    return response.content.decode()


# --- one list ------------------------------------------------------------------------------------


def test_the_engine_lists_every_kind_once_with_its_label():
    assert tuple(BET_KIND_LABELS) == BET_KINDS == MAIN_KINDS + SIDE_OPTION_KINDS
    assert BET_KIND_LABELS["twenty_one_plus_three"] == "21+3"


def test_the_choices_of_every_form_filter_and_model_are_the_engines_labels():
    assert dict(BetKind.choices) == BET_KIND_LABELS
    assert BetKind.TWENTY_ONE_PLUS_THREE == "twenty_one_plus_three"
    assert dict(TABLE_LIMIT_KINDS) == {k: v for k, v in BET_KIND_LABELS.items() if k != "insurance"}
    form = ConfigurationForm(table=Table.objects.get(code="CLS1"), rule_set=preset("classic"))
    assert form.fields["twenty_one_plus_three__offered"].label == "Offer 21+3"


# --- the limits and table pages ------------------------------------------------------------------


def test_limit_pages_and_the_table_page_name_the_main_bet_as_every_other_page_does():
    main = BET_KIND_LABELS["main"]
    for url in (reverse("limits:table_limit_list"), reverse("tables:table_detail", args=["CLS1"])):
        html = page("supervisor", url)
        texts = shown_texts(html)
        assert main in texts and "21+3" in texts, url
        assert not any("seat play" in text for text in texts), url
        assert raw_kinds(html) == [], url


def test_the_player_page_names_kinds_by_their_labels_even_in_the_why_column():
    personal_limit_set(
        player=Player.objects.get(external_id="P1001"),
        changed_by=demo_user("customer_service"),
        reason="asked",
        kind="twenty_one_plus_three",
        max_stake=Decimal("5.00"),
    )
    html = page("customer_service", reverse("limits:player_detail", args=["P1001"]))
    text = shown_text(html)
    assert "21+3 at every table" in text
    assert "half the Main range" in text  # insurance follows the main bet
    assert "half the main range" not in text
    assert raw_kinds(html) == []


# --- the round pages -----------------------------------------------------------------------------


def test_the_round_page_names_each_bet_and_finding_by_its_label():
    paid = wrongly_paid_round()
    html = page("compliance", paid.round.get_absolute_url())
    side = Bet.objects.get(bet_id=paid.overpaid_side)
    row = html.split(f'<tr id="bet-{side.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "<td>21+3</td>" in row
    message = Finding.objects.get(round=paid.round, bet=side.pk, code="wrong_returned").message
    assert f"({BET_KIND_LABELS['twenty_one_plus_three']})" in message
    assert raw_kinds(html) == []


def test_re_settlement_pages_and_the_rounds_corrections_name_kinds_by_their_labels():
    paid = wrongly_paid_round()
    proposing = page("compliance", reverse("rounds:resettlement_propose"), round=paid.round.round_id)
    assert "21+3" in shown_texts(proposing) and raw_kinds(proposing) == []
    resettlement = resettled(paid)
    detail = page("compliance", reverse("rounds:resettlement_detail", args=[resettlement.pk]))
    assert "21+3" in shown_texts(detail) and raw_kinds(detail) == []
    corrections = page("compliance", paid.round.get_absolute_url()).split('id="corrections"', 1)[1]
    assert "21+3" in shown_texts(corrections) and raw_kinds(corrections) == []


def test_the_incident_page_and_the_cancelled_round_name_refunded_kinds_by_their_labels():
    incident, round_ = cancelled_round()
    for url in (reverse("rounds:incident_detail", args=[incident.pk]), round_.get_absolute_url()):
        html = page("supervisor", url)
        assert "21+3" in shown_texts(html), url
        assert raw_kinds(html) == [], url


def test_the_play_record_names_kinds_by_their_labels_in_its_totals_and_bets():
    paid = wrongly_paid_round()
    resettled(paid)
    html = page("customer_service", reverse("rounds:play_record", args=[paid.player]))
    totals = html.split('id="totals"', 1)[1].split("</section>", 1)[0]
    assert "21+3" in shown_texts(totals)
    bets = html.split("</section>", 1)[1]
    assert "21+3" in shown_texts(bets)
    assert raw_kinds(html) == []


# --- reports -------------------------------------------------------------------------------------


@pytest.fixture
def report_day():
    table = Table.objects.get(code="CLS1")
    day = date(2026, 11, 28)
    run = ReportRun.objects.create(
        day=day, trigger="command", time_zone="Europe/Malta", cutoff=time(6), status="succeeded"
    )
    for kind in ("main", "twenty_one_plus_three"):
        DailyFigures.objects.create(
            day=day,
            table=table,
            table_code="CLS1",
            game="classic",
            currency="EUR",
            kind=kind,
            run=run,
            rounds=1,
            bets=1,
            players=1,
            wagered=10,
            returned=9,
            gross_gaming_revenue=1,
        )
    DailyExposure.objects.create(
        day=day,
        table=table,
        game="classic",
        currency="EUR",
        kind="twenty_one_plus_three",
        bets=1,
        stakes=1,
        returned=0,
        liability_total=100,
        peak_round_id="R1",
        run=run,
    )
    return run


def test_the_report_pages_name_kinds_by_their_labels(report_day):
    daily = page("compliance", reverse("reports:daily_report"))
    assert {"Main", "21+3"} <= set(shown_texts(daily))
    assert "seat play" not in shown_text(daily) and raw_kinds(daily) == []
    exposure = page("compliance", reverse("reports:exposure_report"))
    assert "CLS1 · 21+3" in shown_text(exposure) and raw_kinds(exposure) == []


def test_the_pdfs_name_kinds_by_their_labels(report_day):
    daily = report_html(report_day, "daily_rtp")
    assert {"Main", "21+3"} <= set(shown_texts(daily))
    assert "seat play" not in shown_text(daily) and raw_kinds(daily) == []
    exposure = report_html(report_day, "exposure")
    assert "21+3" in shown_text(exposure) and raw_kinds(exposure) == []


# --- the API -------------------------------------------------------------------------------------


def test_the_api_labels_kinds_as_the_pages_do():
    client = Client()
    client.force_login(demo_user("customer_service"))
    url = "/api/players/P1001/personal-limits/"
    created = client.post(url, {"kind": "main", "max_stake": "50.00", "reason": "asked", "seen_setting": 0})
    assert created.status_code == 201, created.json()
    assert created.json()["scope"] == "Main at every table"
    check = {"player": "P1001", "table": "DLX1", "kind": "twenty_one_plus_three", "amount": "1.00"}
    refused = client.post("/api/limits/check", check).json()
    assert refused["reason"] == "DLX1 does not offer 21+3."
