"""Retention: the archive of a month is deleted once the month ended more than
PITBOSS_ARCHIVE_RETENTION_YEARS (default 10) before today's gaming day (manage.py archive_retention).

Only a month the archive alone holds (ArchivedMonth `dropped`) is deleted here: a month in the database
(being archived, failed, restored) is PostgreSQL's, not the archive's. Deleting removes the month's
directory, `<archive>/<table code>/<YYYY-MM>/`, through the archive's filesystem (a directory or an S3
bucket, archive.storage), then marks the month `deleted` and records an ArchiveDeletion: what its
manifest said it held, where it was, who deleted it and why. The deletion is logged on
"pitboss.archive". A month whose files cannot all be deleted keeps its status and records nothing;
running again deletes what is left.

A deleted month's rounds stay in the registry (rounds.registry.RoundKey, BetKey) on purpose: their ids
stay taken, so no new round can reuse one, and the corrections, incidents and void lines that point at
them keep their rows. Their round pages say the round is not found (the archive no longer answers
for a deleted month: archive.recall reads `dropped` months only), and ingest refuses a round of the
month (archive.recall, rounds.ingest).
"""

import getpass
import logging
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pyarrow import fs

from core.gaming_day import gaming_day_of
from rounds.partitions import month_of

from .errors import ArchiveError
from .models import ArchiveDeletion, ArchivedMonth, ArchiveStatus
from .storage import archive_location
from .window import months_before

logger = logging.getLogger("pitboss.archive")


def retention_start(today: date | None = None) -> date:
    """The first month whose archive is kept: every month before it ended more than the retention
    years before `today` (default today's gaming day). With 10 years, on any day of December 2026,
    December 2016."""
    today = gaming_day_of(timezone.now()) if today is None else today
    return months_before(month_of(today), settings.PITBOSS_ARCHIVE_RETENTION_YEARS * 12)


def months_past_retention(today: date | None = None) -> list[ArchivedMonth]:
    """The archived months (the archive alone holds them) past retention, oldest first."""
    return list(
        ArchivedMonth.objects.filter(status=ArchiveStatus.DROPPED, month__lt=retention_start(today))
        .select_related("table")
        .order_by("month", "table__code")
    )


@dataclass(frozen=True)
class MonthSummary:
    """What a month's manifest says its archive holds."""

    files: int
    bytes: int
    rounds: int
    bets: int
    wagered: Decimal
    returned: Decimal
    adjustments: Decimal
    refunds: Decimal


def month_summary(record: ArchivedMonth) -> MonthSummary:
    files, totals = record.manifest["files"].values(), record.manifest["totals"]
    return MonthSummary(
        files=len(files),
        bytes=sum(entry["bytes"] for entry in files),
        rounds=totals["rounds"],
        bets=totals["bets"],
        wagered=Decimal(totals["wagered"]),
        returned=Decimal(totals["returned"]),
        adjustments=Decimal(totals["adjustments"]),
        refunds=Decimal(totals["refunds"]),
    )


def operator() -> str:
    """Who runs the command: the operating-system user (the command has no signed-in person)."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment and none for the uid
        return f"uid {os.getuid()}"


def month_delete(
    record: ArchivedMonth, *, deleted_by: str, reason: str = "", today: date | None = None
) -> ArchiveDeletion:
    """Delete the archived month's files and record it. Raises ArchiveError (the month is no longer
    `dropped`, within retention, or has nothing where it was archived) or the filesystem's error
    (OSError); either way the month keeps its status and nothing is recorded, though some of its files
    may be gone after a filesystem's error."""
    label = f"{record.table.code} {record.month:%Y-%m}"
    start = retention_start(today)
    with transaction.atomic():
        # Locked: an archive_restore that started meanwhile waits, then finds the month deleted.
        record = (
            ArchivedMonth.objects.select_for_update(of=("self",)).select_related("table").get(pk=record.pk)
        )
        if record.status != ArchiveStatus.DROPPED:
            raise ArchiveError(
                f"{label} is {record.get_status_display().lower()}, not dropped: only a month the archive "
                "alone holds is deleted under retention"
            )
        if record.month >= start:
            raise ArchiveError(f"{label} is within retention (months from {start:%Y-%m} are kept)")
        location = archive_location(record.archive_url)
        directory = location.month_dir(record.table.code, record.month)
        if location.filesystem.get_file_info(directory).type == fs.FileType.NotFound:
            raise ArchiveError(
                f"nothing is there at {record.location} (moved or deleted outside Pitboss?); "
                "nothing was recorded"
            )
        location.filesystem.delete_dir(directory)
        if location.filesystem.get_file_info(directory).type != fs.FileType.NotFound:
            raise ArchiveError(f"{record.location} is still there after its deletion")
        summary = month_summary(record)
        record.status, record.error = ArchiveStatus.DELETED, ""
        record.save(update_fields=["status", "error", "updated_at"])
        deletion = ArchiveDeletion.objects.create(
            table=record.table,
            month=record.month,
            archive_url=record.archive_url,
            **asdict(summary),
            retention_years=settings.PITBOSS_ARCHIVE_RETENTION_YEARS,
            deleted_by=deleted_by,
            reason=reason,
        )
    logger.warning(
        "Archive of %s deleted under retention (%s years): %s; rounds %s, bets %s, wagered %s, returned %s; "
        "%s files, %s bytes; by %s%s",
        label,
        deletion.retention_years,
        deletion.location,
        summary.rounds,
        summary.bets,
        summary.wagered,
        summary.returned,
        summary.files,
        summary.bytes,
        deleted_by,
        f" ({reason})" if reason else "",
    )
    return deletion


@dataclass
class Outcome:
    record: ArchivedMonth
    deletion: ArchiveDeletion | None  # None: not deleted, `error` says why
    error: str = ""


def months_delete(
    records: list[ArchivedMonth], *, deleted_by: str, reason: str = "", today: date | None = None
) -> Iterator[Outcome]:
    """Each month deleted in turn (month_delete), as it is done: a failure is logged and given as an
    outcome, and the others go on."""
    for record in records:
        try:
            deletion = month_delete(record, deleted_by=deleted_by, reason=reason, today=today)
        except Exception as error:  # the filesystem's (OSError and others), the database's, ours
            if isinstance(error, ArchiveError):
                text = str(error)
            else:
                text = f"{type(error).__name__}: {error} (some of its files may be gone: run again to finish)"
            logger.error(
                "Archive of %s %s not deleted under retention: %s",
                record.table.code,
                f"{record.month:%Y-%m}",
                text,
            )
            yield Outcome(record, None, text)
        else:
            yield Outcome(record, deletion)
