"""Months whose round history left PostgreSQL for the archive: their adjustments and refunds are
re-hashed from the archive's files, checked against their manifest first (PostgreSQL: partitions)."""

from pathlib import Path

import pytest

from archive.checks import verdicts_forget
from ledger.models import LedgerEntry
from rounds.models import Adjustment, Refund
from tests.archive.support import MARCH, history_make, march_archived
from tests.ledger.support import problems
from tests.rounds.corrections_support import corrections_urls  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def archived(db, settings, tmp_path):
    settings.PITBOSS_HOT_MONTHS = 6
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    history = history_make()
    march_archived(history)
    verdicts_forget()
    return history, tmp_path / "archive"


def test_an_untouched_archived_month_verifies_clean(archived):
    assert not Adjustment.objects.exists() and not Refund.objects.exists()  # in the archive alone
    assert LedgerEntry.objects.filter(chain="adjustment", source_month=MARCH).exists()
    assert LedgerEntry.objects.filter(chain="refund", source_month=MARCH).exists()
    assert problems() == []
    assert problems(kinds=["adjustment", "refund"], month=MARCH) == []


def test_an_archived_file_changed_is_refused_and_named(archived):
    _, archive = archived
    (adjustments,) = Path(archive).glob("DLX1/2026-03/adjustments*.parquet")
    data = bytearray(adjustments.read_bytes())
    data[len(data) // 2] ^= 0xFF
    adjustments.write_bytes(bytes(data))
    found = problems(kinds=["adjustment"])
    assert found[0].startswith("adjustment: archived month DLX1 2026-03:")
    assert found[1:] and all(
        problem.endswith("source row's archived month could not be read") for problem in found[1:]
    )
