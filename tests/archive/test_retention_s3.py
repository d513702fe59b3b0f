"""archive_retention with the archive in an S3-compatible bucket (moto's server, as test_s3.py): the
month's objects are deleted through pyarrow's S3 filesystem, the deletion recorded; another month's
objects stay."""

import io

import pytest
from django.core.management import call_command
from pyarrow import fs

from archive.drop import month_drop
from archive.models import ArchiveDeletion, ArchivedMonth, ArchiveStatus
from archive.services import month_export, month_verify
from archive.slices import PARTS
from archive.storage import archive_location
from tables.models import Table
from tests.archive.test_retention import OLD, old_rounds
from tests.archive.test_s3 import BUCKET, s3_endpoint  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def objects_under(prefix: str) -> list[str]:
    listed = archive_location().filesystem.get_file_info(fs.FileSelector(prefix, allow_not_found=True))
    return sorted(info.path for info in listed if info.type == fs.FileType.File)


def test_retention_deletes_a_months_objects_from_the_bucket(db, s3_endpoint, settings):  # noqa: F811
    settings.PITBOSS_ARCHIVE_URL = f"s3://{BUCKET}/history"
    settings.PITBOSS_ARCHIVE_S3_ENDPOINT = s3_endpoint
    settings.PITBOSS_ARCHIVE_RETENTION_YEARS = 10
    call_command("seed_demo", stdout=io.StringIO())
    old_rounds()
    for table in Table.objects.filter(code__in=["DLX1", "CLS1"]):
        assert month_export(table, OLD).status == ArchiveStatus.EXPORTED
        assert month_verify(table, OLD).status == ArchiveStatus.VERIFIED
    month_drop(OLD)
    # Something else in the bucket, beside the month: another month's file, left alone.
    archive_location().write_bytes(f"{BUCKET}/history/DLX1/2015-04/manifest.json", b"{}")
    assert len(objects_under(f"{BUCKET}/history/DLX1/2015-03")) == len(PARTS) + 1
    out = io.StringIO()

    call_command("archive_retention", "--yes", stdout=out)

    assert f"DLX1 2015-03: {len(PARTS)} files, " in out.getvalue()
    assert f"s3://{BUCKET}/history/DLX1/2015-03" in out.getvalue()
    assert "Done: 2 month(s) deleted; 0 failed." in out.getvalue()
    assert objects_under(f"{BUCKET}/history/DLX1/2015-03") == []
    assert objects_under(f"{BUCKET}/history/CLS1/2015-03") == []
    assert objects_under(f"{BUCKET}/history/DLX1/2015-04") == [f"{BUCKET}/history/DLX1/2015-04/manifest.json"]
    assert set(ArchivedMonth.objects.values_list("status", flat=True)) == {ArchiveStatus.DELETED}
    deletion = ArchiveDeletion.objects.get(table__code="DLX1")
    assert (
        deletion.archive_url == f"s3://{BUCKET}/history"
        and deletion.files == len(PARTS)
        and deletion.rounds == 1
    )
