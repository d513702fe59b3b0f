"""Compliance exports the filtered round list from a real browser, as CSV and as XLSX, and reads both
files back: the same rows, plain data, the XLSX's amounts as numbers. Customer service exports a
player's play record, filtered, as CSV."""

import csv
from decimal import Decimal

import pytest
from django.core.management import call_command
from openpyxl import load_workbook

from rounds.models import Bet, Round
from tests.browser.conftest import log_in, screenshot
from tests.rounds.corrections_support import wrongly_paid

pytestmark = pytest.mark.browser


@pytest.fixture
def rounds(transactional_db):
    call_command("seed_demo", verbosity=0)
    return [wrongly_paid(suffix) for suffix in ("-E1", "-E2", "-E3")]


def download(page, label: str):
    with page.expect_download() as info:
        page.get_by_role("link", name=label).click()
    return info.value


def test_compliance_exports_the_round_list_as_csv_and_xlsx_and_reads_them_back(page, rounds):
    log_in(page, "compliance", "compliance-demo")
    page.click("nav >> text=Rounds")
    page.get_by_label("Has findings").select_option("true")
    page.click("form.filters button[type=submit]")
    page.wait_for_url(lambda url: "has_findings=true" in url)

    exported = download(page, "Export CSV")
    assert exported.suggested_filename == "rounds.csv"
    with open(exported.path(), encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    expected = Round.objects.filter(finding_count__gt=0)
    assert {row["Round"] for row in rows} == set(expected.values_list("round_id", flat=True))
    assert not [value for row in rows for value in row.values() if "<" in value]

    workbook = download(page, "Export XLSX")
    assert workbook.suggested_filename == "rounds.xlsx"
    with open(workbook.path(), "rb") as file:  # the download's path has no .xlsx
        sheet = load_workbook(file).active
    header, *values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert header == list(rows[0].keys())
    by_round = {row[0]: dict(zip(header, row, strict=True)) for row in values}
    assert set(by_round) == {row["Round"] for row in rows}
    for row in rows:
        cell = by_round[row["Round"]]
        assert Decimal(str(cell["Wagered"])) == Decimal(row["Wagered"])  # a number, not text
        assert isinstance(cell["Findings"], int) and str(cell["Findings"]) == row["Findings"]
        assert cell["Opened (UTC)"] == row["Opened (UTC)"]  # ISO 8601 with its offset
        assert cell["Currency"] == row["Currency"] == "EUR"


def test_customer_service_exports_a_play_record_filtered_by_kind(page, rounds):
    player = "P7101"  # a bet in each of the rounds, main and side options
    log_in(page, "customer-service", "customer-service-demo")
    page.goto(f"/rounds/players/{player}/")
    page.get_by_label("Kind").select_option("main")
    page.click("form.filters button[type=submit]")
    page.wait_for_url(lambda url: "kind=main" in url)
    screenshot(page, "play-record")

    exported = download(page, "Export CSV")
    assert exported.suggested_filename == f"play-record-{player}.csv"
    with open(exported.path(), encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    mains = Bet.objects.filter(player__external_id=player, kind="main").order_by("-round__opened_at", "-id")
    assert [row["Bet"] for row in rows] == list(mains.values_list("bet_id", flat=True)) != []
    assert {row["Kind"] for row in rows} == {"main"}
    assert not [value for row in rows for value in row.values() if "<" in value]


def test_a_day_that_is_no_date_shows_its_error_and_offers_no_export(page, rounds):
    log_in(page, "compliance", "compliance-demo")
    page.click("nav >> text=Rounds")
    page.get_by_label("Gaming day").fill("2026-13-01")
    with page.expect_response(lambda response: "day=2026-13-01" in response.url) as answer:
        page.click("form.filters button[type=submit]")
    assert answer.value.status == 400
    assert "Enter a valid date." in page.locator("form.filters").inner_text()
    assert page.get_by_role("link", name="Export CSV").count() == 0
    screenshot(page, "round-list-refused-filter")
