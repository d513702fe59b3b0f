"""python manage.py odds_refresh: work out now the figures of every configuration version that has none,
or only figures of an older method of the odds engine (what Celery beat does a few minutes at a time)."""

from django.core.management.base import BaseCommand

from tables.odds import configuration_odds_recompute, configurations_to_refresh


class Command(BaseCommand):
    help = (
        "Work out the theoretical RTP of every configuration version whose figures are missing or of an "
        "older method, one after the other, and keep them (replacing the older figures)."
    )

    def handle(self, *args, **options):
        waiting = configurations_to_refresh().count()
        self.stdout.write(f"{waiting} configuration version(s) to work out.")
        for odds in configuration_odds_recompute():
            how = (
                f"copied from {odds.copied_from.configuration}"
                if odds.copied_from
                else f"{odds.seconds:.1f} s"
            )
            figures = odds.figures
            self.stdout.write(
                f"{odds.configuration}: main {figures['rtp']['main']} %, automatic play "
                f"{figures['auto_play']} % ({how})"
            )
        self.stdout.write("Done: every configuration version has figures of the present method.")
