"""Money has one display (core/money.py): "1,234.50 EUR", a negative with the minus sign U+2212, never
a plus sign, and on a page one piece of markup. Every page and PDF shows amounts so; exports (CSV)
keep the plain amount ("-1000.00")."""

import csv
import io
import re
from datetime import date, time
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from limits.models import Player
from limits.services import personal_limit_set, table_limit_set
from reports.models import DailyFigures, ReportRun
from reports.pdf import document_file, document_render, report_html
from rounds.models import Bet
from tables.models import Table
from tests.display_support import demo_user, resettled, seed_demo, shown_text, wrongly_paid_round
from tests.pdf_text import pdf_text

pytestmark = pytest.mark.django_db

MINUS = "\u2212"
AMOUNT = re.compile(r'<span class="money">([^<]*) <span class="currency">([^<]*)</span></span>')


@pytest.fixture(autouse=True)
def demo():
    seed_demo()


def client_of(role: str) -> Client:
    client = Client()
    client.force_login(demo_user(role))
    return client


def page(role: str, url: str, **query) -> str:
    response = client_of(role).get(url, query)
    assert response.status_code == 200, url
    return response.content.decode()


def amounts(html: str) -> list[str]:
    """Every amount of the page's money markup, as shown: ["1,234.50", "−5.00", ...]."""
    return [amount for amount, _ in AMOUNT.findall(html)]


def money(amount, currency: str = "EUR") -> str:
    return Template("{% load pitboss %}{{ amount|money:currency }}").render(
        Context({"amount": amount, "currency": currency})
    )


# --- the one display -----------------------------------------------------------------------------


def test_an_amount_has_a_thousands_separator_two_decimals_and_its_currency():
    assert money(Decimal("1234.5")) == '<span class="money">1,234.50 <span class="currency">EUR</span></span>'
    assert money(Decimal("1234567")) == (
        '<span class="money">1,234,567.00 <span class="currency">EUR</span></span>'
    )
    assert money(3, "GBP") == '<span class="money">3.00 <span class="currency">GBP</span></span>'


def test_a_negative_amount_has_the_minus_sign_and_a_positive_one_no_plus():
    assert (
        money(Decimal("-1.00")) == f'<span class="money">{MINUS}1.00 <span class="currency">EUR</span></span>'
    )
    assert money(Decimal("-1234.50")).startswith(f'<span class="money">{MINUS}1,234.50 ')
    assert money(Decimal("1.00")).startswith('<span class="money">1.00 ')
    assert money(Decimal("-0.00")).startswith('<span class="money">0.00 ')


def test_no_amount_is_a_dash_and_a_currency_is_escaped():
    assert money(None) == '<span class="money">—</span>'
    assert "&lt;b&gt;" in money(1, "<b>")


# --- limits --------------------------------------------------------------------------------------


def test_the_limit_history_shows_stakes_as_money():
    table = Table.objects.get(code="CLS1")  # main: 2.50 to 2,500.00 EUR from the demo
    table_limit_set(
        table=table,
        kind="main",
        min_stake=Decimal("2.50"),
        max_stake=Decimal("3000.00"),
        changed_by=demo_user("supervisor"),
        reason="High rollers",
    )
    html = page("supervisor", reverse("tables:table_detail", args=["CLS1"]))
    history = html.split("<h2>Limit changes</h2>", 1)[1]
    text = shown_text(history)
    assert "created: 2.50 EUR – 2,500.00 EUR" in text
    assert "max stake: 2,500.00 EUR → 3,000.00 EUR" in text
    assert {"2,500.00", "3,000.00"} <= set(amounts(history))
    assert "2500.00" not in shown_text(html)


def test_setting_a_table_limit_says_the_range_as_money():
    response = client_of("supervisor").post(
        reverse("limits:table_limit_set", args=["CLS1"]),
        {"kind": "main", "min_stake": "2.50", "max_stake": "3000.00", "reason": "High rollers"},
        follow=True,
    )
    assert "CLS1 Main: 2.50 to 3,000.00 EUR." in shown_text(response.content.decode())


def test_the_player_page_shows_limits_and_their_sources_as_money():
    personal_limit_set(
        player=Player.objects.get(external_id="P1001"),
        changed_by=demo_user("customer_service"),
        reason="asked",
        max_stake=Decimal("1500.00"),
    )
    html = page("customer_service", reverse("limits:player_detail", args=["P1001"]))
    text = shown_text(html)
    assert "— to 1,500.00 EUR" in text  # the change's "after"
    assert "table DLX1: 2.50–2,500.00" in text  # where the effective range comes from
    assert "2500.00" not in text and "1500.00" not in text
    form = page("customer_service", reverse("limits:personal_limit_set", args=["P1001"]))
    assert "— to 1,500.00 EUR" in shown_text(form)


# --- rounds --------------------------------------------------------------------------------------


def bet_row_amounts(html: str, bet_id: str) -> list[str]:
    """The amounts of a bet's row on the round page: stake, wagered and computed, returned and
    computed, and the difference last."""
    pk = Bet.objects.get(bet_id=bet_id).pk
    return amounts(html.split(f'<tr id="bet-{pk}"', 1)[1].split("</tr>", 1)[0])


def test_the_round_page_shows_differences_with_a_minus_sign_and_no_plus():
    paid = wrongly_paid_round()
    html = page("compliance", paid.round.get_absolute_url())
    assert bet_row_amounts(html, paid.overpaid_main)[-1] == f"{MINUS}1,000.00"
    assert bet_row_amounts(html, paid.overpaid_side)[-1] == f"{MINUS}3.00"
    assert bet_row_amounts(html, paid.underpaid)[-1] == "5.00"
    # Returned, reported against computed: 5.00 short, 1,003.00 over.
    assert '<span class="money">' + MINUS + '998.00 <span class="currency">EUR</span></span>' in html
    assert not re.search(r'class="money[^"]*">[+-]', html)


def test_adjustments_show_their_sign_as_every_amount_does():
    paid = wrongly_paid_round()
    proposing = page("compliance", reverse("rounds:resettlement_propose"), round=paid.round.round_id)
    assert {f"{MINUS}1,000.00", f"{MINUS}3.00", "5.00"} <= set(amounts(proposing))
    resettlement = resettled(paid)
    detail = page("compliance", reverse("rounds:resettlement_detail", args=[resettlement.pk]))
    corrections = page("compliance", paid.round.get_absolute_url()).split('id="corrections"', 1)[1]
    for html in (detail, corrections):
        assert {f"{MINUS}1,000.00", f"{MINUS}3.00", "5.00"} <= set(amounts(html))
        assert "+5.00" not in shown_text(html) and "-1,000.00" not in shown_text(html)


def test_the_play_record_shows_adjustments_as_money():
    paid = wrongly_paid_round()
    resettled(paid)
    html = page("customer_service", reverse("rounds:play_record", args=[paid.player]))
    assert f"{MINUS}3.00" in amounts(html)
    assert not re.search(r"[+-][\d,]+\.\d\d", shown_text(html.split("<h2>Bets", 1)[1]))


def test_the_play_record_exports_sums_plain_with_their_two_decimals():
    """An adjustment is a sum (SQLite gives back "-3" for it, PostgreSQL "-3.00"): the CSV says -3.00."""
    paid = wrongly_paid_round()
    resettled(paid)
    url = reverse("rounds:play_record", args=[paid.player])
    response = client_of("customer_service").get(url, {"_export": "csv"})
    rows = list(csv.DictReader(io.StringIO(response.getvalue().decode())))
    assert "-3.00" in [row["Adjustment"] for row in rows]
    assert all(re.fullmatch(r"-?\d+\.\d\d", row["Wagered"]) for row in rows)


def test_the_round_list_shows_money_and_exports_it_plain():
    paid = wrongly_paid_round()
    returned = paid.round.returned
    assert returned >= 1000
    html = page("compliance", reverse("rounds:round_list"))
    assert f"{returned:,.2f}" in amounts(html)
    response = client_of("compliance").get(reverse("rounds:round_list"), {"_export": "csv"})
    (row,) = csv.DictReader(io.StringIO(response.getvalue().decode()))
    assert row["Returned"] == str(returned) and "," not in row["Returned"]


# --- reports -------------------------------------------------------------------------------------


@pytest.fixture
def losing_day():
    """A day at CLS1 on which the house lost 1,234.50 on the main bet."""
    table = Table.objects.get(code="CLS1")
    day = date(2026, 11, 28)
    run = ReportRun.objects.create(
        day=day, trigger="command", time_zone="Europe/Malta", cutoff=time(6), status="succeeded"
    )
    DailyFigures.objects.create(
        day=day,
        table=table,
        table_code="CLS1",
        game="classic",
        currency="EUR",
        kind="main",
        run=run,
        rounds=40,
        bets=60,
        players=7,
        wagered=Decimal("2000.00"),
        returned=Decimal("3234.50"),
        gross_gaming_revenue=Decimal("-1234.50"),
    )
    return run


def test_the_daily_report_shows_a_loss_with_the_minus_sign_and_exports_it_plain(losing_day):
    html = page("compliance", reverse("reports:daily_report"))
    assert {"2,000.00", "3,234.50", f"{MINUS}1,234.50"} <= set(amounts(html))
    response = client_of("compliance").get(reverse("reports:daily_report"), {"_export": "csv"})
    (row,) = csv.DictReader(io.StringIO(response.getvalue().decode()))
    assert (row["Handle"], row["GGR"]) == ("2000.00", "-1234.50")


def test_the_pdf_shows_a_loss_with_the_minus_sign(losing_day, settings, tmp_path):
    assert f"{MINUS}1,234.50" in shown_text(report_html(losing_day, "daily_rtp"))
    settings.PITBOSS_REPORTS_DIR = tmp_path
    text = pdf_text(document_file(document_render(losing_day, "daily_rtp")))
    assert f"{MINUS}1,234.50" in text and "3,234.50" in text
    assert "-1,234.50" not in text
