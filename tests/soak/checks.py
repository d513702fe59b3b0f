"""After the soak: wait for the work to drain, then check that nothing was lost or done twice.

- Every round posted is stored exactly once, with the bets it was sent with; nothing else is stored.
- Every alert was raised once: no two alerts of one table, monitor and subject; one "raised" event
  each; one delivery of an event to each subscriber or endpoint; the webhook receiver was sent each
  webhook delivery exactly once, and only those.
- Every task's effect once: the outbox's messages all sent; the players' totals (rounds/totals.py,
  added by the catch-up task) equal the sums of the stored bets; the ledger verifies (its verify
  service, as `manage.py ledger_verify`).
- The metrics agree: /metrics, summed over the web workers' files, counts the rounds and bets stored,
  and no refusal.

Each check is a dict: name, ok, and its figures; `problems` names what went wrong.
"""

import time
from collections import Counter

from django.db import close_old_connections, connection
from django.db.models import Count, Max

from .game_servers import Sent

SOAK_ROUNDS = "SOAK-"


def drained(deadline_seconds: float) -> dict:
    """Wait until the outbox is empty, the monitors have read the last round, the player totals have
    caught up and no delivery is waiting; the catch-up and the outbox's drain are asked of the worker
    now and then (beat asks every minute). Returns what was still waiting at the end (all 0: drained)."""
    from alerts.models import MonitorCursor
    from config.celery import app
    from notifications.choices import DeliveryStatus
    from notifications.models import Delivery
    from outbox.models import OutboxMessage
    from rounds.models import PlayerTotalsPending, Round

    deadline = time.monotonic() + deadline_seconds
    asked = 0.0
    while True:
        close_old_connections()
        if time.monotonic() - asked > 10:
            app.send_task("rounds.tasks.player_totals_catch_up_task")
            app.send_task("outbox.tasks.outbox_drain_task")
            asked = time.monotonic()
        last_round = Round.objects.aggregate(last=Max("pk"))["last"] or 0
        cursor = MonitorCursor.objects.filter(name="rounds").values_list("round_pk", flat=True).first() or 0
        waiting = {
            "outbox_unsent": OutboxMessage.objects.filter(sent_at__isnull=True).count(),
            "rounds_not_yet_monitored": Round.objects.filter(pk__gt=cursor, pk__lte=last_round).count(),
            "rounds_awaiting_player_totals": PlayerTotalsPending.objects.count(),
            "deliveries_waiting": Delivery.objects.filter(
                status__in=(DeliveryStatus.PENDING, DeliveryStatus.RETRYING)
            ).count(),
        }
        if not any(waiting.values()) or time.monotonic() > deadline:
            return waiting
        time.sleep(2)


def rounds_check(sent: list[Sent]) -> dict:
    """Every round posted stored once, with its bets; none stored that was not posted."""
    from rounds.models import Bet, Round

    posted: dict[str, int] = {}
    for part in sent:
        posted.update(part.rounds)
    stored = Counter(
        Round.objects.filter(round_id__startswith=SOAK_ROUNDS).values_list("round_id", flat=True)
    )
    bets = dict(
        Bet.objects.filter(round__round_id__startswith=SOAK_ROUNDS)
        .values("round__round_id")
        .annotate(n=Count("id"))
        .values_list("round__round_id", "n")
    )
    missing = sorted(set(posted) - set(stored))
    unexpected = sorted(set(stored) - set(posted))
    doubled = sorted(round_id for round_id, count in stored.items() if count > 1)
    wrong_bets = sorted(r for r, count in posted.items() if r in stored and bets.get(r, 0) != count)
    problems = [
        f"{len(found)} {what}: {', '.join(found[:5])}"
        for what, found in (
            ("rounds posted but not stored", missing),
            ("rounds stored but never posted", unexpected),
            ("rounds stored twice", doubled),
            ("rounds whose bets differ from those sent", wrong_bets),
        )
        if found
    ]
    return {
        "name": "every round stored exactly once",
        "ok": not problems,
        "rounds_posted": len(posted),
        "rounds_stored": sum(stored.values()),
        "bets_posted": sum(posted.values()),
        "bets_stored": sum(bets.values()),
        "problems": problems,
    }


def alerts_check(webhook_received: Counter, webhook_endpoint: int) -> dict:
    from alerts.choices import AlertEventKind
    from alerts.models import Alert, AlertEvent
    from notifications.choices import Channel, DeliveryStatus
    from notifications.models import Delivery

    problems = []
    twice = Alert.objects.values("table__code", "monitor", "subject").annotate(n=Count("id")).filter(n__gt=1)
    problems += [
        f"{row['n']} alerts of {row['table__code']} {row['monitor']} {row['subject']!r}" for row in twice
    ]
    raised = Counter(AlertEvent.objects.filter(kind=AlertEventKind.RAISED).values_list("alert_id", flat=True))
    alerts = list(Alert.objects.values_list("pk", flat=True))
    problems += [f"alert {pk} raised {raised[pk]} times" for pk in alerts if raised[pk] != 1]
    deliveries = Delivery.objects.filter(event__isnull=False)
    for field in ("user", "endpoint"):
        doubled = (
            deliveries.filter(**{f"{field}__isnull": False})
            .values("event", field)
            .annotate(n=Count("id"))
            .filter(n__gt=1)
        )
        problems += [
            f"event {row['event']} delivered {row['n']} times to {field} {row[field]}" for row in doubled
        ]
    webhooks = deliveries.filter(channel=Channel.WEBHOOK, endpoint=webhook_endpoint)
    sent = set(webhooks.filter(status=DeliveryStatus.SENT).values_list("pk", flat=True))
    problems += [f"webhook delivery {pk} received {n} times" for pk, n in webhook_received.items() if n != 1]
    problems += [f"webhook delivery {pk} received, not recorded sent" for pk in set(webhook_received) - sent]
    problems += [f"webhook delivery {pk} recorded sent, not received" for pk in sent - set(webhook_received)]
    not_sent = deliveries.exclude(status=DeliveryStatus.SENT).count()
    if not_sent:
        problems.append(f"{not_sent} deliveries not sent")
    return {
        "name": "every alert raised once",
        "ok": not problems,
        "alerts": len(alerts),
        "by_monitor": dict(Counter(Alert.objects.values_list("monitor", flat=True))),
        "deliveries": deliveries.count(),
        "webhooks_received": sum(webhook_received.values()),
        "problems": problems[:20],
    }


PLAYER_TOTALS_AGAINST_BETS = """
WITH summed AS (
    SELECT b.gaming_day AS day, r.table_id, b.kind, b.player_id, count(*) AS bets, sum(b.stake) AS stakes
    FROM {bet} b JOIN {round} r ON r.id = b.round_id AND r.gaming_day = b.gaming_day
    WHERE r.status = 'completed'
    GROUP BY 1, 2, 3, 4
)
SELECT count(*) FROM summed FULL JOIN {total} t
    ON t.day = summed.day AND t.table_id = summed.table_id AND t.kind = summed.kind
    AND t.player_id = summed.player_id
WHERE summed.bets IS DISTINCT FROM t.bets OR summed.stakes IS DISTINCT FROM t.stakes
"""


def task_effects_check() -> dict:
    from ledger.services import verification_run
    from outbox.models import OutboxMessage
    from rounds.models import Bet, PlayerDayTotal, PlayerTotalsPending, Round

    problems = []
    unsent = OutboxMessage.objects.filter(sent_at__isnull=True).count()
    if unsent:
        problems.append(f"{unsent} outbox messages never sent")
    pending = PlayerTotalsPending.objects.count()
    if pending:
        problems.append(f"{pending} rounds' bets not yet in the player totals")
    with connection.cursor() as cursor:
        cursor.execute(
            PLAYER_TOTALS_AGAINST_BETS.format(
                bet=Bet._meta.db_table, round=Round._meta.db_table, total=PlayerDayTotal._meta.db_table
            )
        )
        differing = cursor.fetchone()[0]
    if differing:
        problems.append(f"{differing} player totals differ from the sums of their bets")
    record, ledger_problems = verification_run(by="soak")
    problems += [f"ledger: {problem}" for problem in ledger_problems[:10]]
    return {
        "name": "every task's effect once",
        "ok": not problems,
        "outbox_messages": OutboxMessage.objects.count(),
        "outbox_messages_tried_again": OutboxMessage.objects.filter(attempts__gt=1).count(),
        "player_totals_rows": PlayerDayTotal.objects.count(),
        "ledger_chains_verified": list(record.chains),
        "problems": problems,
    }


def metrics_check(base: str, stored: dict) -> dict:
    """/metrics (the web workers' files summed) against the database: `stored` is rounds_check's."""
    import requests
    from prometheus_client.parser import text_string_to_metric_families

    totals = Counter()
    for family in text_string_to_metric_families(requests.get(f"{base}/metrics", timeout=60).text):
        for sample in family.samples:
            if sample.name.endswith("_total"):
                totals[sample.name] += sample.value
    counted = {
        "rounds_counted": int(totals["pitboss_rounds_ingested_total"]),
        "bets_counted": int(totals["pitboss_bets_ingested_total"]),
        "refusals_counted": int(totals["pitboss_rounds_refused_total"]),
    }
    problems = [
        f"{what}: {counted[mine]:,} counted, {stored[theirs]:,} stored"
        for what, mine, theirs in (
            ("rounds", "rounds_counted", "rounds_stored"),
            ("bets", "bets_counted", "bets_stored"),
        )
        if counted[mine] != stored[theirs]
    ]
    if counted["refusals_counted"]:
        problems.append(f"{counted['refusals_counted']} refusals counted, none expected")
    return {"name": "the metrics count what was stored", "ok": not problems, **counted, "problems": problems}
