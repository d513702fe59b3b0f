"""The demo's game servers, live: each call deals the next round of every open demo table, opened and
closed now, through the same ingest as a game server's rounds, so that the floor moves while the demo
runs (make demo: Celery beat calls it every PITBOSS_DEMO_DEALING seconds; off elsewhere).

Each table deals today's shoes in turn (`<day>-LIVE-<table>-<n>`): a shoe is simulated again from
its number (the same seed deals the same cards), the next of its rounds is taken, and its times are
moved to now. Who deals follows the demo day's shifts. At CLS1 the dealer on duty slips now and then
(SLIPS: one card too many for the dealer, every SLIP_EVERY-th round of a shoe), so that the floor's
dealer-findings monitor has something to find within minutes of `make demo`."""

import json
import random
from datetime import datetime, timedelta

from blackjack.simulate import simulate_shoe
from core.gaming_day import gaming_day_of
from rounds.ingest import round_ingest
from rounds.models import Round
from tables.choices import TableStatus
from tables.models import Table
from tables.selectors import configuration_in_force

from .management.commands.demo_day import PLAYERS, dealer_shifts

LIVE_BOUNDLESS_PLAYERS = 60  # fewer than the demo day's 300: a round every few seconds on a laptop
ROUND_SECONDS = 40  # how long a round lasts, as the round says
SLIPS = {"CLS1"}
SLIP_EVERY = 6
SLIP_CARD = "2C"


def demo_deal(now: datetime) -> list[Round]:
    """The next round at each open demo table, ingested; returns them."""
    dealt = []
    for table in Table.objects.filter(code__in=PLAYERS, status=TableStatus.OPEN).order_by("code"):
        document = _next_round(table, now)
        if document is not None:
            dealt.append(round_ingest(document=document).round)
    return dealt


def _next_round(table: Table, now: datetime) -> dict | None:
    configuration = configuration_in_force(table, now)
    if configuration is None:
        return None
    day = gaming_day_of(now)
    players = LIVE_BOUNDLESS_PLAYERS if table.code == "BND1" else PLAYERS[table.code]
    for number in range(1, 1000):
        shoe_id = f"{day:%Y%m%d}-LIVE-{table.code}-{number}"
        played = Round.objects.filter(shoe__code=shoe_id).count()
        documents = simulate_shoe(
            configuration.rule_set,
            table=table.code,
            shoe_id=shoe_id,
            players=players,
            rng=random.Random(f"{shoe_id}"),
            start=now,
            dealt_by=dealer_shifts(table.code, day),
        )
        if played < len(documents):
            return _played_now(documents[played], now)
    return None


def _played_now(document: dict, now: datetime) -> dict:
    document = json.loads(json.dumps(document))  # as a game server's JSON arrives
    now = now.replace(microsecond=0)
    document["opened_at"] = (now - timedelta(seconds=ROUND_SECONDS)).isoformat().replace("+00:00", "Z")
    document["closed_at"] = now.isoformat().replace("+00:00", "Z")
    document["dealt_by"] = dealer_shifts(document["table"], gaming_day_of(now))(now)
    if document["table"] in SLIPS and document["number"] % SLIP_EVERY == 0:
        document["dealer"].append(SLIP_CARD)
    return document
