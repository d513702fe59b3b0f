"""The day's pack for the regulator (regulator.pack): a played day with corrections, an incident, alerts
and a run with both PDFs, downloaded as a page and from the API. Every file the manifest lists is in
the ZIP with its size and SHA-256, SHA256SUMS verifies with `sha256sum -c`, the CSVs are the lists'
exports of the day, and the PDFs are the run's files byte for byte."""

import hashlib
import io
import json
import shutil
import subprocess
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse
from freezegun import freeze_time

from config.celery import app
from core.gaming_day import gaming_day
from ledger.chains import chains
from ledger.models import LedgerDayHead
from ledger.signing import head_signature
from reports.models import ReportDocument, RunStatus
from reports.services import report_run_start
from reports.tasks import daily_report_job
from rounds.models import Refund, Round
from rounds.services import bets_to_adjust
from tests.alerts.pages_support import raised
from tests.api_support import client_as
from tests.factories import user
from tests.pdf_text import pdf_text
from tests.reports.corrections import refund_in_incident, resettle, void
from tests.reports.test_jobs import DAY, demo_day_ingest

pytestmark = pytest.mark.django_db
FOLDER = f"pitboss-pack-{DAY}"


@pytest.fixture
def eager():
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture
def played_day(eager, tmp_path):
    """DAY played at DLX1 and CLS1, one round re-settled, one voided, one refunded in an incident, an
    alert inside the gaming day and one before it, and the daily job run with its PDFs."""
    with override_settings(PITBOSS_REPORTS_DIR=tmp_path):
        demo_day_ingest()
        rounds = Round.objects.filter(table__code="CLS1", gaming_day=DAY).order_by("pk")
        completed = [r for r in rounds if r.status == "completed"]
        resettled = resettle(next(r for r in completed if bets_to_adjust(r).exists()))
        voided = void(next(r for r in reversed(completed) if not bets_to_adjust(r).exists()))
        incident = refund_in_incident(rounds.filter(status="cancelled").first())
        starts = gaming_day(DAY).starts_at
        inside = raised("DLX1", "silent_table", at=starts + timedelta(hours=3), summary="Silent in the day.")
        raised("CLS1", "silent_table", at=starts - timedelta(hours=1), summary="Silent the day before.")
        run = report_run_start(day=DAY, trigger="command")
        daily_report_job.delay(run.pk)  # what the start queues when it commits
        run.refresh_from_db()
        assert run.status == RunStatus.SUCCEEDED, run.error
        yield {
            "run": run,
            "resettled": resettled,
            "voided": voided,
            "incident": incident,
            "alert": inside,
            "reports_dir": tmp_path,
        }


def downloaded(response) -> zipfile.ZipFile:
    assert response.status_code == 200, response.content
    assert response.streaming
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="{FOLDER}.zip"'
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def csv_rows(pack: zipfile.ZipFile, name: str) -> list[str]:
    """The CSV's lines, its header first."""
    return pack.read(f"{FOLDER}/{name}").decode().splitlines()


def test_the_days_pack_holds_its_pdfs_and_csvs_each_with_its_sha256(client, played_day, tmp_path):
    client.force_login(user("compliance"))
    pack = downloaded(client.get(reverse("regulator:day_pack", args=[DAY])))

    names = [info.filename for info in pack.infolist()]
    assert all(name.startswith(f"{FOLDER}/") for name in names)
    assert names[-2:] == [f"{FOLDER}/manifest.json", f"{FOLDER}/SHA256SUMS"]
    manifest = json.loads(pack.read(f"{FOLDER}/manifest.json"))
    bounds = gaming_day(DAY)
    assert manifest["gaming_day"] | {} == {
        "day": DAY.isoformat(),
        "time_zone": bounds.time_zone,
        "cutoff": bounds.cutoff.isoformat("minutes"),
        "starts_at": bounds.starts_at.isoformat(),
        "ends_at": bounds.ends_at.isoformat(),
    }
    assert manifest["made_by"] == "compliance-user"
    assert manifest["report_run"]["id"] == played_day["run"].pk
    assert manifest["report_run"]["figures_sha256"] == played_day["run"].figures_sha256
    listed = {file["name"]: file for file in manifest["files"]}
    # The manifest cannot hold its own digest: SHA256SUMS, written after it, does.
    assert set(listed) | {"manifest.json", "SHA256SUMS"} == {
        name.removeprefix(f"{FOLDER}/") for name in names
    }
    for name, file in listed.items():
        content = pack.read(f"{FOLDER}/{name}")
        assert (len(content), hashlib.sha256(content).hexdigest()) == (file["size"], file["sha256"]), name

    # The PDFs are the run's files, byte for byte, as recorded.
    documents = ReportDocument.objects.filter(run=played_day["run"])
    assert documents.count() == 2
    for document in documents:
        name = Path(document.path).name
        stored = (played_day["reports_dir"] / document.path).read_bytes()
        assert pack.read(f"{FOLDER}/{name}") == stored
        assert listed[name]["sha256"] == document.sha256

    # The ledger's chain heads at the day's end, signed with its key: in the manifest and the daily PDF.
    heads = manifest["ledger_heads"]
    assert [head["chain"] for head in heads] == sorted(chain.kind for chain in chains())
    # (as of the day's end: the corrections here were made after it, so each chain's head is its start)
    assert heads == [
        {"chain": h.chain, "sequence": h.sequence, "entry_sha256": h.entry_sha256, "signature": h.signature}
        for h in LedgerDayHead.objects.filter(day=DAY).order_by("chain")
    ]
    daily_pdf = tmp_path / "daily.pdf"
    daily_pdf.write_bytes(pack.read(f"{FOLDER}/{Path(documents.get(kind='daily_rtp').path).name}"))
    daily = "".join(pdf_text(daily_pdf).split())  # a signature may break across lines
    for head in heads:
        expected = head_signature(DAY, head["chain"], head["sequence"], head["entry_sha256"])
        assert head["signature"] == expected
        assert head["signature"] in daily

    # SHA256SUMS covers every file and the manifest, and sha256sum itself agrees.
    sums = pack.read(f"{FOLDER}/SHA256SUMS").decode().splitlines()
    assert {line.split("  ", 1)[1] for line in sums} == set(listed) | {"manifest.json"}
    pack.extractall(tmp_path / "unzipped")
    if shutil.which("sha256sum"):
        checked = subprocess.run(
            ["sha256sum", "-c", "SHA256SUMS"],
            cwd=tmp_path / "unzipped" / FOLDER,
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert checked.stdout.count(": OK") == len(listed) + 1

    csvs_are_the_lists_exports_of_the_day(client, pack, listed, played_day)

    # The API streams the same files (the moment it was made aside).
    by_api = downloaded(client_as("supervisor").get(f"/api/reports/{DAY}/pack/"))
    assert [info.filename for info in by_api.infolist()] == names
    assert by_api.read(f"{FOLDER}/rounds.csv") == pack.read(f"{FOLDER}/rounds.csv")


def csvs_are_the_lists_exports_of_the_day(client, pack, listed, played_day):
    rounds = csv_rows(pack, "rounds.csv")
    assert len(rounds) - 1 == Round.objects.filter(gaming_day=DAY).count() == listed["rounds.csv"]["rows"] > 0
    # The round list's own CSV export of the day, oldest first: the same bytes.
    export = client.get(reverse("rounds:round_list"), {"day": DAY, "sort": "opened_at", "_export": "csv"})
    assert pack.read(f"{FOLDER}/rounds.csv") == b"".join(export.streaming_content)

    resettlements = csv_rows(pack, "resettlements.csv")
    assert resettlements[0].startswith("Re-settlement,Round,Table,Status")
    assert len(resettlements) == 2 and resettlements[1].startswith(f"{played_day['resettled'].pk},")
    voids = csv_rows(pack, "voids.csv")
    assert len(voids) == 2 and voids[1].startswith(f"{played_day['voided'].pk},")
    refunds = csv_rows(pack, "refunds.csv")
    assert len(refunds) - 1 == Refund.objects.filter(gaming_day=DAY).count() > 0
    incidents = csv_rows(pack, "incidents.csv")
    assert [line.split(",")[0] for line in incidents[1:]] == [str(played_day["incident"].pk)]
    alerts = csv_rows(pack, "alerts.csv")
    assert [line.split(",")[0] for line in alerts[1:]] == [str(played_day["alert"].pk)]
    assert listed["alerts.csv"]["rows"] == 1


def test_customer_service_may_not_download_a_pack(client):
    client.force_login(user("customer_service"))
    assert client.get(reverse("regulator:day_pack", args=[DAY])).status_code == 403
    assert client_as("customer_service").get(f"/api/reports/{DAY}/pack/").status_code == 403


def test_a_day_without_a_succeeded_run_or_not_closed_has_no_pack(client):
    client.force_login(user("compliance"))
    response = client.get(reverse("regulator:day_pack", args=[DAY]))
    assert response.status_code == 404
    assert f"The gaming day {DAY} has no succeeded run" in response.content.decode()
    answer = client_as("compliance").get(f"/api/reports/{DAY}/pack/")
    assert answer.status_code == 404 and str(DAY) in answer.json()["detail"]
    with freeze_time(gaming_day(DAY).ends_at - timedelta(minutes=1)):
        response = client.get(reverse("regulator:day_pack", args=[DAY]))
        assert response.status_code == 409
        assert f"The gaming day {DAY} has not closed yet" in response.content.decode()


def test_a_day_that_is_no_date_is_not_found(client):
    client.force_login(user("compliance"))
    assert client.get("/reports/2026-13-01/pack/").status_code == 404
