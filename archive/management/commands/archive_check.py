"""python manage.py archive_check [<table code> <YYYY-MM>] [--sign]: check the archived months' files
against their manifests, every byte (archive.month_check), and with --sign sign the manifests written
before PITBOSS_ARCHIVE_MANIFEST_KEY was set, each once its files match it.

Every month with files in the archive (exported, verified or dropped), or the one named. A month
whose archive is damaged or missing is named with what differs, and the command ends with status 1:
put the month's files back from the archive's copy, then run it again. Recall refuses such a month
(409 or 503) until its files match.
"""

from django.core.management.base import BaseCommand, CommandError

from archive.errors import ArchiveError
from archive.models import ArchivedMonth
from archive.month_check import CHECKED, month_check
from rounds.management.months import month_argument


class Command(BaseCommand):
    help = "Check archived months' files against their manifests; --sign signs the unsigned manifests."

    def add_arguments(self, parser):
        parser.add_argument("table", nargs="?", help="a casino table's code, as DLX1 (with the month)")
        parser.add_argument("month", nargs="?", help="the month, YYYY-MM")
        parser.add_argument(
            "--sign", action="store_true", help="sign each unsigned manifest whose files all match it"
        )

    def handle(self, *args, table, month, sign, **options):
        records = ArchivedMonth.objects.filter(status__in=CHECKED).select_related("table")
        if table is not None:
            if month is None:
                raise CommandError("Name the month too (YYYY-MM), or neither table nor month.")
            records = records.filter(table__code=table, month=month_argument(month))
            if not records.exists():
                raise CommandError(f"No archived month {table} {month} (exported, verified or dropped).")
        damaged = 0
        for record in records.order_by("month", "table__code"):
            label = f"{record.table.code} {record.month:%Y-%m}"
            try:
                checked = month_check(record, sign=sign)
            except ArchiveError as error:
                raise CommandError(str(error)) from None
            if checked.problems:
                damaged += 1
                self.stderr.write(f"{label}: DAMAGED: " + "; ".join(checked.problems))
                continue
            files = len(record.manifest["files"])
            done = "; manifest signed" if checked.signed else ""
            self.stdout.write(self.style.SUCCESS(f"{label}: {files} files match the manifest{done}"))
        if damaged:
            raise CommandError(
                f"{damaged} month(s) damaged: put their files back from the archive's copy, then run "
                "archive_check again."
            )
