"""A game fault marked reportable from its alert's page (compliance), its page, the list's CSV, its PDF
read back as text, and the faults in the API."""

import io
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from alerts.models import ReportableFault
from core.money import money_text
from rounds.ingest import round_ingest
from rounds.models import Bet
from tests.alerts.pages_support import CS, C, S, csv_rows, html_of, raised, signed_in, tables
from tests.factories import user
from tests.fixtures import round_document
from tests.pdf_text import pdf_pages

pytestmark = pytest.mark.django_db

__all__ = ["tables"]
MOMENT_FORM = "%Y-%m-%dT%H:%M"


def typed(moment: datetime) -> str:
    """A moment as typed in a datetime-local field by a user without a chosen zone (the gaming day's)."""
    return moment.astimezone(ZoneInfo(settings.PITBOSS_GAMING_DAY_TIME_ZONE)).strftime(MOMENT_FORM)


@pytest.fixture
def played(tables):
    """The Deluxe split/double/behind fixture round, played at DLX1."""
    return round_ingest(document=round_document("deluxe-split-double-play-behind")).round


def mark(client, alert, round_, **values):
    data = {
        "what_happened": "A short shoe: four tens missing.",
        "affected_from": typed(round_.opened_at - timedelta(minutes=30)),
        "affected_to": typed(round_.opened_at + timedelta(minutes=30)),
    } | values
    url = reverse("alerts:alert_mark_reportable", args=[alert.pk])
    return client.post(url, {f"reportable-{name}": value for name, value in data.items()})


def test_compliance_marks_a_fault_reportable_with_its_rounds_and_money(client, played):
    alert = raised("DLX1", "rtp_drift", subject="twenty_one_plus_three", summary="21+3 drifting above.")
    client = signed_in(client, C)
    html = html_of(client.get(reverse("alerts:alert_detail", args=[alert.pk])))
    first = typed(alert.first_seen - timedelta(hours=1))
    assert f'name="reportable-affected_from" value="{first}"' in html  # an hour before it was first seen
    assert "Affected from (Europe/Malta)" in html

    response = mark(client, alert, played)
    fault = ReportableFault.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "alerts:fault_detail", args=[fault.pk]
    )
    bets = Bet.objects.filter(round=played)
    assert fault.rounds == 1 and fault.players == bets.values("player").distinct().count()
    assert fault.wagered == played.wagered and fault.returned == played.returned
    assert fault.table.code == "DLX1" and fault.currency == "EUR" and fault.marked_by == user(C)

    html = html_of(client.get(reverse("alerts:fault_detail", args=[fault.pk])))
    assert "A short shoe: four tens missing." in html
    assert money_text(played.wagered - played.returned) in html  # net
    assert f'href="/alerts/faults/{fault.pk}/pdf/"' in html
    html = html_of(client.get(reverse("alerts:alert_detail", args=[alert.pk])))
    assert (
        f'<a href="/alerts/faults/{fault.pk}/">Fault {fault.pk}</a>' in html and 'id="reportable"' not in html
    )
    assert "Marked reportable" in html  # on the timeline


def test_the_services_refusals_show_on_the_form(client, played):
    alert = raised("DLX1", "big_win")
    client = signed_in(client, C)
    response = mark(client, alert, played, what_happened=" ")
    assert response.status_code == 400
    html = html_of(response)
    refusal = "Say what was found and done: the note is the alert&#x27;s record."
    assert html.index(refusal) > html.index('name="reportable-what_happened"')  # beside its field
    start = played.opened_at
    response = mark(
        client, alert, played, affected_from=typed(start), affected_to=typed(start - timedelta(hours=1))
    )
    assert response.status_code == 400 and "The period ends after it starts." in html_of(response)
    response = mark(client, alert, played, affected_from="2026-13-01T10:00")
    assert response.status_code == 400 and "Enter a valid date/time." in html_of(response)
    assert not ReportableFault.objects.exists()
    mark(client, alert, played)
    response = mark(client, alert, played)
    assert response.status_code == 409 and f"Alert {alert.pk} is marked reportable already." in html_of(
        response
    )


def test_the_faults_list_filters_and_exports(client, played):
    mark(signed_in(client, C), raised("DLX1", "big_win"), played)
    fault = ReportableFault.objects.get()
    client = signed_in(client, S)
    html = html_of(client.get(reverse("alerts:fault_list")))
    assert f'href="/alerts/faults/{fault.pk}/"' in html and "A short shoe" in html
    assert (
        "DLX1" not in html_of(client.get(reverse("alerts:fault_list"), {"table": "CLS1"})).split("<tbody")[1]
    )
    header, row = csv_rows(client.get(reverse("alerts:fault_list"), {"game": "deluxe", "_export": "csv"}))
    values = dict(zip(header, row, strict=True))
    assert values["Table"] == "DLX1" and values["Game"] == "Deluxe Blackjack"
    assert values["Rounds"] == "1" and values["Currency"] == "EUR"
    assert values["Wagered"] == str(played.wagered) and values["Returned"] == str(played.returned)
    assert values["Net (wagered − returned)"] == str(played.wagered - played.returned)
    assert values["Affected from"].endswith("+00:00")  # ISO 8601 in UTC
    assert (
        csv_rows(client.get(reverse("alerts:fault_list"), {"marked_to": "2000-01-01", "_export": "csv"}))[1:]
        == []
    )


def test_the_fault_pdf_holds_what_the_regulator_asks_for(client, played):
    alert = raised(
        "DLX1", "rtp_drift", subject="twenty_one_plus_three", summary="21+3 drifting above theory."
    )
    mark(signed_in(client, C), alert, played)
    fault = ReportableFault.objects.get()
    response = signed_in(client, S).get(reverse("alerts:fault_pdf", args=[fault.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f'filename="reportable-fault-{fault.pk}-DLX1.pdf"' in response["Content-Disposition"]
    pages = pdf_pages(io.BytesIO(b"".join(response.streaming_content)))
    assert len(pages) <= 2
    text = " ".join(" ".join(pages).split())
    assert "Reportable game fault" in text and "DLX1" in text and "Deluxe Blackjack" in text
    assert "Rounds 1" in text and f"Players {fault.players}" in text
    assert f"Wagered {money_text(fault.wagered)} EUR" in text
    assert f"Returned {money_text(fault.returned)} EUR" in text
    assert f"{money_text(fault.net)} EUR" in text
    assert "A short shoe: four tens missing." in text and "21+3 drifting above theory." in text
    assert "Marked reportable" in text and "Raised" in text  # the timeline
    assert f"by {user(S).username}" in text  # who made the PDF
    assert "UTC" in text


def test_only_supervisors_and_compliance_read_faults(client, played):
    mark(signed_in(client, C), raised("DLX1", "big_win"), played)
    fault = ReportableFault.objects.get()
    client = signed_in(client, CS)
    for name, args in (
        ("alerts:fault_list", []),
        ("alerts:fault_detail", [fault.pk]),
        ("alerts:fault_pdf", [fault.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 403, name


def test_the_api_lists_faults_with_their_money(client, played):
    mark(signed_in(client, C), raised("DLX1", "big_win"), played)
    fault = ReportableFault.objects.get()
    api = APIClient()
    api.force_authenticate(user(S))
    answer = api.get("/api/alerts/faults/", {"table": "DLX1"}).json()
    assert answer["count"] == 1
    row = answer["results"][0]
    assert row["id"] == fault.pk and row["table"] == "DLX1" and row["rounds"] == 1
    assert row["net"] == str(fault.net) and row["currency"] == "EUR"
    assert api.get(f"/api/alerts/faults/{fault.pk}/").json()["alert"] == fault.alert_id
    api.force_authenticate(user(CS))
    assert api.get("/api/alerts/faults/").status_code == 403
