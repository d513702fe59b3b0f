"""`manage.py demo_day` (what `make demo` plays): a day through ingest, its incidents and
corrections, then the daily job with both PDFs; a second run stores nothing twice."""

import io

import pytest
from django.core.management import call_command

from reports.models import DailyFigures, ReportDocument, ReportRun
from rounds.models import Adjustment, Finding, Incident, Refund, Round

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_small_demo_day_has_everything_the_demo_shows(settings, tmp_path):
    settings.PITBOSS_REPORTS_DIR = tmp_path
    call_command("seed_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo_day", "--shoes", "1", "--boundless-players", "30", "--day", "2026-11-27", stdout=out)
    text = out.getvalue()
    rounds = Round.objects.filter(round_id__startswith="20261127-")
    assert set(rounds.values_list("table__code", flat=True)) == {"DLX1", "BND1", "CLS1", "MPB1"}
    assert rounds.filter(table__code="BND1").first().players == 30
    unreadable = Incident.objects.get(kind="card_unreadable")
    assert unreadable.status == "cancelled"  # ended by cancelling its round
    assert Refund.objects.filter(incident=unreadable).count() == unreadable.round.bet_count
    assert Adjustment.objects.exists()
    assert Finding.objects.filter(code="limit_breached").exists()  # the self-limited players
    run = ReportRun.objects.get()
    assert (run.status, run.trigger) == ("succeeded", "demo")
    assert DailyFigures.objects.filter(day="2026-11-27", table=None).exists()
    documents = ReportDocument.objects.filter(day="2026-11-27")
    assert {d.kind for d in documents} == {"daily_rtp", "exposure"}
    assert all((tmp_path / d.path).stat().st_size == d.size for d in documents)
    assert "succeeded" in text and "var/reports/2026-11-27/" in text
    stored = rounds.count()
    call_command(
        "demo_day", "--shoes", "1", "--boundless-players", "30", "--day", "2026-11-27", stdout=io.StringIO()
    )
    assert Round.objects.filter(round_id__startswith="20261127-").count() == stored
    assert Incident.objects.filter(kind="card_unreadable").count() == 1
