"""GET /metrics (portal/metrics.py) in this process, on its default registry (no
PROMETHEUS_MULTIPROC_DIR; tests/metrics/test_gunicorn.py has the multiprocess one): who may read it,
requests counted by view, rounds and bets counted by game once stored, the database's figures read
at the scrape. Counters live as long as the process, so each test compares before and after."""

import copy
import io
import ipaddress
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.utils import timezone

from alerts.choices import AlertStatus, Monitor, Severity
from alerts.models import Alert
from core.env import env_networks
from outbox.models import OutboxMessage
from outbox.tasks import worker_beat_task
from rounds.ingest import rounds_ingest
from rounds.models import Round
from tables.models import Table
from tests import factories
from tests.api_support import client_as
from tests.fixtures import round_document
from tests.metrics.support import present, samples, value

pytestmark = pytest.mark.django_db
URL = "/metrics"


def scrape(address: str = "127.0.0.1") -> dict:
    response = Client(REMOTE_ADDR=address).get(URL)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    return samples(response.content.decode())


def test_served_to_loopback_only_by_default_and_never_kept():
    for address in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
        response = Client(REMOTE_ADDR=address).get(URL)
        assert response.status_code == 200, address
        assert "no-store" in response["Cache-Control"]
        assert not response.cookies  # no session, no CSRF cookie
    for address in ("203.0.113.9", "10.1.2.3", "::2", "not-an-address"):
        assert Client(REMOTE_ADDR=address).get(URL).status_code == 404, address
    assert Client().head(URL).status_code == 200
    assert Client().post(URL).status_code == 405


def test_the_setting_names_addresses_and_networks(settings):
    settings.PITBOSS_METRICS_ADDRESSES = env_networks("X", [], environ={"X": "10.0.0.0/8, 2001:db8::/32"})
    assert Client(REMOTE_ADDR="10.200.0.7").get(URL).status_code == 200
    assert Client(REMOTE_ADDR="2001:db8::5").get(URL).status_code == 200
    assert Client(REMOTE_ADDR="127.0.0.1").get(URL).status_code == 404  # no longer allowed
    assert env_networks("X", ["127.0.0.1", "::1"], environ={}) == [
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("::1/128"),
    ]
    for bad in ("10.0.0.1/8", "localhost", "10.0.0.0/8,,::1"):
        with pytest.raises(ImproperlyConfigured, match="X"):
            env_networks("X", [], environ={"X": bad})


def test_requests_are_counted_and_timed_by_view_method_and_status():
    before = scrape()
    client = Client()
    for _ in range(3):
        assert client.get("/healthz").status_code in (200, 503)
    assert client.get("/no/such/page/").status_code == 404
    assert client.generic("BREW", "/healthz").status_code == 405
    after = scrape()

    def grew(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    healthz = sum(
        grew("pitboss_http_requests_total", view="healthz", method="GET", status=s) for s in ("200", "503")
    )
    assert healthz == 3
    assert grew("pitboss_http_requests_total", view="unresolved", method="GET", status="404") == 1
    assert grew("pitboss_http_requests_total", view="healthz", method="other", status="405") == 1
    assert grew("pitboss_http_request_duration_seconds_count", view="healthz") == 4
    assert grew("pitboss_http_request_duration_seconds_sum", view="healthz") > 0
    # The scrape before this one was counted too, under its own view's name.
    assert grew("pitboss_http_requests_total", view="metrics", method="GET", status="200") == 1


@pytest.fixture
def game_server(db):
    call_command("seed_demo", stdout=io.StringIO())
    return client_as("game_server")


def test_rounds_and_bets_stored_are_counted_by_game_and_resends_not(
    game_server, django_capture_on_commit_callbacks
):
    document = round_document("deluxe-split-double-play-behind")
    game = Table.objects.get(code=document["table"]).game
    before = scrape()
    with django_capture_on_commit_callbacks(execute=True):
        assert game_server.post("/api/rounds/", document, format="json").status_code == 201
        assert game_server.post("/api/rounds/", document, format="json").status_code == 200  # a resend
        changed = copy.deepcopy(document)
        changed["bets"][0]["returned"] = "1.00"
        assert game_server.post("/api/rounds/", changed, format="json").status_code == 409
        assert game_server.post("/api/rounds/", {"round_id": "x"}, format="json").status_code == 400
    after = scrape()

    def grew(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("pitboss_rounds_ingested_total", game=game) == 1
    assert grew("pitboss_bets_ingested_total", game=game) == len(document["bets"]) > 1
    assert grew("pitboss_rounds_refused_total", reason="conflict") == 1
    assert grew("pitboss_rounds_refused_total", reason="format") == 1


class RolledBack(Exception):
    pass


def test_a_batch_rolled_back_counts_nothing(game_server, django_capture_on_commit_callbacks):
    document = round_document("deluxe-split-double-play-behind")
    before = scrape()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RolledBack), transaction.atomic():
            assert rounds_ingest(documents=[document])[0].created
            raise RolledBack
    assert callbacks == []
    assert not Round.objects.exists()
    unchanged = scrape()
    assert value(unchanged, "pitboss_rounds_ingested_total", game="deluxe") == value(
        before, "pitboss_rounds_ingested_total", game="deluxe"
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert rounds_ingest(documents=[document])[0].created
    counted = scrape()
    assert value(counted, "pitboss_rounds_ingested_total", game="deluxe") == (
        value(before, "pitboss_rounds_ingested_total", game="deluxe") + 1
    )


def test_the_database_figures_are_read_at_the_scrape(db):
    table = factories.table("MET1")
    OutboxMessage.objects.update(sent_at=timezone.now())  # the table's own tasks, as if the broker took them
    empty = scrape()
    assert value(empty, "pitboss_outbox_pending") == 0
    assert value(empty, "pitboss_outbox_oldest_age_seconds") == 0
    assert {value(empty, "pitboss_alerts_open", monitor=m) for m in Monitor.values} == {0}
    assert not present(empty, "pitboss_worker_last_beat_age_seconds")  # no worker ever beat
    assert not present(empty, "pitboss_replica_up")  # no replica configured
    assert not present(empty, "pitboss_replica_lag_bytes")

    message = OutboxMessage.objects.create(task="outbox.tasks.outbox_drain_task")
    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    OutboxMessage.objects.create(task="outbox.tasks.outbox_drain_task", sent_at=timezone.now())  # sent
    now = timezone.now()
    for monitor, status in [
        (Monitor.SILENT_TABLE, AlertStatus.OPEN),
        (Monitor.BIG_WIN, AlertStatus.ACKNOWLEDGED),
        (Monitor.RTP_DRIFT, AlertStatus.RESOLVED),
    ]:
        Alert.objects.create(
            table=table,
            monitor=monitor,
            status=status,
            severity=Severity.WARNING,
            summary="seen",
            measure=Decimal(1),
            threshold=Decimal(1),
            first_seen=now,
            last_seen=now,
            acknowledged_at=now if status != AlertStatus.OPEN else None,
            resolved_at=now if status == AlertStatus.RESOLVED else None,
            resolution_note="maintenance" if status == AlertStatus.RESOLVED else "",
        )
    worker_beat_task.delay("celery")  # eager here; tests/metrics/test_task_metrics.py has a worker
    figures = scrape()
    assert value(figures, "pitboss_outbox_pending") == 1
    assert 600 <= value(figures, "pitboss_outbox_oldest_age_seconds") < 3600
    assert value(figures, "pitboss_alerts_open", monitor="silent_table") == 1
    assert value(figures, "pitboss_alerts_open", monitor="big_win") == 1
    assert value(figures, "pitboss_alerts_open", monitor="rtp_drift") == 0  # resolved
    assert 0 <= value(figures, "pitboss_worker_last_beat_age_seconds", queue="celery") < 300
    assert ("pitboss_worker_last_beat_age_seconds", frozenset({("queue", "notifications")})) not in figures
