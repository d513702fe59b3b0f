"""python manage.py history_partition: partition an existing database's round history by month.

Migration rounds/0017 partitions a new database's empty tables itself; one that already holds
rounds is left as it was, for this command. Per table: the partitioned table is made beside the old
one, the rows are copied in batches of --batch, each batch committed on its own (Pitboss keeps
running meanwhile; stopped or interrupted, the command goes on from where it stopped when run
again), then a short step under a lock that stops writes to that table copies what was written or
changed since and puts the new table in the old one's place.

--month YYYY-MM (repeatable) makes those months' partitions where missing and does nothing else: the
beat task makes the coming months', so a past month needs it only when a round of it arrives that was
never archived (ingest refuses the round, naming this command, rather than let it land in the
default partition and keep the month from being archived). A month the archive holds is refused:
archive_restore makes its partitions, with its rows.
"""

from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from rounds.management.months import month_argument
from rounds.partition_convert import BATCH, is_prepared, partitioned_prepare, partitioned_swap, rows_copy
from rounds.partitions import PARTITIONED, is_partitioned, partitions_ensure
from rounds.recall import archived_month
from tables.models import Table


class Command(BaseCommand):
    help = "Partition the round tables of an existing PostgreSQL database by month, in batches; resumable."

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch", type=int, default=BATCH, help=f"rows a transaction (default {BATCH:,})"
        )
        parser.add_argument(
            "--batches", type=int, default=None, help="stop after this many batches (run again to go on)"
        )
        parser.add_argument(
            "--month",
            action="append",
            type=month_argument,
            help="YYYY-MM: make this month's partitions where missing, and nothing else (repeatable)",
        )

    def handle(self, *args, batch, batches, month, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Round history is partitioned on PostgreSQL only; this database is not one.")
        if month:
            return self.months_make(month)
        if batch < 1:
            raise CommandError("--batch must be at least 1.")
        left = batches
        for table, key in PARTITIONED.items():
            if is_partitioned(table):
                self.stdout.write(f"{table}: partitioned")
                continue
            if not is_prepared(table):
                with transaction.atomic():
                    partitioned_prepare(table, key, timezone.localdate())
                self.stdout.write(f"{table}: partitioned table made beside it")
            copied = 0
            while left is None or left > 0:
                with transaction.atomic():
                    rows = rows_copy(table, batch)
                if left is not None:
                    left -= 1
                copied += rows
                if rows < batch:
                    break
            else:
                self.stdout.write(
                    f"{table}: {copied:,} rows copied; stopped after --batches, run again to go on"
                )
                return
            with transaction.atomic():
                partitioned_swap(table)
            self.stdout.write(self.style.SUCCESS(f"{table}: {copied:,} rows copied, partitioned"))

    def months_make(self, months: list[date]) -> None:
        """Each month's partitions, made where missing; a month the archive holds or takes is refused."""
        if not all(is_partitioned(table) for table in PARTITIONED):
            raise CommandError("Round history is not partitioned yet: run history_partition without --month.")
        for month in months:
            for table in Table.objects.order_by("code"):
                place = archived_month(table, month)
                if place is not None and not place.unpartitioned:
                    raise CommandError(
                        f"--month: {month:%Y-%m} of {place.table_code} is archived or being archived; "
                        f"nothing was made. {place.restore_command or 'Its archive was deleted.'}"
                    )
        created = partitions_ensure(months)
        for month in months:
            self.stdout.write(self.style.SUCCESS(f"{month:%Y-%m}: partitions there"))
        self.stdout.write(f"{len(created)} partition(s) made: {', '.join(created) or 'none needed'}")
