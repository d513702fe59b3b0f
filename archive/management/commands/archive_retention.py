"""python manage.py archive_retention: delete the archives of months past retention (archive.retention).

Lists every archived month (the archive alone holds it) that ended more than
PITBOSS_ARCHIVE_RETENTION_YEARS before today's gaming day: its table, month, files, rows and sums from
its manifest, and where it is. Then asks: only "yes" deletes (--yes: without asking; --dry-run: list
only). Each deletion is recorded (ArchiveDeletion, with the operating-system user and --reason) and
logged. A month whose files cannot be deleted is reported and keeps its status, the others go on, and
the command ends with status 1. One archive command at a time (archive_months' advisory lock).
"""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from archive.management.commands.archive_months import LOCK
from archive.retention import (
    month_summary,
    months_delete,
    months_past_retention,
    operator,
    retention_start,
)


class Command(BaseCommand):
    help = "Delete the archives of months older than PITBOSS_ARCHIVE_RETENTION_YEARS, after listing them."
    stealth_options = ("stdin",)  # where the answer is read from (sys.stdin; a test gives its own)

    def add_arguments(self, parser):
        parser.add_argument("--yes", action="store_true", help="delete without asking (unattended)")
        parser.add_argument(
            "--dry-run", action="store_true", help="list what would be deleted; delete nothing"
        )
        parser.add_argument("--reason", default="", help="why, kept with each deletion's record")

    def handle(self, *args, yes, dry_run, reason, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Round history is archived on PostgreSQL only; this database is not one.")
        records = months_past_retention()
        self.stdout.write(self._heading())
        if not records:
            self.stdout.write("No archived month is past retention; nothing to delete.")
            return
        files = size = 0
        for record in records:
            summary = month_summary(record)
            files, size = files + summary.files, size + summary.bytes
            self.stdout.write(
                f"{record.table.code} {record.month:%Y-%m}: {summary.files} files, {summary.bytes:,} bytes; "
                f"rounds {summary.rounds:,}, bets {summary.bets:,}, wagered {summary.wagered}, "
                f"returned {summary.returned}; {record.location}"
            )
        self.stdout.write(f"{len(records)} archived month(s) past retention: {files} files, {size:,} bytes.")
        if dry_run:
            self.stdout.write("Dry run: nothing deleted.")
            return
        if not yes and not self._confirmed(options.get("stdin", sys.stdin)):
            self.stdout.write("Nothing deleted.")
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [LOCK])
            if not cursor.fetchone()[0]:
                raise CommandError("archive_months or archive_restore is running; nothing was deleted.")
        try:
            failures = self._delete(records, reason)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK])
        if failures:
            raise CommandError(f"{failures} month(s) not deleted (see above); they keep their status.")

    def _heading(self) -> str:
        return (
            f"Retention: {settings.PITBOSS_ARCHIVE_RETENTION_YEARS} years; archived months before "
            f"{retention_start():%Y-%m} are deleted."
        )

    def _confirmed(self, stdin) -> bool:
        self.stdout.write(
            "These archives are the only copy of their rounds: deleted, they cannot be restored. "
            "Type yes to delete them: ",
            ending="",
        )
        self.stdout.flush()
        return stdin.readline().strip() == "yes"

    def _delete(self, records, reason: str) -> int:
        deleted = failures = 0
        for outcome in months_delete(records, deleted_by=operator(), reason=reason):
            label = f"{outcome.record.table.code} {outcome.record.month:%Y-%m}"
            if outcome.deletion is None:
                failures += 1
                self.stdout.write(
                    self.style.ERROR(f"{label}: FAILED, kept as dropped, nothing recorded: {outcome.error}")
                )
                continue
            deleted += 1
            self.stdout.write(
                self.style.SUCCESS(
                    f"{label}: deleted ({outcome.deletion.files} files, {outcome.deletion.bytes:,} bytes) "
                    f"by {outcome.deletion.deleted_by}"
                )
            )
        self.stdout.write(f"Done: {deleted} month(s) deleted; {failures} failed.")
        return failures
