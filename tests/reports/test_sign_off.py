"""Compliance signs a day's run off: who, when, a comment, once, never withdrawn; only the day's current
succeeded run with its reports; its starter may sign it. The sign-off makes a signed edition of the
run's PDFs beside the first ("Not signed"), which the pages then link. A day with a signed run is run
again only with a reason, and the new run's page shows what changed from the signed run's figures,
per table and bet kind."""

import html
from zoneinfo import ZoneInfo

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import ProtectedError
from django.urls import reverse

from blackjack.rules import kind_label
from core.money import money_text
from core.refusals import TransitionRefused
from ledger.models import LedgerEntry
from portal.queues import queues_for
from reports.models import DailyFigures, ReportDocument, ReportRun, ReportSignOff, RunStatus
from reports.services import report_run_start, report_run_start_by_beat
from reports.sign_off import report_sign
from rounds.models import Round
from rounds.services import bets_to_adjust
from tests import factories
from tests.api_support import client_as
from tests.api_support import user as api_user
from tests.ledger.support import problems, sql
from tests.pdf_text import pdf_text
from tests.reports.corrections import resettle
from tests.reports.test_jobs import DAY, demo_day_ingest
from tests.second_factor_support import code_checked

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def reports_dir(settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path / "reports"
    return settings.PITBOSS_REPORTS_DIR


@pytest.fixture
def run_day(django_capture_on_commit_callbacks):
    """Start a run as the portal would and let the job run (eagerly) when the start commits."""

    def run(started_by=None, reason: str = "") -> ReportRun:
        with django_capture_on_commit_callbacks(execute=True):
            started = report_run_start(day=DAY, trigger="portal", started_by=started_by, reason=reason)
        started.refresh_from_db()
        assert started.status == RunStatus.SUCCEEDED, started.error
        return started

    return run


@pytest.fixture
def stored_run(reports_dir) -> ReportRun:
    """A succeeded run of one row of each report (factories.report_rows): no job, no PDF rendered."""
    rows = factories.report_rows(factories.table("DLX1"), reports_dir)
    return ReportRun.objects.get(pk=rows["reportrun"])


def text(response) -> str:
    return html.unescape(response.content.decode())


# --- signing ---------------------------------------------------------------------------------------


def test_the_runs_starter_signs_it_and_the_signed_edition_of_its_pdfs_carries_the_sign_off(
    client, run_day, reports_dir, django_capture_on_commit_callbacks
):
    demo_day_ingest()
    officer = factories.user("compliance", "officer")
    run = run_day(started_by=officer)
    unsigned = {document.kind: document for document in ReportDocument.objects.filter(run=run)}
    assert set(unsigned) == {"daily_rtp", "exposure"} and not any(d.signed for d in unsigned.values())
    for document in unsigned.values():
        made = pdf_text(reports_dir / document.path)
        assert "Sign-off" in made and "Not signed" in made and "Signed by" not in made

    client.force_login(officer)
    code_checked(client, officer)  # signing off needs a code checked lately
    page = text(client.get(reverse("reports:run_detail", args=[run.pk])))
    assert "Sign the run off" in page and reverse("reports:run_sign", args=[run.pk]) in page
    with django_capture_on_commit_callbacks(execute=True):  # the signed edition's task, eagerly
        response = client.post(reverse("reports:run_sign", args=[run.pk]), {"comment": "Figures checked."})
    assert (response.status_code, response["Location"]) == (302, reverse("reports:run_detail", args=[run.pk]))

    sign_off = ReportSignOff.objects.get(run=run)
    assert (sign_off.signed_by, sign_off.comment) == (officer, "Figures checked.")
    signed = {document.kind: document for document in ReportDocument.objects.filter(run=run, signed=True)}
    assert set(signed) == {"daily_rtp", "exposure"}
    for kind, document in signed.items():
        assert document.path != unsigned[kind].path and document.path.endswith(f"run-{run.pk}-signed.pdf")
        made = " ".join(pdf_text(reports_dir / document.path).split())
        at = sign_off.signed_at.astimezone(ZoneInfo(run.time_zone))
        assert f"Signed by officer on {at:%Y-%m-%d %H:%M} ({run.time_zone}): Figures checked." in made
        assert f"daily run {run.pk}, the day's 1st run" in made
        assert run.figures_sha256 in made and len(run.figures_sha256) == 64
        assert "Not signed" not in made
        # The first edition stays as it was made: its file and checksum unchanged.
        kept = ReportDocument.objects.get(pk=unsigned[kind].pk)
        assert kept.sha256 == unsigned[kind].sha256 and "Not signed" in pdf_text(reports_dir / kept.path)

    page = text(client.get(reverse("reports:run_detail", args=[run.pk])))
    assert "signed by officer" in page.replace("<strong>", "").replace("</strong>", "")
    assert "Figures checked." in page and "Sign the run off" not in page
    for document in signed.values():  # the pages link the signed edition, not the first
        assert reverse("reports:document_download", args=[document.pk]) in page
        assert reverse("reports:document_download", args=[unsigned[document.kind].pk]) not in page
    daily = text(client.get(reverse("reports:daily_report"), {"day": DAY.isoformat()}))
    assert reverse("reports:document_download", args=[signed["daily_rtp"].pk]) in daily
    assert "Figures checked." in daily


def test_compliance_signs_through_the_api_and_the_run_shows_its_sign_off(stored_run):
    response = client_as("compliance").post(
        f"/api/reports/runs/{stored_run.pk}/sign/", {"comment": "Checked."}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["sign_off"]["signed_by"] == api_user("compliance").username
    assert response.json()["sign_off"]["comment"] == "Checked."
    shown = client_as("compliance").get(f"/api/reports/runs/{stored_run.pk}/").json()
    assert shown["sign_off"] == response.json()["sign_off"]
    unsigned = client_as("compliance").get("/api/reports/runs/").json()["results"]
    assert all(run["sign_off"] is None for run in unsigned if run["id"] != stored_run.pk)


@pytest.mark.parametrize("role", ["supervisor", "customer_service", "game_server"])
def test_only_compliance_signs(client, stored_run, role):
    response = client_as(role).post(
        f"/api/reports/runs/{stored_run.pk}/sign/", {"comment": "x"}, format="json"
    )
    assert response.status_code == 403
    client.force_login(factories.user(role))
    assert client.post(reverse("reports:run_sign", args=[stored_run.pk]), {"comment": "x"}).status_code == 403
    with pytest.raises(Exception, match="Only compliance"):
        report_sign(run=stored_run, signed_by=factories.user(role), comment="x")
    assert not ReportSignOff.objects.exists()


def test_a_sign_off_is_given_once_and_never_withdrawn(client, stored_run):
    officer = factories.user("compliance")
    report_sign(run=stored_run, signed_by=officer, comment="First.")
    with pytest.raises(TransitionRefused, match="a sign-off is given once"):
        report_sign(
            run=stored_run, signed_by=factories.user("compliance", "second-officer"), comment="Again."
        )
    api = client_as("compliance")
    response = api.post(f"/api/reports/runs/{stored_run.pk}/sign/", {"comment": "Again."}, format="json")
    assert response.status_code == 409 and "given once" in response.json()["run"][0]
    client.force_login(officer)
    code_checked(client, officer)
    response = client.post(reverse("reports:run_sign", args=[stored_run.pk]), {"comment": "Again."})
    assert response.status_code == 409 and "given once" in text(response)
    # No way to take it back: the API has no DELETE, PUT or PATCH on a run, the admin no sign-off,
    # and the run cannot be deleted from under it.
    for method in ("delete", "put", "patch"):
        assert getattr(api, method)(f"/api/reports/runs/{stored_run.pk}/").status_code in (403, 405)
    assert not admin.site.is_registered(ReportSignOff)
    with pytest.raises(ProtectedError):
        ReportRun.objects.filter(pk=stored_run.pk).delete()
    assert ReportSignOff.objects.get(run=stored_run).comment == "First."


def test_a_superseded_failed_running_or_figures_only_run_is_refused_naming_why(client, stored_run):
    officer = factories.user("compliance")
    newer = ReportRun.objects.create(
        day=stored_run.day, number=2, trigger="command", time_zone="Europe/Malta", cutoff="06:00",
        status=RunStatus.SUCCEEDED,
    )  # fmt: skip
    ReportRun.objects.filter(pk=stored_run.pk).update(superseded_by=newer)
    failed = ReportRun.objects.create(
        day=stored_run.day, number=3, trigger="command", time_zone="Europe/Malta", cutoff="06:00",
        status=RunStatus.FAILED,
    )  # fmt: skip
    figures_only = ReportRun.objects.create(
        day=stored_run.day.replace(day=1), trigger="demo", time_zone="Europe/Malta", cutoff="06:00",
        status=RunStatus.SUCCEEDED, figures_only=True,
    )  # fmt: skip
    api = client_as("compliance")
    client.force_login(officer)
    code_checked(client, officer)
    for run, status, why in (
        (stored_run, 409, f"superseded by run {newer.pk}"),
        (failed, 409, "is failed: only a succeeded run is signed"),
        (figures_only, 400, "stored figures only"),
    ):
        response = api.post(f"/api/reports/runs/{run.pk}/sign/", {"comment": "x"}, format="json")
        assert response.status_code == status and why in response.json()["run"][0], response.json()
        page = client.post(reverse("reports:run_sign", args=[run.pk]), {"comment": "x"})
        assert page.status_code == status and why in text(page)
    no_comment = api.post(f"/api/reports/runs/{newer.pk}/sign/", {"comment": " "}, format="json")
    assert no_comment.status_code == 400 and "comment" in no_comment.json()
    assert not ReportSignOff.objects.exists()


def test_compliance_home_lists_the_reports_to_sign_latest_day_first(stored_run):
    officer = factories.user("compliance")
    (queue,) = [queue for queue in queues_for(officer) if queue.key == "sign"]
    assert queue.title == "Reports to sign" and queue.count == 1
    assert queue.items[0].url == reverse("reports:run_detail", args=[stored_run.pk])
    assert not [queue for queue in queues_for(factories.user("supervisor")) if queue.key == "sign"]
    report_sign(run=stored_run, signed_by=officer, comment="Checked.")
    (queue,) = [queue for queue in queues_for(officer) if queue.key == "sign"]
    assert queue.count == 0


# --- a run after a sign-off ------------------------------------------------------------------------


def test_a_run_after_a_sign_off_needs_a_reason_and_shows_what_changed_per_table_and_kind(client, run_day):
    demo_day_ingest()
    officer = factories.user("compliance")
    signed = run_day(started_by=officer)
    report_sign(run=signed, signed_by=officer, comment="Checked.")

    with pytest.raises(ValidationError) as refused:
        report_run_start(day=DAY, trigger="portal", started_by=officer)
    assert (
        "reason" in refused.value.message_dict
        and f"Run {signed.pk}" in refused.value.message_dict["reason"][0]
    )
    response = client_as("compliance").post("/api/reports/runs/", {"day": DAY.isoformat()}, format="json")
    assert response.status_code == 400 and "reason" in response.json()
    client.force_login(officer)
    response = client.post(reverse("reports:run_start"), {"day": DAY.isoformat(), "reason": ""})
    assert "say why the day is run again" in text(response)  # the form again, the reason marked
    assert report_run_start_by_beat(day=DAY, attempts=3) is None  # beat never starts a succeeded day
    assert ReportRun.objects.filter(day=DAY).count() == 1

    resettled = next(
        round_
        for round_ in Round.objects.filter(table__code="CLS1", gaming_day=DAY, status="completed").order_by(
            "pk"
        )
        if bets_to_adjust(round_).exists()
    )
    resettle(resettled)
    again = run_day(started_by=officer, reason="A re-settlement approved after the sign-off.")
    assert again.reason == "A re-settlement approved after the sign-off."

    before = DailyFigures.objects.get(run=signed, table_code="CLS1", kind="main")
    after = DailyFigures.objects.get(run=again, table_code="CLS1", kind="main")
    assert before.returned != after.returned
    page = text(client.get(reverse("reports:run_detail", args=[again.pk])))
    assert "Changed from the signed run" in page and "No figure changed" not in page
    assert "A re-settlement approved after the sign-off." in page
    changes = page[page.index('id="changes"') :]
    row = next(line for line in changes.splitlines() if ">CLS1<" in line and ">Returned<" in line)
    assert f"<td>{kind_label('main')}</td>" in row
    assert money_text(before.returned) in row and money_text(after.returned) in row
    assert ">DLX1<" not in changes  # only the rows that differ: nothing changed at DLX1
    # The signed run stays signed, now superseded: its page says so, and offers no form.
    signed_page = text(client.get(reverse("reports:run_detail", args=[signed.pk])))
    assert "Checked." in signed_page and f">run {again.pk}</a>" in signed_page


def test_a_run_after_a_sign_off_with_the_same_figures_says_no_figure_changed(client, stored_run):
    officer = factories.user("compliance")
    report_sign(run=stored_run, signed_by=officer, comment="Checked.")
    again = ReportRun.objects.create(
        day=stored_run.day, number=2, trigger="portal", time_zone="Europe/Malta", cutoff="06:00",
        status=RunStatus.SUCCEEDED, reason="Checking the job.",
    )  # fmt: skip
    for figures in DailyFigures.objects.filter(run=stored_run):
        figures.pk, figures.run = None, again
        figures.save()
    client.force_login(officer)
    page = text(client.get(reverse("reports:run_detail", args=[again.pk])))
    assert "Changed from the signed run" in page and "No figure changed" in page


# --- the PDFs' counts ------------------------------------------------------------------------------


def test_the_pdfs_write_counts_with_thousands_separators(stored_run, reports_dir):
    from reports.models import DailyExposure, DailyTableSummary
    from reports.pdf import documents_render

    DailyTableSummary.objects.filter(run=stored_run).update(rounds=12345, limit_findings=1234)
    DailyExposure.objects.filter(run=stored_run).update(bets=23456)
    documents = {document.kind: document for document in documents_render(stored_run)}
    daily = pdf_text(reports_dir / documents["daily_rtp"].path)
    assert "12,345" in daily and "1,234" in daily and "12345" not in daily
    exposure = pdf_text(reports_dir / documents["exposure"].path)
    assert "23,456" in exposure and "23456" not in exposure


def test_the_cover_shows_its_content_once(stored_run, reports_dir):
    """The running head and the footer line are in the page margins, not repeated in the cover."""
    from reports.pdf import documents_render
    from tests.pdf_text import pdf_pages

    documents_render(stored_run)
    for document in ReportDocument.objects.filter(run=stored_run):
        cover = pdf_pages(reports_dir / document.path)[0]
        assert cover.count(f"Run {stored_run.pk} (the day's 1st run)") == 1, cover  # the footer's
        assert "· gaming day" not in cover, cover  # the running head starts on page 2


def test_a_sign_off_is_in_the_ledger_and_an_edit_behind_the_application_is_found(stored_run):
    sign_off = report_sign(run=stored_run, signed_by=factories.user("compliance"), comment="Checked.")
    assert LedgerEntry.objects.filter(chain="report_signoff", source_pk=sign_off.pk).exists()
    assert not [problem for problem in problems() if "report_signoff" in problem]
    sql("UPDATE reports_reportsignoff SET comment = %s WHERE id = %s", ["Not checked.", sign_off.pk])
    (found,) = [problem for problem in problems() if "report_signoff" in problem]
    assert "source row changed" in found
