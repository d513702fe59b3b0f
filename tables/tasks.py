"""Celery tasks of the tables app."""

from celery import shared_task
from django.db import OperationalError

from .models import TableConfiguration
from .odds import configuration_odds_compute


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def configuration_odds(configuration_id: int) -> dict:
    """Work out and keep a configuration version's theoretical RTP (never twice for one version)."""
    configuration = TableConfiguration.objects.get(pk=configuration_id)
    odds = configuration_odds_compute(configuration=configuration)
    return {"configuration": configuration_id, "rtp": odds.figures["rtp"], "seconds": odds.seconds}
