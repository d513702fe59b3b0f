"""The archive in an S3-compatible bucket: moto's server mode on a free local port (no network),
reached through pyarrow's S3 filesystem as PITBOSS_ARCHIVE_URL=s3://... and
PITBOSS_ARCHIVE_S3_ENDPOINT name it. moto is a test requirement: without it this test fails."""

import logging
from decimal import Decimal

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from moto.server import ThreadedMotoServer
from pyarrow import fs

from archive.drop import month_drop
from archive.errors import ArchiveError
from archive.models import ArchiveStatus
from archive.services import month_export, month_verify
from archive.slices import PARTS, slice_facts
from archive.storage import archive_location
from rounds.partitions import PARTITIONED
from tests.archive.support import MARCH, partitions_there, rounds_of
from tests.benchmarks.support import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
BUCKET = "pitboss-archive"


@pytest.fixture
def s3_endpoint(monkeypatch):
    """moto's S3 at http://127.0.0.1:<port>, with a bucket; credentials as the AWS variables give them."""
    for name, value in {
        "AWS_ACCESS_KEY_ID": "archive-test",
        "AWS_SECRET_ACCESS_KEY": "archive-test-secret",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_EC2_METADATA_DISABLED": "true",  # never ask a cloud's metadata service
    }.items():
        monkeypatch.setenv(name, value)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's request log
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    fs.S3FileSystem(
        endpoint_override=f"127.0.0.1:{port}", scheme="http", allow_bucket_creation=True
    ).create_dir(BUCKET)
    yield endpoint
    server.stop()


def test_a_month_is_exported_to_and_verified_in_an_s3_bucket(history, s3_endpoint, settings):
    settings.PITBOSS_ARCHIVE_URL = f"s3://{BUCKET}/history"
    settings.PITBOSS_ARCHIVE_S3_ENDPOINT = s3_endpoint

    for table in (history.dlx1, history.cls1):
        record = month_export(table, MARCH)
        assert record.status == ArchiveStatus.EXPORTED, record.error
        assert record.archive_url == f"s3://{BUCKET}/history"
        record = month_verify(table, MARCH)
        assert record.status == ArchiveStatus.VERIFIED, record.error

    location = archive_location()
    listed = location.filesystem.get_file_info(fs.FileSelector(f"{BUCKET}/history/CLS1/2026-03"))
    assert (
        len([info for info in listed if info.type == fs.FileType.File]) == len(PARTS) + 1
    )  # a Parquet file per table and the manifest
    with location.filesystem.open_input_file(f"{BUCKET}/history/CLS1/2026-03/refunds.parquet") as source:
        refunds = pq.read_table(source)
    expected = Decimal(slice_facts(history.cls1, MARCH)["totals"]["refunds"])
    assert pc.sum(refunds["amount"]).as_py() == expected > 0

    # A file changed in the bucket fails its verification, and the month stays.
    location.write_bytes(f"{BUCKET}/history/CLS1/2026-03/refunds.parquet", b"PAR1 not what was written PAR1")
    record = month_verify(history.cls1, MARCH)
    assert record.status == ArchiveStatus.FAILED and "refunds.parquet" in record.error
    with pytest.raises(ArchiveError, match="CLS1 has rounds in 2026-03 and its export is failed"):
        month_drop(MARCH)
    assert all(partitions_there(MARCH).values())

    assert month_export(history.cls1, MARCH).status == ArchiveStatus.EXPORTED
    assert month_verify(history.cls1, MARCH).status == ArchiveStatus.VERIFIED
    assert len(month_drop(MARCH)) == len(PARTITIONED) and rounds_of(MARCH) == 0
