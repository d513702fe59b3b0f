"""The report pages and endpoints show the stored rows of a day, and a PDF is handed out only when
its file still matches its checksum."""

from datetime import date

import pytest
from django.urls import reverse

from reports.models import DailyFigures, ReportDocument
from tests import factories
from tests.api_support import client_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    table = factories.table("DLX1")
    earlier = factories.report_rows(table, tmp_path, day=date(2026, 11, 27))
    latest = factories.report_rows(table, tmp_path, day=date(2026, 11, 28))
    DailyFigures.objects.filter(pk=latest["dailyfigures"]).update(
        observed_rtp="90.0000",
        theoretical_rtp="99.5150",
        ci99_low="91.0000",
        ci99_high="99.0000",
        outside_99=True,
    )
    return {"earlier": earlier, "latest": latest}


@pytest.fixture
def compliance(client):
    client.force_login(factories.user("compliance"))
    return client


def test_the_daily_report_shows_the_latest_day_and_flags_a_kind_outside_99(stored, compliance):
    page = compliance.get(reverse("reports:daily_report")).content.decode()
    assert "Daily RTP report" in page and "2026-11-28" in page
    assert "Europe/Malta" in page and "06:00" in page
    assert "90.0000 %" in page and "99.5150 %" in page and "-9.52 pp" in page
    assert "outside 99%" in page and "has-finding" in page
    assert "Tables that day" in page
    assert reverse("reports:document_download", args=[stored["latest"]["reportdocument"]]) in page


def test_a_past_day_is_chosen_with_the_filter_and_exported_as_csv(stored, compliance):
    url = reverse("reports:daily_report")
    response = compliance.get(url, {"day": "2026-11-27", "_export": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = response.getvalue().decode().strip().splitlines()
    assert len(lines) == 2 and "2026-11-27" in lines[1] and "DLX1" in lines[1]


def test_the_exposure_report_shows_liability_and_its_peak_round(stored, compliance):
    page = compliance.get(reverse("reports:exposure_report")).content.decode()
    assert "Side-option exposure report" in page
    assert "30.00" in page and "R1" in page
    assert "Hits per pattern against the exact odds" in page


def test_the_archive_lists_each_pdf_with_its_checksum(stored, compliance):
    page = compliance.get(reverse("reports:archive")).content.decode()
    document = ReportDocument.objects.get(pk=stored["latest"]["reportdocument"])
    assert document.sha256 in page and "Download PDF" in page


def test_a_pdf_is_handed_out_only_while_it_matches_its_checksum(stored, compliance, settings):
    document = ReportDocument.objects.get(pk=stored["latest"]["reportdocument"])
    url = reverse("reports:document_download", args=[document.pk])
    response = compliance.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"%PDF-1.7 matrix"
    assert response["X-Checksum-SHA256"] == document.sha256
    assert "attachment" in response["Content-Disposition"]
    (settings.PITBOSS_REPORTS_DIR / document.path).write_bytes(b"%PDF-1.7 changed")
    assert compliance.get(url).status_code == 409
    (settings.PITBOSS_REPORTS_DIR / document.path).unlink()
    assert compliance.get(url).status_code == 410


def test_customer_service_sees_no_report(stored, client):
    client.force_login(factories.user("customer_service"))
    assert client.get(reverse("reports:archive")).status_code == 403
    assert "Reports" not in client.get(reverse("home")).content.decode()


def test_the_api_filters_the_days_figures(stored):
    api = client_as("compliance")
    rows = api.get("/api/reports/daily-figures/", {"day": "2026-11-28", "outside_99": "true"}).json()[
        "results"
    ]
    assert [(row["table"], row["kind"], row["observed_rtp"], row["difference"]) for row in rows] == [
        ("DLX1", "main", "90.0000", "-9.5150")
    ]
    document = api.get("/api/reports/documents/", {"day_from": "2026-11-28"}).json()["results"]
    assert [d["id"] for d in document] == [stored["latest"]["reportdocument"]]
    assert api.get(document[0]["download"]).status_code == 200


def test_a_run_for_a_day_not_closed_is_refused_naming_the_day(stored):
    response = client_as("compliance").post("/api/reports/runs/", {"day": "2999-01-01"}, format="json")
    assert response.status_code == 400 and "day" in response.json()
    response = client_as("compliance").post("/api/reports/runs/", {"date": "2026-11-28"}, format="json")
    assert response.status_code == 400 and "date" in response.json()


def test_the_home_page_leads_compliance_to_rounds_and_reports(client):
    client.force_login(factories.user("compliance"))
    html = client.get(reverse("home")).content.decode()
    for name in ("rounds:round_list", "rounds:incident_list", "rounds:resettlement_list", "reports:archive"):
        assert reverse(name) in html
    assert "You may run the daily job for a past day." in html
