"""What the ledger costs (`make bench BENCH=ledger`; DATABASE_URL must be PostgreSQL; issue 52).

In a scratch database (<database>_bench_ledger) after seed_demo, in-process, alternating runs with
the ledger appending and with its appends switched off (ledger.services.appends_off, for this
benchmark only), the median of each:

- a correction: the approval of a re-settlement of a BND1 (Boundless) round of PLAYERS players whose
  first ADJUSTED bets were paid 1.00 too much (resettlement_approve: ADJUSTED adjustments, one chain
  append of ADJUSTED entries), ROUNDS approvals each way;
- a limit change: table_limit_set (its history row appended) and personal_limit_set (its new row
  appended), REPEATS each way;

given as ratios (with / without) and as milliseconds added. Last, a round without corrections is
ingested under CaptureQueriesContext: it must write no ledger row and run no ledger query.
"""

import io
import json
import statistics
import time
from decimal import Decimal

from .support import scratch_database, sized

PLAYERS = sized(300, 20)
ADJUSTED = sized(200, 10)
ROUNDS = sized(10, 2)  # approvals each way
REPEATS = sized(40, 4)  # limit changes each way


def main():
    with scratch_database("ledger") as database:
        if database is None:
            return
        bench()


def _seconds(work, number: int) -> float:
    started = time.perf_counter()
    work(number)
    return time.perf_counter() - started


def _alternating(runs: int, work) -> tuple[float, float]:
    """The medians of `work(i)` with the ledger on and off, in turns (on first, then off first)."""
    from ledger.services import appends_off

    times = {True: [], False: []}
    for number in range(runs * 2):
        ledger_on = (number % 4) in (0, 3)
        if ledger_on:
            times[True].append(_seconds(work, number))
        else:
            with appends_off():
                times[False].append(_seconds(work, number))
    return statistics.median(times[True]), statistics.median(times[False])


def _print(name: str, on: float, off: float) -> None:
    print(
        f"   {name}: {on * 1000:.2f} ms with the ledger, {off * 1000:.2f} ms without: "
        f"{on / off:.2f}x, +{(on - off) * 1000:.2f} ms",
        flush=True,
    )


def bench() -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ledger.models import LedgerEntry
    from limits.models import Player
    from limits.services import personal_limit_set, table_limit_set
    from rounds.ingest import round_ingest
    from rounds.services import resettlement_approve, resettlement_propose
    from tables.models import Table
    from tests.rounds.corrections_support import boundless_shoe, demo_user

    call_command("seed_demo", stdout=io.StringIO())
    compliance, supervisor = demo_user("compliance"), demo_user("supervisor")
    documents = boundless_shoe("LEDGER-BENCH", players=PLAYERS, seed=52)
    print(f"   {len(documents)} rounds of {PLAYERS} players simulated", flush=True)

    # A round without corrections: no ledger query, no ledger row.
    before = LedgerEntry.objects.count()
    with CaptureQueriesContext(connection) as queries:
        round_ingest(document=json.loads(json.dumps(documents[0])))
    ledger_queries = [q for q in queries if "ledger" in q["sql"] or "advisory" in q["sql"]]
    added = LedgerEntry.objects.count() - before
    print(
        f"   ingest of a round without corrections: {len(queries)} queries, {len(ledger_queries)} of the "
        f"ledger, {added} ledger rows written",
        flush=True,
    )
    assert not ledger_queries and not added

    proposals = []
    for document in documents[1 : 1 + ROUNDS * 2]:
        document = json.loads(json.dumps(document))
        for bet in document["bets"][:ADJUSTED]:
            bet["returned"] = str(Decimal(bet["returned"]) + 1)
        round_ = round_ingest(document=document).round
        proposals.append(resettlement_propose(round_=round_, proposed_by=compliance, reason="overpaid"))
    if len(proposals) < ROUNDS * 2:
        raise SystemExit(f"the shoe dealt {len(documents)} rounds; {ROUNDS * 2 + 1} are needed")

    def approve(number: int) -> None:
        resettlement_approve(resettlement=proposals[number], decided_by=supervisor, comment="ok")

    on, off = _alternating(ROUNDS, approve)
    adjusted = proposals[0].adjustments.count()
    _print(f"a re-settlement approved ({adjusted} adjustments)", on, off)

    table = Table.objects.get(code="CLS1")

    def table_limit(number: int) -> None:
        table_limit_set(
            table=table,
            kind="main",
            min_stake=Decimal("1.00"),
            max_stake=Decimal(500 + number),
            changed_by=supervisor,
            reason="bench",
        )

    _print("a table limit changed", *_alternating(REPEATS, table_limit))
    player = Player.objects.get(external_id="P1001")

    def personal_limit(number: int) -> None:
        personal_limit_set(
            player=player, changed_by=supervisor, reason="bench", max_stake=Decimal(100 - number % 50)
        )

    _print("a personal limit changed", *_alternating(REPEATS, personal_limit))
