"""Rounds dealt and ingested as a game server would send them: each arrives `lag` after it ended (the
clock frozen at its arrival), so the monitors see the arrival times they would see live."""

import random
from datetime import UTC, datetime, timedelta

from freezegun import freeze_time

from blackjack.rules import preset
from blackjack.simulate import simulate_shoe
from rounds.ingest import round_ingest
from rounds.models import Round
from tables.models import Table

ARRIVAL = timedelta(seconds=2)


def parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))


def shoe_documents(
    code: str, shoe_id: str, count: int, *, ending: datetime, seed: int = 1, players: int = 6, **options
) -> list[dict]:
    """The first `count` rounds of simulated shoes (`<shoe_id>-1`, `-2`, ...) at table `code`, one shoe
    after the other, the last round ending at about `ending` (a seed deals the same cards at any start)."""
    rules = preset(Table.objects.get(code=code).game)

    def dealt(start: datetime) -> list[dict]:
        documents = []
        for number in range(1, 100):
            shoe = simulate_shoe(
                rules,
                table=code,
                shoe_id=f"{shoe_id}-{number}",
                players=players,
                rng=random.Random(seed * 1000 + number),
                start=start,
                **options,
            )
            documents += shoe
            if len(documents) >= count:
                return documents[:count]
            start = parse(shoe[-1]["closed_at"]) + timedelta(minutes=1)
        raise AssertionError(f"{count} rounds take more than 99 shoes")

    trial = dealt(ending)
    span = parse(trial[-1]["closed_at"]) - ending
    return dealt(ending - span)


def arrive(document: dict, lag: timedelta = ARRIVAL) -> Round:
    """Ingest `document` `lag` after it ended, as the server's clock then says."""
    with freeze_time(parse(document["closed_at"]) + lag):
        return round_ingest(document=document).round


def deal(
    code: str, shoe_id: str, count: int, *, ending: datetime, lag: timedelta = ARRIVAL, **options
) -> list[Round]:
    return [
        arrive(document, lag) for document in shoe_documents(code, shoe_id, count, ending=ending, **options)
    ]


def minute_ago() -> datetime:
    return datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=1)
