"""The daily reports of an archived day stay as they were issued (PostgreSQL): the report pages read
the figures the run stored, not the round tables, and the PDFs are the files issued, byte for byte,
after the day's month is exported and its partitions dropped."""

import re
from datetime import date

import pytest
from django.test import Client

from reports.models import ReportDocument, RunStatus
from reports.services import report_run_start
from tests.archive.support import march_archived
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')  # a new one each answer
DAY = date(2026, 3, 12)  # CLS1: a completed round and one the game server cancelled, refunded


def shown(client: Client) -> dict[str, bytes]:
    pages = {
        url: client.get(url)
        for url in (
            f"/reports/daily/?day={DAY}",
            f"/reports/exposure/?day={DAY}",
            f"/reports/daily/?day={DAY}&table=CLS1",
        )
    }
    for document in ReportDocument.objects.filter(day=DAY):
        pages[document.kind] = client.get(f"/reports/documents/{document.pk}/pdf/")
    assert all(answer.status_code == 200 for answer in pages.values()), {
        url: answer.status_code for url, answer in pages.items()
    }
    return {
        url: CSRF.sub(b"", b"".join(answer) if answer.streaming else answer.content)
        for url, answer in pages.items()
    }


def test_an_archived_days_reports_and_pdfs_stay_as_issued(
    history, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.PITBOSS_REPORTS_DIR = tmp_path / "reports"
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    with django_capture_on_commit_callbacks(execute=True):
        run = report_run_start(day=DAY, trigger="command")
    run.refresh_from_db()
    assert run.status == RunStatus.SUCCEEDED, run.error
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    before = shown(compliance)
    assert {"daily_rtp", "exposure"} <= set(before)
    assert b"CLS1" in before[f"/reports/daily/?day={DAY}"]

    march_archived(history)

    assert shown(compliance) == before
