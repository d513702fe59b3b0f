"""The game servers: one a table, each posting its table's rounds to POST /api/rounds/ with its own token,
as README's "The API" describes, and noting every round it sent, its bets and how it was answered.

A table's rounds are a pool the simulator deals once (blackjack.simulate: the demo's dealing, with a few
planted wrong payouts), posted again and again as new shoes: each pass renames the shoe, rounds and
bets and moves the round's times to now. The pool is kept as JSON text with markers in their place,
so that a post costs the client a text replacement, not a 5,000-player document's encoding, and the
client leaves the CPU to the server. Planted for the monitors: a dealer at one table slips (one card
too many for the dealer, as demo.live_dealing's CLS1 dealer does), and one table's game server
cancels many rounds, so that dealer-findings and cancellation alerts are raised while the soak runs.

A post that fails for a connection error or a 5xx is sent again, the same body, until it is answered
(a resend of a stored round is answered 200 with it); each retry is counted. Latency is counted from
the moment a post was due (open loop), so a slow server shows as latency, never as fewer posts.
"""

import json
import random
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import islice

import requests

from demo.live_dealing import ROUND_SECONDS, SLIP_CARD, SLIP_EVERY

from .world import SoakTable

PASS_MARK, OPENED_MARK, CLOSED_MARK = "PASSMARK", "1999-01-01T00:00:00Z", "1999-01-01T00:01:00Z"
ORDINARY_PLAYERS = 7
WRONG_PAYOUT_RATE = 0.02
SLIPPING_TABLE = "CLS1"
CANCELLING_TABLE, CANCEL_RATE = "DLX1", 0.3
RETRY_PAUSE = 0.5
GIVE_UP_AFTER = 180  # seconds of failed tries of one post: then it is an error, the round lost


@dataclass(frozen=True)
class PoolRound:
    template: str  # the document's JSON with PASS_MARK and the time markers in place
    round_id: str  # with PASS_MARK
    bets: int


@dataclass
class Sent:
    """What one game server sent: {round id: bets}, each post's latency and when it was due (in step),
    retries and refusals."""

    rounds: dict = field(default_factory=dict)
    latencies: list = field(default_factory=list)
    dues: list = field(default_factory=list)
    retries: int = 0
    errors: list = field(default_factory=list)


def table_pool(table: SoakTable, rounds: int, boundless_players: int) -> list[PoolRound]:
    from blackjack.simulate import simulate
    from tables.models import Table
    from tables.selectors import configuration_in_force

    now = datetime.now(UTC)
    rules = configuration_in_force(Table.objects.get(code=table.code), now).rule_set
    boundless = table.game == "boundless"
    documents = simulate(
        rules,
        table=table.code,
        shoes=1,
        players=boundless_players if boundless else ORDINARY_PLAYERS,
        seed=sum(table.code.encode()),
        start=now,
        wrong_payout_rate=WRONG_PAYOUT_RATE,
        cancel_rate=CANCEL_RATE if table.code == CANCELLING_TABLE else 0.0,
        dealt_by=lambda opened: f"D-{table.code}",
    )
    pool = []
    shoe = f"SOAK-{table.code}-{PASS_MARK}"
    for document in islice(documents, rounds):
        round_id = f"{shoe}-{document['number']:03d}"
        document.update(round_id=round_id, shoe=shoe, opened_at=OPENED_MARK, closed_at=CLOSED_MARK)
        for number, bet in enumerate(document["bets"], start=1):
            bet["bet_id"] = f"{round_id}-B{number}"
        slips = table.code == SLIPPING_TABLE and document["number"] % SLIP_EVERY == 0
        if slips and document["status"] == "completed":
            document["dealer"].append(SLIP_CARD)
        pool.append(PoolRound(json.dumps(document), round_id, len(document["bets"])))
    return pool


class GameServer:
    """One table's game server; its passes over the pool go on from phase to phase."""

    def __init__(self, base: str, table: SoakTable, pool: list[PoolRound]):
        self.base, self.table, self.pool = base, table, pool
        self.boundless = table.game == "boundless"
        self.session = requests.Session()
        self.session.headers.update(
            {"Authorization": f"Token {table.token}", "Content-Type": "application/json"}
        )
        self.posted = 0

    def post(self, sent: Sent, due: float | None = None) -> None:
        """Post the next round; `due`: when it was due (time.monotonic()), else now."""
        due = time.monotonic() if due is None else due
        passes, index = divmod(self.posted, len(self.pool))
        self.posted += 1
        pooled = self.pool[index]
        mark = f"P{passes:05d}"
        closed = datetime.now(UTC).replace(microsecond=0)
        opened = closed - timedelta(seconds=ROUND_SECONDS)
        body = (
            pooled.template.replace(PASS_MARK, mark)
            .replace(OPENED_MARK, opened.isoformat().replace("+00:00", "Z"))
            .replace(CLOSED_MARK, closed.isoformat().replace("+00:00", "Z"))
            .encode()
        )
        round_id = pooled.round_id.replace(PASS_MARK, mark)
        sent.rounds[round_id] = pooled.bets
        given_up = time.monotonic() + GIVE_UP_AFTER
        while True:
            try:
                answer = self.session.post(f"{self.base}/api/rounds/", data=body, timeout=120)
            except requests.RequestException as error:
                failure = type(error).__name__
            else:
                if answer.status_code in (200, 201):
                    sent.latencies.append(time.monotonic() - due)
                    sent.dues.append(due)
                    return
                if answer.status_code < 500:
                    sent.errors.append(f"{round_id}: {answer.status_code} {answer.text[:300]}")
                    return
                failure = f"HTTP {answer.status_code}"
            if time.monotonic() > given_up:
                sent.errors.append(f"{round_id}: gave up after {GIVE_UP_AFTER} s ({failure})")
                return
            sent.retries += 1
            time.sleep(RETRY_PAUSE)


def kind(server: GameServer) -> str:
    return "boundless" if server.boundless else "ordinary"


def one_at_a_time(servers: list[GameServer], seconds: float) -> dict[str, Sent]:
    """Each table in turn, one post at a time, for `seconds` (each table at least once): the
    latency without load, by kind of round."""
    sent = {"ordinary": Sent(), "boundless": Sent()}
    ends = time.monotonic() + seconds
    while True:
        for server in servers:
            server.post(sent[kind(server)])
        if time.monotonic() > ends:
            return sent


def flat_out(servers: list[GameServer], seconds: float) -> dict[str, Sent]:
    """Every game server posting as fast as it is answered, for `seconds`: the ingest capacity. By
    table code."""
    ends = time.monotonic() + seconds
    sent = {server.table.code: Sent() for server in servers}

    def run(server: GameServer) -> None:
        while time.monotonic() < ends:
            server.post(sent[server.table.code])

    _in_threads(run, servers)
    return sent


def paced(servers: list[GameServer], rates: dict[str, float], seconds: float) -> dict[str, Sent]:
    """Each game server posting at its rate (rounds a second) for `seconds`, open loop: the posts are
    due on a fixed schedule from the start, whenever the earlier ones were answered. By table code."""
    started = time.monotonic()
    sent = {server.table.code: Sent() for server in servers}

    def run(server: GameServer) -> None:
        interval = 1 / rates[server.table.code]
        # The tables' first posts spread over their first interval, not all at once.
        due = started + random.Random(server.table.code).random() * interval
        while due < started + seconds:
            time.sleep(max(0.0, due - time.monotonic()))
            server.post(sent[server.table.code], due)
            due += interval

    _in_threads(run, servers)
    return sent


def _in_threads(run, servers: list[GameServer]) -> None:
    threads = [threading.Thread(target=run, args=(server,)) for server in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
