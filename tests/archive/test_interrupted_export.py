"""An export that fails part way (the store fails in the middle of a file) leaves the month's
partitions in place, says failed with the error, and is done again from the start by the next run."""

from pathlib import Path

import pytest
from pyarrow import fs

from archive.drop import month_drop
from archive.errors import ArchiveError
from archive.models import ArchivedMonth, ArchiveStatus
from archive.services import month_export, month_verify
from archive.storage import ArchiveLocation, archive_location
from tests.archive.support import MARCH, FailingHandler, partitions_there, rounds_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_a_store_that_fails_in_the_middle_of_a_file_leaves_the_month_and_says_so(history, tmp_path):
    root = tmp_path / "archive"
    # The bets file takes its first 100 bytes, then the store fails: rounds, spots and hands are written.
    failing = ArchiveLocation(
        fs.PyFileSystem(FailingHandler("bets.parquet", limit=100)), str(root), str(root)
    )

    record = month_export(history.dlx1, MARCH, location=failing)

    assert record.status == ArchiveStatus.FAILED
    assert record.error.startswith("export failed: OSError")
    assert "No space left on device (injected by the test)" in record.error
    assert record.manifest is None
    month_dir = root / "DLX1" / "2026-03"
    assert {path.name for path in month_dir.iterdir()} == {
        "rounds.parquet",
        "bets.parquet",  # cut short
    }
    assert not (month_dir / "manifest.json").exists()
    # Nothing of the month left PostgreSQL, and nothing will until it is exported and verified.
    assert all(partitions_there(MARCH).values()) and rounds_of(MARCH) == len(history.march)
    with pytest.raises(ArchiveError, match="only an exported month is verified"):
        month_verify(history.dlx1, MARCH)
    with pytest.raises(
        ArchiveError, match="DLX1 has rounds in 2026-03 and its export is failed, not verified"
    ):
        month_drop(MARCH)

    # Run again with a store that works: the month is written afresh and verified.
    record = month_export(history.dlx1, MARCH, location=archive_location(str(root)))
    assert record.status == ArchiveStatus.EXPORTED and record.error == ""
    assert month_verify(history.dlx1, MARCH).status == ArchiveStatus.VERIFIED
    assert (month_dir / "manifest.json").exists()


def test_a_file_changed_in_the_archive_after_its_export_fails_verification(history, tmp_path):
    location = archive_location(str(tmp_path / "archive"))
    month_export(history.cls1, MARCH, location=location)
    refunds = Path(location.month_dir("CLS1", MARCH)) / "refunds.parquet"
    data = bytearray(refunds.read_bytes())
    data[len(data) // 2] ^= 0xFF
    refunds.write_bytes(bytes(data))

    record = month_verify(history.cls1, MARCH)

    assert record.status == ArchiveStatus.FAILED
    assert "refunds.parquet" in record.error and "sha256" in record.error
    assert ArchivedMonth.objects.get(table=history.cls1, month=MARCH).verified_at is None
