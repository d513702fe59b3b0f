"""python manage.py live_figures_rebuild [--day D] [--table CODE ...]: write a gaming day's live figures
again from its rounds, bets, findings and corrections (the figures are kept as rounds arrive; rounds
stored before they were kept, by a version that kept none, have none)."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.gaming_day import gaming_day_of
from rounds.live_figures import live_figures_rebuild
from tables.models import Table


class Command(BaseCommand):
    help = (
        "Write a gaming day's live figures (the floor's) again from its rounds; by default today's, "
        "every table's."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--day", type=date.fromisoformat, help="the gaming day, YYYY-MM-DD (default: today's)"
        )
        parser.add_argument(
            "--table", action="append", default=[], help="a table code (repeat; default: all)"
        )

    def handle(self, *args, **options):
        day = options["day"] or gaming_day_of(timezone.now())
        tables = Table.objects.order_by("code")
        if options["table"]:
            tables = tables.filter(code__in=options["table"])
            missing = sorted(set(options["table"]) - set(tables.values_list("code", flat=True)))
            if missing:
                raise CommandError(f"No table {', '.join(missing)}.")
        for table in tables:
            rows = live_figures_rebuild(table_pk=table.pk, day=day)
            self.stdout.write(f"{table.code} {day:%Y-%m-%d}: {rows} rows of live figures written")
