"""python manage.py archive_restore <table code> <YYYY-MM>: read one archived month of one casino table
back into PostgreSQL (archive.restore), to correct one of its rounds.

The month's verified Parquet files are checked against their manifest, copied into the month's
partitions (made again where dropped), every row as it was with its id, and the database's counts and
sums held against the manifest; any difference leaves the database as it was. One archive command at
a time (archive_months' advisory lock). The month stays past the hot window: the next archive_months
archives it again.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from archive.errors import ArchiveError
from archive.management.commands.archive_months import LOCK
from archive.restore import month_restore
from rounds.management.months import month_argument
from tables.models import Table


class Command(BaseCommand):
    help = "Restore an archived month of one casino table's rounds into PostgreSQL (to correct a round)."

    def add_arguments(self, parser):
        parser.add_argument("table", help="the casino table's code, as DLX1")
        parser.add_argument("month", help="the month, YYYY-MM")

    def handle(self, *args, table, month, **options):
        month = month_argument(month)
        found = Table.objects.filter(code=table).first()
        if found is None:
            raise CommandError(f"No table {table!r}.")
        if connection.vendor != "postgresql":
            raise CommandError("Round history is archived on PostgreSQL only; this database is not one.")
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [LOCK])
            if not cursor.fetchone()[0]:
                raise CommandError("archive_months or another restore is running; nothing was done.")
        try:
            record = month_restore(found, month)
        except ArchiveError as error:
            raise CommandError(str(error)) from None
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK])
        files = record.manifest["files"]
        rows = ", ".join(f"{name} {entry['rows']:,}" for name, entry in files.items())
        totals = record.manifest["totals"]
        self.stdout.write(
            self.style.SUCCESS(
                f"{found.code} {month:%Y-%m} restored from {record.archive_url}: {rows}; wagered "
                f"{totals['wagered']}, returned {totals['returned']}, adjustments {totals['adjustments']}, "
                f"refunds {totals['refunds']}: equal to the manifest."
            )
        )
        self.stdout.write(
            "Its rounds are in the database again and may be corrected; the next archive_months "
            "archives the month again."
        )
