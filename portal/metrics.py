"""GET /metrics: the figures for Prometheus (issue 56), to the addresses PITBOSS_METRICS_ADDRESSES allows.

Two parts. What the processes counted (core.metrics: requests, rounds and bets stored, refusals,
tasks), summed over every process's files under PROMETHEUS_MULTIPROC_DIR, or this process's own
without it. And what the database tells at the moment of the scrape (`ScrapeFigures`): the outbox's
depth and the age of its oldest message, the alerts unresolved by monitor, the replica's lag and
whether it is up (absent without a replica), and the seconds since each queue's worker last beat. A
figure whose query fails (the database away) is left out; the rest are still served.

The client is told apart by REMOTE_ADDR alone: a proxy in front must not forward /metrics (behind it
every request would come from the proxy's address). Any other address is answered 404, as if there
were no such page. No sign-in and no session; not an API view, so never throttled; never cached.
"""

import ipaddress

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily

from alerts.choices import UNRESOLVED, Monitor
from alerts.models import Alert
from core import metrics as names
from core.metrics import process_registry
from core.replica import replica
from outbox import figures


def outbox_figures():
    count, oldest = figures.pending()
    yield GaugeMetricFamily(names.OUTBOX_PENDING, "Outbox messages the broker has not taken.", value=count)
    yield GaugeMetricFamily(
        names.OUTBOX_OLDEST_AGE,
        "Seconds since the oldest unsent outbox message was written; 0 when none.",
        value=oldest or 0,
    )


def alert_figures():
    unresolved = dict(
        Alert.objects.filter(status__in=UNRESOLVED).values_list("monitor").annotate(count=Count("id"))
    )
    family = GaugeMetricFamily(
        names.ALERTS_OPEN, "Alerts not resolved (open or acknowledged), by monitor.", labels=["monitor"]
    )
    for monitor in Monitor.values:
        family.add_metric([monitor], unresolved.get(monitor, 0))
    yield family


def replica_figures():
    state, lag = replica.state()
    if state == "none":
        return
    yield GaugeMetricFamily(
        names.REPLICA_UP, "1 while the read replica answers, else 0.", value=int(state != "down")
    )
    if lag is not None:
        yield GaugeMetricFamily(
            names.REPLICA_LAG, "Bytes of WAL the replica received but has not replayed.", value=lag
        )


def worker_figures():
    family = GaugeMetricFamily(
        names.WORKER_LAST_BEAT_AGE,
        "Seconds since a worker last ran the queue's heartbeat (absent: never).",
        labels=["queue"],
    )
    for queue, age in figures.beat_ages().items():
        if age is not None:
            family.add_metric([queue], age)
    yield family


class ScrapeFigures:
    """prometheus_client's custom collector: the database's figures, read at each scrape."""

    parts = (outbox_figures, alert_figures, replica_figures, worker_figures)

    def collect(self):
        for part in self.parts:
            try:
                families = list(part())
            except DatabaseError:
                continue  # the database is away: the processes' counts are still worth serving
            yield from families


scrape_registry = CollectorRegistry()
scrape_registry.register(ScrapeFigures())


def allowed(address: str | None) -> bool:
    try:
        client = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    if isinstance(client, ipaddress.IPv6Address) and client.ipv4_mapped is not None:
        client = client.ipv4_mapped  # an IPv4 client of a server listening on IPv6
    return any(client in network for network in settings.PITBOSS_METRICS_ADDRESSES)


@require_safe
def metrics(request):
    if not allowed(request.META.get("REMOTE_ADDR")):
        raise Http404("No such page.")
    body = generate_latest(process_registry()) + generate_latest(scrape_registry)
    response = HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
    patch_cache_control(response, no_store=True)
    return response
