"""A run of the daily job has a page that shows how far it has got, table by table, reloads itself
until the run ends, and then links its figures and PDFs; starting a run from the portal opens it."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from reports.daily import table_day_compute
from reports.models import ReportRun, RunStatus, RunTrigger
from reports.services import report_run_start
from tables.models import Table
from tests.reports.test_jobs import DAY, demo_day_ingest

pytestmark = pytest.mark.django_db


def signed_in(username="compliance") -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_a_running_run_shows_its_tables_done_and_reloads_itself():
    demo_day_ingest()
    run = ReportRun.objects.create(
        day=DAY, trigger=RunTrigger.PORTAL, time_zone="Europe/Malta", cutoff="06:00"
    )
    tables = list(Table.objects.order_by("code"))
    ReportRun.objects.filter(pk=run.pk).update(tables=len(tables))
    for table in tables[:2]:
        table_day_compute(table=table, day=DAY, run=run)
    page = signed_in().get(f"/reports/runs/{run.pk}/").content.decode()
    assert '<meta http-equiv="refresh" content="2">' in page
    assert f'<progress max="{len(tables)}" value="2"' in page
    assert f"2 of {len(tables)} tables done" in page
    done = re.findall(r'<td class="code">(\w+)</td><td>[^<]*</td><td><span class="badge badge-(\w+)">', page)
    assert done == [(table.code, "succeeded" if n < 2 else "running") for n, table in enumerate(tables)]


def test_a_run_waiting_for_its_worker_says_so():
    demo_day_ingest()
    run = ReportRun.objects.create(
        day=DAY, trigger=RunTrigger.PORTAL, time_zone="Europe/Malta", cutoff="06:00"
    )
    page = signed_in().get(f"/reports/runs/{run.pk}/").content.decode()
    assert "Waiting for a worker to start the job." in page


def test_starting_a_run_opens_its_page_which_links_its_figures_and_pdfs_once_it_succeeded(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    demo_day_ingest()
    client = signed_in()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/reports/runs/new/", {"day": DAY.isoformat()})
    run = ReportRun.objects.get()  # eager here: the job ran when the run was committed
    assert response.status_code == 302 and response.url == f"/reports/runs/{run.pk}/"
    assert run.status == RunStatus.SUCCEEDED
    page = client.get(response.url).content.decode()
    assert 'http-equiv="refresh"' not in page
    tables = Table.objects.count()
    assert f'<progress max="{tables}" value="{tables}"' in page
    assert (
        f'href="/reports/daily/?run={run.pk}"' in page and f'href="/reports/exposure/?run={run.pk}"' in page
    )
    assert len(re.findall(r'href="/reports/documents/\d+/pdf/"', page)) == 2


def test_a_failed_run_shows_its_error():
    demo_day_ingest()
    run = report_run_start(day=DAY, trigger=RunTrigger.COMMAND)
    ReportRun.objects.filter(pk=run.pk).update(status=RunStatus.FAILED, error="Table CLS1: ValueError: boom")
    page = signed_in("supervisor").get(f"/reports/runs/{run.pk}/").content.decode()
    assert "Failed: Table CLS1: ValueError: boom" in page and 'http-equiv="refresh"' not in page


def test_a_run_of_figures_only_says_it_made_no_charts_and_no_pdfs():
    demo_day_ingest()
    run = ReportRun.objects.create(
        day=DAY,
        trigger=RunTrigger.DEMO,
        time_zone="Europe/Malta",
        cutoff="06:00",
        status=RunStatus.SUCCEEDED,
        figures_only=True,
    )
    page = signed_in().get(f"/reports/runs/{run.pk}/").content.decode()
    assert "a run of figures only: no charts, no PDFs" in page
