"""python manage.py archive_months: archive every month of round history past the hot window.

For each month before the hot window (the current month and the PITBOSS_HOT_MONTHS before it) that
PostgreSQL still holds, oldest first: each casino table's rounds of the month are exported to
PITBOSS_ARCHIVE_URL, read back and verified against the database, and once every table of the month
is verified the month's partitions are detached and dropped. Each step prints its counts and sums.
Resumable: a verified month is not exported again, a failed or interrupted one is; a failure is
reported, leaves the month's partitions in place, and makes the command end with status 1 after
it has done what it could of the other months. --dry-run lists what would be done.
"""

from collections import Counter
from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from archive.drop import month_drop, month_drop_blockers
from archive.errors import ArchiveError
from archive.models import ArchivedMonth, ArchiveStatus
from archive.services import month_export, month_verify
from archive.slices import PARTS, month_tables, slice_rows
from archive.storage import archive_location
from archive.window import hot_window_start, months_due
from rounds.totals import player_totals_catch_up

LOCK = 21_0021  # pg_try_advisory_lock key: one archive_months at a time


class Command(BaseCommand):
    help = "Export, verify and drop every month of round history older than the hot window (PostgreSQL)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="list the months and what would be done")
        parser.add_argument(
            "--keep-partitions", action="store_true", help="export and verify, but drop no partition"
        )

    def handle(self, *args, dry_run, keep_partitions, **options):
        if connection.vendor != "postgresql":
            raise CommandError(
                "Round history is partitioned and archived on PostgreSQL only; this database is not one."
            )
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [LOCK])
            if not cursor.fetchone()[0]:
                raise CommandError("Another archive_months is running; nothing was done.")
        try:
            failures = self._run(dry_run, keep_partitions)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK])
        if failures:
            raise CommandError(f"{failures} step(s) failed; their months' partitions are kept (see above).")

    def _run(self, dry_run: bool, keep_partitions: bool) -> int:
        start = hot_window_start()
        months = months_due()
        where = archive_location().url
        self.stdout.write(
            f"Hot window from {start:%Y-%m}; {len(months)} older month(s) in PostgreSQL; archive: {where}"
            + (" (dry run: nothing is changed)" if dry_run else "")
        )
        if not dry_run:
            player_totals_catch_up()  # a month's player totals complete before it is exported
        failures, self.tally = 0, Counter()
        for month in months:
            failures += self._month(month, dry_run, keep_partitions)
        if not dry_run:
            done = ", ".join(
                f"{self.tally[step]} {step}" for step in ("exported", "verified", "months dropped")
            )
            self.stdout.write(f"Done: {done}; {failures} failed.")
        return failures

    def _month(self, month: date, dry_run: bool, keep_partitions: bool) -> int:
        failures = 0
        records = {record.table_id: record for record in ArchivedMonth.objects.filter(month=month)}
        tables = month_tables(month)
        if not tables:
            self.stdout.write(f"{month:%Y-%m}: no rounds")
        for table in tables:
            record = records.get(table.pk)
            label = f"{table.code} {month:%Y-%m}"
            if dry_run:
                self.stdout.write(f"{label}: {_plan(record)}; {slice_rows_count(table, month):,} round(s)")
                continue
            if record is not None and record.status in (ArchiveStatus.VERIFIED, ArchiveStatus.DROPPED):
                self.stdout.write(
                    f"{label}: verified earlier, not exported again; {_totals(record.manifest)}"
                )
                continue
            record = month_export(table, month)
            if record.status == ArchiveStatus.FAILED:
                self.stdout.write(self.style.ERROR(f"{label}: FAILED, partitions kept: {record.error}"))
                failures += 1
                continue
            self.tally["exported"] += 1
            self.stdout.write(f"{label}: exported {_files(record.manifest)}; {_totals(record.manifest)}")
            record = month_verify(table, month)
            if record.status == ArchiveStatus.FAILED:
                self.stdout.write(self.style.ERROR(f"{label}: FAILED, partitions kept: {record.error}"))
                failures += 1
                continue
            self.tally["verified"] += 1
            self.stdout.write(self.style.SUCCESS(f"{label}: verified: read back, equal to the database"))
        if keep_partitions:
            return failures
        if dry_run:
            blockers, _ = month_drop_blockers(month, exports=False)
            verdict = "; ".join(blockers) or "partitions would be dropped once every table is verified"
            self.stdout.write(f"{month:%Y-%m}: {verdict}")
            return failures
        try:
            dropped = month_drop(month)
        except ArchiveError as error:
            self.stdout.write(self.style.WARNING(f"{month:%Y-%m}: partitions kept: {error}"))
            return failures + 1
        self.tally["months dropped"] += 1
        self.stdout.write(
            self.style.SUCCESS(f"{month:%Y-%m}: {len(dropped)} partition(s) detached and dropped")
        )
        return failures


def _plan(record: ArchivedMonth | None) -> str:
    if record is None:
        return "not exported; would be exported and verified"
    if record.status == ArchiveStatus.VERIFIED:
        return "verified; not exported again"
    state = record.get_status_display().lower()
    if record.status == ArchiveStatus.EXPORTING:
        state = "exporting, or interrupted"
    elif record.status == ArchiveStatus.FAILED:
        state = f"failed ({record.error})"
    return f"{state}; would be exported again and verified"


def slice_rows_count(table, month: date) -> int:
    """The table's rounds of the month in the database."""
    return slice_rows(PARTS[0], table, month).count()


def _files(manifest: dict) -> str:
    files = manifest["files"].values()
    size = sum(entry["bytes"] for entry in files)
    return f"{len(files)} files, {size:,} bytes"


def _totals(manifest: dict) -> str:
    totals = manifest["totals"]
    return (
        f"rounds {totals['rounds']:,}, bets {totals['bets']:,}, wagered {totals['wagered']}, "
        f"returned {totals['returned']}, adjustments {totals['adjustments']}, refunds {totals['refunds']}"
    )
