"""Every list's exports are data: no cell of the CSV or the XLSX carries the markup its page draws
(links, badges, times, amounts with their currency); the CSV streams, the XLSX holds numbers as
numbers and up to a limit of rows."""

import csv
import io
from datetime import UTC, date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from limits.models import Player
from limits.services import personal_limit_set
from reports.models import DailyExposure, DailyFigures
from rounds.models import Round
from rounds.review import round_review
from rounds.services import incident_open, resettlement_propose
from rounds.views import RoundListView
from tables.models import Table
from tests import factories
from tests.rounds.corrections_support import wrongly_paid

pytestmark = pytest.mark.django_db

LISTS = [
    "tables:table_list",
    "tables:published_rtp_list",
    "limits:player_list",
    "limits:table_limit_list",
    "limits:personal_limit_list",
    "rounds:round_list",
    "rounds:incident_list",
    "rounds:resettlement_list",
    "reports:archive",
    "reports:run_list",
    "reports:daily_report",
    "reports:exposure_report",
]


@pytest.fixture
def history():
    """A reviewed round with findings and a proposed re-settlement, an incident, a personal limit."""
    call_command("seed_demo", verbosity=0)
    users = get_user_model().objects
    wrong = wrongly_paid()
    resettlement_propose(round_=wrong, proposed_by=users.get(username="compliance"), reason="Short paid.")
    round_review(round_=wrong, reviewed_by=users.get(username="compliance"), comment="Seen.")
    incident_open(
        table=Table.objects.get(code="DLX1"),
        kind="other",
        opened_by=users.get(username="supervisor"),
        note="x",
    )
    personal_limit_set(
        player=Player.objects.get(external_id="P1001"),
        changed_by=users.get(username="customer-service"),
        reason="Asked for it.",
        max_stake=Decimal("50.00"),
    )
    return wrong


@pytest.mark.parametrize("name", LISTS)
def test_each_lists_export_is_plain_data(client, history, name):
    client.force_login(get_user_model().objects.get(username="supervisor"))
    page = client.get(reverse(name))
    assert page.status_code == 200 and "<a " in page.content.decode()  # the page links its rows
    response = client.get(reverse(name), {"_export": "csv"})
    assert response["Content-Type"].startswith("text/csv") and response.streaming
    rows = csv_rows(response)
    assert len(rows) > 1 or name.startswith("reports:")
    assert not [cell for row in rows for cell in row if "<" in cell or "&lt;" in cell or "&amp;" in cell]


SAME_VALUES_LISTS = [
    *LISTS,
    "rounds:void_list",
    ("rounds:round_list", None, {"has_findings": "true", "sort": "-wagered"}),
]


@pytest.mark.parametrize("name", SAME_VALUES_LISTS, ids=str)
def test_each_lists_csv_holds_what_django_tables2s_as_values_gives(client, history, name, monkeypatch):
    """core.export_values works each column's value function out once a table: the values are
    django-tables2's own, cell for cell."""
    name, argument, query = (*name, None, {})[:3] if isinstance(name, tuple) else (name, None, {})
    query = query or {}
    url = reverse(name, args=[argument] if argument else [])
    client.force_login(get_user_model().objects.get(username="supervisor"))
    fast = csv_rows(client.get(url, {**query, "_export": "csv"}))
    monkeypatch.setattr(
        "core.exports.table_values", lambda table, exclude=(): table.as_values(exclude_columns=exclude)
    )
    monkeypatch.setattr(
        "core.listing.table_values", lambda table, exclude=(): table.as_values(exclude_columns=exclude)
    )
    slow = csv_rows(client.get(url, {**query, "_export": "csv"}))
    assert fast == slow
    assert len(fast) > 1 or name.startswith("reports:") or name == "rounds:void_list"


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.getvalue().decode())))


def xlsx_rows(response) -> list[tuple]:
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    return list(sheet.iter_rows(values_only=True))


def as_text(value) -> str:
    """An XLSX cell as the CSV writes it: a number with its places, an empty cell as ""."""
    return "" if value is None else str(value)


@pytest.mark.parametrize("name", LISTS)
def test_each_list_exports_the_same_rows_as_xlsx_with_numbers_as_numbers(client, history, name):
    client.force_login(get_user_model().objects.get(username="supervisor"))
    page = client.get(reverse(name))
    assert "Export CSV" in page.content.decode() and "_export=xlsx" in page.content.decode()
    expected = csv_rows(client.get(reverse(name), {"_export": "csv"}))
    response = client.get(reverse(name), {"_export": "xlsx"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"].endswith('.xlsx"')
    rows = xlsx_rows(response)
    assert rows[0] == tuple(expected[0])  # the same header
    assert len(rows) == len(expected)
    for row, csv_row in zip(rows[1:], expected[1:], strict=True):
        assert len(row) == len(csv_row)
        for value, text in zip(row, csv_row, strict=True):
            if isinstance(value, (int, float)):
                assert Decimal(text) == Decimal(str(value)), (value, text)
            else:
                assert as_text(value) == text


def test_the_round_lists_export_gives_counts_and_moments_for_badges_and_times(client, history):
    client.force_login(get_user_model().objects.get(username="compliance"))
    response = client.get(reverse("rounds:round_list"), {"_export": "csv", "has_findings": "true"})
    row = next(
        row
        for row in csv.DictReader(io.StringIO(response.getvalue().decode()))
        if row["Round"] == history.round_id
    )
    history.refresh_from_db()
    assert row["Findings"] == str(history.finding_count) and history.finding_count > 0
    # The review as the page's badge says it; when, in UTC like every moment exported (not the
    # exporting user's zone: the same CSV whoever exports it).
    assert row["Review"] == "reviewed"
    assert row["Reviewed at (UTC)"] == history.reviewed_at.astimezone(UTC).isoformat()
    assert row["Outcome"] == "Completed"
    assert row["Opened (UTC)"] == history.opened_at.isoformat()


def test_the_round_lists_xlsx_holds_amounts_as_numbers_with_their_places_and_moments_in_iso(client, history):
    client.force_login(get_user_model().objects.get(username="compliance"))
    response = client.get(reverse("rounds:round_list"), {"_export": "xlsx", "has_findings": "true"})
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    header = [cell.value for cell in sheet[1]]
    assert sheet.freeze_panes == "A2" and sheet["A1"].font.b
    history.refresh_from_db()
    (row,) = [row for row in sheet.iter_rows(min_row=2) if row[0].value == history.round_id]
    cell = dict(zip(header, row, strict=True))
    assert cell["Wagered"].value == history.wagered and cell["Wagered"].number_format == "0.00"
    assert cell["Currency"].value == history.table.currency
    assert cell["Findings"].value == history.finding_count
    assert cell["Opened (UTC)"].value == history.opened_at.isoformat()
    assert cell["Review"].value == "reviewed"
    assert cell["Reviewed at (UTC)"].value == history.reviewed_at.astimezone(UTC).isoformat()


def test_text_beginning_with_an_equals_sign_stays_text_in_the_xlsx(client, history):
    """A reason someone typed is never a formula in the workbook."""
    formula = '=HYPERLINK("http://example.com","x")'
    personal_limit_set(
        player=Player.objects.exclude(external_id="P1001").order_by("external_id").first(),
        changed_by=get_user_model().objects.get(username="customer-service"),
        reason=formula,
        max_stake=Decimal("20.00"),
    )
    client.force_login(get_user_model().objects.get(username="supervisor"))
    response = client.get(reverse("limits:personal_limit_list"), {"_export": "xlsx"})
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    (cell,) = [cell for row in sheet.iter_rows(min_row=2) for cell in row if cell.value == formula]
    assert cell.data_type == "s"


def test_an_xlsx_of_more_rows_than_the_limit_is_refused_and_the_csv_offered(client, history, monkeypatch):
    for suffix in ("-X1", "-X2"):
        wrongly_paid(suffix)
    monkeypatch.setattr(RoundListView, "xlsx_max_rows", 2)
    client.force_login(get_user_model().objects.get(username="compliance"))
    query = {"_export": "xlsx", "table": "DLX1", "sort": "-wagered"}
    response = client.get(reverse("rounds:round_list"), query)
    assert response.status_code == 422 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    rounds = Round.objects.filter(table__code="DLX1").count()
    assert rounds > 2 and f"This list has {rounds:,} rows: an XLSX export holds at most 2." in page
    assert "?_export=csv&amp;table=DLX1&amp;sort=-wagered" in page and "Export CSV" in page
    assert "?table=DLX1&amp;sort=-wagered" in page  # back to the list
    csv_export = client.get(reverse("rounds:round_list"), {**query, "_export": "csv"})
    assert len(csv_rows(csv_export)) == rounds + 1
    monkeypatch.setattr(RoundListView, "xlsx_max_rows", rounds)
    assert len(xlsx_rows(client.get(reverse("rounds:round_list"), query))) == rounds + 1


def test_the_csv_streams_its_rows_after_the_view_has_returned(client, history):
    """The rows are read from the database as the CSV is sent, not before: never all in memory."""
    client.force_login(get_user_model().objects.get(username="compliance"))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("rounds:round_list"), {"_export": "csv"})
    assert response.streaming
    assert not [q for q in queries if 'FROM "rounds_round"' in q["sql"]]  # no round read yet
    with CaptureQueriesContext(connection) as queries:
        body = b"".join(response.streaming_content).decode()
    assert body.startswith("Round,Table,")
    assert len([q for q in queries if 'FROM "rounds_round"' in q["sql"]]) == 1
    assert body.count("\r\n") == Round.objects.count() + 1  # and the header


@pytest.fixture
def two_games_in_one_day(settings, tmp_path):
    """A day's figures: a table of each of two games, and each game's total."""
    settings.PITBOSS_REPORTS_DIR = tmp_path
    day = date(2026, 11, 28)
    stored = factories.report_rows(factories.table("DLX1"), tmp_path, day=day)
    figures = DailyFigures.objects.get(pk=stored["dailyfigures"])
    bnd = factories.table("BND1", currency="GBP")
    for table, game, code in ((bnd, "boundless", "BND1"), (None, "deluxe", ""), (None, "boundless", "")):
        figures.pk, figures.table, figures.table_code, figures.game = None, table, code, game
        figures.currency = "EUR" if game == "deluxe" else "GBP"
        figures.save()
    return day


def test_the_daily_reports_total_rows_name_their_game_and_currency(client, two_games_in_one_day):
    client.force_login(factories.user("compliance"))
    response = client.get(reverse("reports:daily_report"), {"_export": "csv"})
    rows = list(csv.DictReader(io.StringIO(response.getvalue().decode())))
    assert {(row["Table"], row["Currency"], row["Bet kind"]) for row in rows} == {
        ("DLX1", "EUR", "main"),
        ("BND1", "GBP", "main"),
        ("total Deluxe Blackjack", "EUR", "main"),
        ("total Boundless Blackjack", "GBP", "main"),
    }
    xlsx = xlsx_rows(client.get(reverse("reports:daily_report"), {"_export": "xlsx"}))
    assert xlsx[0][:4] == ("Day", "Table", "Currency", "Bet kind")
    assert {row[1:3] for row in xlsx[1:]} == {(row["Table"], row["Currency"]) for row in rows}


def test_the_exposure_reports_amounts_have_their_currency(client, two_games_in_one_day):
    DailyExposure.objects.update(currency="GBP")
    client.force_login(factories.user("compliance"))
    response = client.get(reverse("reports:exposure_report"), {"_export": "csv"})
    (row,) = csv.DictReader(io.StringIO(response.getvalue().decode()))
    assert (row["Table"], row["Currency"], row["Stakes"]) == ("DLX1", "GBP", "1.00")
