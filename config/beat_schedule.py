"""Celery beat's schedule (settings.CELERY_BEAT_SCHEDULE), kept apart from the settings it is read into.

Each entry expires a little before its next run comes round, so that a worker back from an outage
finds no pile of the same task waiting for it: the tasks decide what is due, the schedule only has
to come round.
"""


def every(seconds: int, task: str, *, expires: int, args: tuple = (), queue: str | None = None) -> dict:
    """An entry of the schedule: `task` every `seconds`, expiring `expires` seconds after it is sent."""
    options = {"expires": expires} | ({"queue": queue} if queue else {})
    return {"task": task, "schedule": seconds, "args": args, "options": options}


def beat_schedule(queues: list[str], demo_dealing: int) -> dict:
    schedule = {
        # Tasks whose change committed while the broker was down (outbox.models).
        "outbox-drain": every(60, "outbox.tasks.outbox_drain_task", expires=55),
        # Round history's partitions for the coming months, made well before a round needs them.
        "round-partitions-ahead": every(6 * 60 * 60, "rounds.tasks.partitions_ahead_task", expires=60 * 60),
        "player-totals-catch-up": every(60, "rounds.tasks.player_totals_catch_up_task", expires=55),
        # Every 15 minutes the task looks whether the last gaming day has closed and starts its daily
        # reports once.
        "daily-reports-when-day-closed": every(
            15 * 60, "reports.tasks.daily_reports_when_day_closed", expires=14 * 60
        ),
        # The monitors read what arrived since their last run; unacknowledged alerts escalate. Every
        # 15 s, so that a round is judged within about 25 s of its arrival (ROUND_SETTLE, 10 s) and its
        # alert's email sent within a minute (BENCHMARKS.md, "Notifications: ingest to email").
        "alerts-monitors": every(15, "alerts.tasks.monitors_run_task", expires=14),
        "alerts-escalate": every(60, "alerts.tasks.alerts_escalate_task", expires=55),
        # Deliveries whose send failed, again once their backoff is over (notifications.services).
        "notifications-retry": every(60, "notifications.tasks.deliveries_retry_task", expires=55),
        # After each gaming day closes: the ledger's heads signed as of its end, then the ledger
        # verified once for the day (ledger.tasks).
        "ledger-daily": every(15 * 60, "ledger.tasks.ledger_daily_task", expires=14 * 60),
        # Configuration versions without figures of the odds engine's present method (after a change
        # of method, or a task lost with a broker outage): worked out, a few minutes' worth per run.
        "configuration-odds-refresh": every(
            10 * 60, "tables.tasks.configuration_odds_refresh", expires=9 * 60
        ),
    }
    # Each queue's heartbeat (outbox.tasks.worker_beat_task): how long since a worker took one is told
    # by /healthz and /metrics.
    for queue in queues:
        schedule[f"worker-beat-{queue}"] = every(
            30, "outbox.tasks.worker_beat_task", expires=25, args=(queue,), queue=queue
        )
    # make demo's game servers: a round at every open demo table every `demo_dealing` seconds.
    if demo_dealing:
        schedule["demo-deal"] = every(demo_dealing, "demo.tasks.demo_deal_task", expires=demo_dealing)
    return schedule
