"""Celery tasks of the tables app."""

from celery import shared_task
from django.db import OperationalError

from outbox.services import task_send_on_commit

from .models import TableConfiguration
from .odds import configuration_odds_compute, configuration_odds_recompute, configurations_to_refresh

# Beat runs the refresh every 10 minutes (settings.CELERY_BEAT_SCHEDULE); a run starts no new version
# after REFRESH_BUDGET seconds, so that runs do not pile up on a worker: the next one carries on.
REFRESH_BUDGET = 8 * 60


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def configuration_odds(configuration_id: int) -> dict:
    """Work out and keep a configuration version's theoretical RTP (again only for a newer method)."""
    configuration = TableConfiguration.objects.get(pk=configuration_id)
    odds = configuration_odds_compute(configuration=configuration)
    return {"configuration": configuration_id, "rtp": odds.figures["rtp"], "seconds": odds.seconds}


def configuration_odds_schedule(configuration: TableConfiguration) -> None:
    """Work out the version's figures in a Celery task once the version is committed (through the
    outbox: a broker outage delays the figures, it never fails the change)."""
    task_send_on_commit(configuration_odds, configuration.pk)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def configuration_odds_refresh() -> dict:
    """Work out the figures of every version that has none, or only figures of an older method."""
    refreshed = [odds.configuration_id for odds in configuration_odds_recompute(seconds=REFRESH_BUDGET)]
    return {"refreshed": refreshed, "left": configurations_to_refresh().count()}
