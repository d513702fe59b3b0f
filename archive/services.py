"""The archive's steps for one (casino table, month), each recorded in its ArchivedMonth.

month_export: exporting, then exported with its manifest, or failed with the error (the partitions
stay whatever happens: only month_drop removes them). month_verify: verified, or failed with every
difference found. A verified or dropped month is not exported again. month_drop (archive.drop) then
removes the month from PostgreSQL once every table of it is verified.
"""

import logging
from datetime import date

from django.utils import timezone

from tables.models import Table

from .drop import month_drop, month_drop_blockers
from .errors import ArchiveError
from .export import month_export_write
from .models import ArchivedMonth, ArchiveStatus
from .storage import ArchiveLocation, archive_location
from .verify import month_verify_read

__all__ = ["month_drop", "month_drop_blockers", "month_export", "month_verify"]
logger = logging.getLogger(__name__)
DONE = (ArchiveStatus.VERIFIED, ArchiveStatus.DROPPED)


def month_export(table: Table, month: date, *, location: ArchiveLocation | None = None) -> ArchivedMonth:
    """Export `table`'s `month` to the archive (default PITBOSS_ARCHIVE_URL). A failure is recorded,
    not raised: the record says failed, with the error; an interruption (KeyboardInterrupt, SystemExit)
    is recorded and raised again. One the process could not record stays `exporting`."""
    if month.day != 1:
        raise ValueError(f"A month is its first day, not {month}.")
    record, _ = ArchivedMonth.objects.get_or_create(table=table, month=month)
    if record.status in DONE:
        raise ArchiveError(
            f"{table.code} {month:%Y-%m} is {record.get_status_display().lower()}: it is not exported again."
        )
    location = location or archive_location()
    record.status, record.archive_url, record.error = ArchiveStatus.EXPORTING, location.url, ""
    record.manifest, record.exported_at, record.verified_at = None, None, None
    record.export_started_at = timezone.now()
    record.save()
    try:
        manifest = month_export_write(table, month, location)
    except Exception as error:
        return _failed(record, "export", error)
    except BaseException as error:
        _failed(record, "export interrupted", error)
        raise
    record.status, record.manifest, record.exported_at = ArchiveStatus.EXPORTED, manifest, timezone.now()
    record.save(update_fields=["status", "manifest", "exported_at", "updated_at"])
    return record


def month_verify(table: Table, month: date, *, location: ArchiveLocation | None = None) -> ArchivedMonth:
    """Read `table`'s exported `month` back from where it was exported (or `location`) and hold it
    against its manifest and the database: verified, or failed with every difference."""
    record = ArchivedMonth.objects.get(table=table, month=month)
    if record.status not in (ArchiveStatus.EXPORTED, ArchiveStatus.VERIFIED):
        raise ArchiveError(
            f"{table.code} {month:%Y-%m} is {record.get_status_display().lower()}: only an exported month "
            "is verified."
        )
    location = location or archive_location(record.archive_url)
    try:
        problems, _ = month_verify_read(table, month, location, record.manifest)
    except Exception as error:
        return _failed(record, "verification", error)
    if problems:
        return _failed(record, "verification", "; ".join(problems))
    record.status, record.verified_at, record.error = ArchiveStatus.VERIFIED, timezone.now(), ""
    record.save(update_fields=["status", "verified_at", "error", "updated_at"])
    return record


def _failed(record: ArchivedMonth, step: str, error: BaseException | str) -> ArchivedMonth:
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    logger.warning("Archive of %s %s: %s failed: %s", record.table.code, f"{record.month:%Y-%m}", step, text)
    record.status, record.error = ArchiveStatus.FAILED, f"{step} failed: {text}"
    record.save(update_fields=["status", "error", "updated_at"])
    return record
