from django.core.management.base import BaseCommand

from alerts.monitors import monitors_start_after_latest


class Command(BaseCommand):
    help = (
        "Start the round monitors (RTP drift, wins, ingest lag) after the latest round stored: rounds "
        "loaded in bulk before (a backfill, a restore) are not read as if they had just arrived."
    )

    def handle(self, *args, **options):
        round_pk = monitors_start_after_latest()
        self.stdout.write(f"The round monitors read rounds after round #{round_pk}.")
