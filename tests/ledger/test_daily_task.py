"""The daily beat task: the closed day's heads signed, the ledger verified once for the day and the
run kept; a problem is logged as an error and kept for compliance."""

import logging

import pytest

from core.gaming_day import last_closed_gaming_day
from ledger.models import LedgerDayHead, LedgerVerification
from ledger.tasks import ledger_daily_task
from tests.ledger.support import resettled, seeded, sql
from tests.rounds.corrections_support import corrections_urls  # noqa: F401

pytestmark = pytest.mark.django_db


def test_it_signs_the_closed_day_and_verifies_once(caplog):
    seeded()
    adjustment = resettled()
    done = ledger_daily_task()
    day = last_closed_gaming_day()
    assert done["day"] == day.isoformat() and done["problems"] == 0
    assert set(LedgerDayHead.objects.filter(day=day).values_list("chain", flat=True)) >= {
        "adjustment",
        "personal_limit",
        "table_limit",
    }
    assert ledger_daily_task() is None  # verified by beat since the day closed
    assert LedgerVerification.objects.get().clean

    LedgerVerification.objects.all().delete()
    sql("UPDATE rounds_adjustment SET amount = 0 WHERE id = %s", [adjustment.pk])
    with caplog.at_level(logging.ERROR, logger="ledger.services"):
        assert ledger_daily_task()["problems"] == 1
    assert "source row changed" in caplog.text
    run = LedgerVerification.objects.get()
    assert (run.by, run.clean, len(run.problems)) == ("beat", False, 1)
