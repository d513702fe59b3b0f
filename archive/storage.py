"""Where the archive is: a local directory or an S3-compatible bucket, through pyarrow's filesystems.

PITBOSS_ARCHIVE_URL names it: a path (`/srv/pitboss/archive`, `var/archive`), `file:///...`, or
`s3://bucket/prefix`. S3 credentials come from the standard AWS variables or files (never from the
settings); PITBOSS_ARCHIVE_S3_ENDPOINT points at an S3-compatible store (`http://minio:9000`). A
month's files are `<root>/<table code>/<YYYY-MM>/<name>.parquet` beside its `manifest.json`.

`ArchiveLocation` takes any pyarrow filesystem: that is the hook through which the tests make the
store fail part way through an export.
"""

import hashlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from django.conf import settings
from pyarrow import fs

from .models import month_location

READ_BLOCK = 8 * 2**20  # bytes read at a time when a file is checksummed


@dataclass(frozen=True)
class ArchiveLocation:
    filesystem: fs.FileSystem
    root: str  # the archive's path within `filesystem`, without a trailing slash
    url: str  # as configured: what ArchivedMonth records and messages show

    def month_dir(self, table_code: str, month: date) -> str:
        return month_location(self.root, table_code, month)

    def write_bytes(self, path: str, data: bytes) -> None:
        with self.filesystem.open_output_stream(path) as stream:
            stream.write(data)

    def read_bytes(self, path: str) -> bytes:
        with self.filesystem.open_input_stream(path) as stream:
            return stream.read()

    def checksum(self, path: str) -> tuple[str, int]:
        """The sha256 (hex) and size in bytes of the file at `path`, read block by block."""
        digest, size = hashlib.sha256(), 0
        with self.filesystem.open_input_stream(path) as stream:
            while block := stream.read(READ_BLOCK):
                digest.update(block)
                size += len(block)
        return digest.hexdigest(), size

    def manifest_mismatch(self, path: str, entry: dict, *, size: int | None = None) -> str | None:
        """How the file at `path` differs from its manifest `entry` (bytes, sha256); None when it is the
        one the manifest names. A `size` already known (a stat) spares reading a file of another size."""
        if size is not None and size != entry["bytes"]:
            return f"{size:,} bytes; the manifest says {entry['bytes']:,}"
        sha256, size = self.checksum(path)
        if (sha256, size) != (entry["sha256"], entry["bytes"]):
            return (
                f"{size:,} bytes, sha256 {sha256}; "
                f"the manifest says {entry['bytes']:,} bytes, sha256 {entry['sha256']}"
            )
        return None

    def month_clear(self, table_code: str, month: date) -> None:
        """Delete what an earlier, failed export of the month left, so the next one starts clean."""
        path = self.month_dir(table_code, month)
        self.filesystem.delete_dir_contents(path, missing_dir_ok=True)
        self.filesystem.create_dir(path, recursive=True)


def archive_location(url: str | None = None, *, s3_endpoint: str | None = None) -> ArchiveLocation:
    """The archive at `url` (default PITBOSS_ARCHIVE_URL); an s3:// one through `s3_endpoint` (default
    PITBOSS_ARCHIVE_S3_ENDPOINT; none: AWS itself)."""
    url = (url or settings.PITBOSS_ARCHIVE_URL).rstrip("/")
    s3_endpoint = s3_endpoint or settings.PITBOSS_ARCHIVE_S3_ENDPOINT
    if url.startswith("s3://"):
        if s3_endpoint:
            scheme, _, address = s3_endpoint.rpartition("://")
            filesystem = fs.S3FileSystem(endpoint_override=address, scheme=scheme or "https")
            return ArchiveLocation(filesystem, url.removeprefix("s3://"), url)
        filesystem, root = fs.FileSystem.from_uri(url)
        return ArchiveLocation(filesystem, root.rstrip("/"), url)
    if "://" in url:
        filesystem, root = fs.FileSystem.from_uri(url)
        return ArchiveLocation(filesystem, root.rstrip("/"), url)
    root = str(Path(url).resolve())
    return ArchiveLocation(fs.LocalFileSystem(), root, root)


class HashingSink:
    """A writable file for pyarrow that passes every byte to `stream` and keeps their sha256 and
    count, so that a file is checksummed as it is written, not read again for it."""

    def __init__(self, stream):
        self.stream = stream
        self.digest = hashlib.sha256()
        self.size = 0
        self.closed = False

    def write(self, data) -> int:
        self.digest.update(data)
        self.size += len(data)
        self.stream.write(data)
        return len(data)

    def tell(self) -> int:
        return self.size

    def flush(self) -> None:
        self.stream.flush()

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.stream.close()
