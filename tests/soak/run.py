"""make soak: `python -m tests.soak.run [--scale default|tiny] [--seconds N] [--report PATH] [--no-replica]`.

In order: a world of its own (world.py), Pitboss's processes (processes.py), then
1. the latency without load: each table's game server in turn, one post at a time;
2. the ingest capacity: every game server flat out;
3. each staff page under wrk alone;
4. the soak: every game server at half its share of the capacity, wrk on the three pages at once,
   the monitors running on beat; midway the disruptions (disruptions.py);
5. the drain, then the checks (checks.py); the report (report.py).
Exit status 1 when a check fails. SOAK_SCALE sets the scale when --scale is not given.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from .sizes import SCALES, sizes_of
from .world import STAFF, scratch_world

STAFF_PASSWORD = f"{STAFF}-demo"  # seed_demo's
# After the last disruption, the seconds the processes are given to come back (connections
# reopened, the retried posts answered) before the posts count as steady again.
RECOVERY_SECONDS = 10
WARM_UP_SECONDS = 5


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.soak.run", description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=sorted(SCALES), default=os.environ.get("SOAK_SCALE") or "default")
    parser.add_argument("--seconds", type=float, help="the soak phase's length (default: the scale's)")
    parser.add_argument("--report", help="write the report as JSON to this path")
    parser.add_argument("--no-replica", action="store_true", help="a scratch database, no standby")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    options = arguments(argv)
    sizes = sizes_of(options.scale, options.seconds)
    folder = Path(tempfile.mkdtemp(prefix="pitboss-soak-"))
    with scratch_world(replica=not options.no_replica) as world:
        from .processes import app_environment

        environment = app_environment(world)
        os.environ.clear()
        os.environ.update(environment)  # this process's Django: the same database, broker and keys
        import django

        django.setup()
        report = soaked(world, environment, sizes, folder)
    report["scale"] = options.scale
    from .report import printed, written

    printed(report)
    written(report, options.report)
    if report["ok"]:
        shutil.rmtree(folder, ignore_errors=True)
    else:
        print(f"   the processes' logs: {folder}")
    return 0 if report["ok"] else 1


def soaked(world, environment: dict, sizes, folder: Path) -> dict:
    from django.db import connections

    from . import checks, game_servers, staff_load
    from .disruptions import LagWatch, disrupt
    from .processes import Processes, WebhookReceiver, redis_flushed
    from .report import percentile, ratio
    from .world import seed, webhook_endpoint

    started = time.monotonic()
    tables = seed(sizes.tables_per_game)
    pools = {t.code: game_servers.table_pool(t, sizes.pool_rounds, sizes.boundless_players) for t in tables}
    print(f"   world ready in {time.monotonic() - started:.0f} s: {len(tables)} tables", flush=True)
    redis_flushed()
    receiver = WebhookReceiver()
    endpoint = webhook_endpoint(receiver.url)
    connections.close_all()
    processes = Processes(world, environment, folder)
    try:
        processes.start()
        base = processes.base
        servers = [game_servers.GameServer(base, table, pools[table.code]) for table in tables]
        # What each web worker loads at its first posts (every table's rules and odds): every server
        # posting at once for a few seconds reaches every worker; not counted.
        warm_up = game_servers.flat_out(servers, WARM_UP_SECONDS)
        alone = game_servers.one_at_a_time(servers, sizes.baseline_seconds)
        print("   latency alone measured", flush=True)
        capacity = game_servers.flat_out(servers, sizes.capacity_seconds)
        capacity_rounds = sum(len(sent.rounds) for sent in capacity.values())
        capacity_bets = sum(sum(sent.rounds.values()) for sent in capacity.values())
        print(f"   capacity: {capacity_rounds / sizes.capacity_seconds:.1f} rounds/s", flush=True)

        cookie = staff_load.signed_in_cookie(base, STAFF, STAFF_PASSWORD)
        boundless_round = next(iter(alone["boundless"].rounds))
        pages = {"rounds list": "/rounds/", "round page": f"/rounds/{boundless_round}/", "floor": "/floor/"}
        for path in pages.values():
            staff_load.page_answers(base, path, cookie)
        think = staff_load.think_script(folder)
        pages_alone = staff_load.pages_alone(base, pages, cookie, sizes.wrk_seconds, think)
        print("   pages alone measured", flush=True)

        # Half of each table's share of the capacity; a table that got nothing posted still posts.
        least = 1 / sizes.capacity_seconds
        rates = {
            code: max(len(sent.rounds), 1) / sizes.capacity_seconds / 2 for code, sent in capacity.items()
        }
        rates = {code: max(rate, least / 2) for code, rate in rates.items()}
        wrk = staff_load.pages_started(base, pages, cookie, sizes.soak_seconds, think)
        lag = LagWatch(world)
        soak_started = time.monotonic()
        disrupted_at = soak_started + sizes.soak_seconds / 2
        disruption = disrupt(world, processes, disrupted_at, min(10.0, sizes.soak_seconds / 6))
        soak = game_servers.paced(servers, rates, sizes.soak_seconds)
        soak_seconds = time.monotonic() - soak_started
        pages_soak = staff_load.pages_collected(wrk)
        disruption.join()
        print(f"   soak done in {soak_seconds:.0f} s; draining", flush=True)

        connections.close_all()  # this process's connection was terminated midway too
        drain_started = time.monotonic()
        waiting = checks.drained(sizes.drain_seconds)
        drain_seconds = time.monotonic() - drain_started
        lag_figures = lag.stop()
        every_sent = [*warm_up.values(), *alone.values(), *capacity.values(), *soak.values()]
        stored = checks.rounds_check(every_sent)
        verdicts = [
            stored,
            checks.alerts_check(receiver.received, endpoint),
            checks.task_effects_check(),
            checks.metrics_check(base, stored),
        ]
    finally:
        processes.stop()
        receiver.stop()

    errors = [error for sent in every_sent for error in sent.errors]
    soak_rounds = sum(len(sent.rounds) for sent in soak.values())
    # The posts due while the disruptions lasted and the processes came back, told apart: the rest
    # say what the load alone does.
    recovered_at = (
        disrupted_at + max((event["at"] for event in disruption.events), default=0) + RECOVERY_SECONDS
    )
    by_kind = {"ordinary": [], "boundless": []}
    steady = {"ordinary": [], "boundless": []}
    for server in servers:
        sent = soak[server.table.code]
        by_kind[game_servers.kind(server)] += sent.latencies
        steady[game_servers.kind(server)] += [
            latency
            for latency, due in zip(sent.latencies, sent.dues, strict=True)
            if not disrupted_at <= due <= recovered_at
        ]
    ingest = {}
    for kind, latencies in by_kind.items():
        figures = {"alone": percentile(alone[kind].latencies), "soak": percentile(latencies)}
        ingest[kind] = figures | {
            "ratio": ratio(figures["soak"], figures["alone"]),
            "soak_median": percentile(latencies, 0.5),
            "posts": len(latencies),
            "steady": percentile(steady[kind]),
            "steady_ratio": ratio(percentile(steady[kind]), figures["alone"]),
            "steady_posts": len(steady[kind]),
        }
    pages_report = {
        page: {
            "alone": pages_alone[page],
            "soak": pages_soak[page],
            "ratio": ratio(pages_soak[page]["p99_ms"], pages_alone[page]["p99_ms"]),
        }
        for page in pages
    }
    if errors:
        verdicts.append({"name": "no post refused", "ok": False, "problems": errors[:20]})
    return {
        "world": "primary and streaming standby" if world.pair else f"scratch database {world.database}",
        "tables": len(tables),
        "boundless_players": sizes.boundless_players,
        "capacity": {
            "seconds": sizes.capacity_seconds,
            "rounds_per_second": round(capacity_rounds / sizes.capacity_seconds, 2),
            "bets_per_second": round(capacity_bets / sizes.capacity_seconds),
        },
        "soak": {
            "seconds": round(soak_seconds, 1),
            "target_rounds_per_second": round(sum(rates.values()), 2),
            "rounds_per_second": round(soak_rounds / soak_seconds, 2),
            "rounds": soak_rounds,
            "retries": sum(sent.retries for sent in every_sent),
            "errors": errors,
        },
        "ingest_p99_ms": ingest,
        "pages": pages_report,
        "disruptions": disruption.events,
        "disrupted_seconds": round(recovered_at - disrupted_at, 1),
        "replica_lag": lag_figures,
        "drain": {"seconds": round(drain_seconds, 1), "waiting": waiting},
        "checks": verdicts,
        "ok": all(check["ok"] for check in verdicts) and not any(waiting.values()),
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
