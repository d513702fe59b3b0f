"""The soak's figures and checks: printed compactly, and kept as JSON (`--report PATH`).

Speeds under load are ratios to the same run's figures without load (absolute milliseconds swing
twofold from day to day on a shared machine): the ingest p99 of the soak's posts, counted from when
each was due, against one post at a time; each page's p99 with wrk on all three at once and the game
servers posting, against the page under wrk alone.
"""

import json
import math
from pathlib import Path


def percentile(seconds: list[float], share: float = 0.99) -> float | None:
    """The percentile (nearest rank) in milliseconds, or None of nothing."""
    if not seconds:
        return None
    ordered = sorted(seconds)
    return round(ordered[max(0, math.ceil(share * len(ordered)) - 1)] * 1000, 1)


def ratio(loaded: float | None, alone: float | None) -> float | None:
    return round(loaded / alone, 2) if loaded and alone else None


def printed(report: dict) -> None:
    capacity, soak = report["capacity"], report["soak"]
    print(f"== soak ({report['scale']} scale): {report['tables']} tables, world: {report['world']}")
    print(
        f"   capacity: {capacity['rounds_per_second']} rounds/s, {capacity['bets_per_second']:,} bets/s "
        f"({capacity['seconds']} s, every table flat out; Boundless rounds of "
        f"{report['boundless_players']:,} players)"
    )
    print(
        f"   soak: {soak['seconds']} s at {soak['target_rounds_per_second']} rounds/s (half), "
        f"{soak['rounds_per_second']} done; retries {soak['retries']}, errors {len(soak['errors'])}"
    )
    for kind, figures in report["ingest_p99_ms"].items():
        print(
            f"   ingest p99, {kind}: {figures['alone']} ms alone, {figures['soak']} ms in the soak "
            f"= {figures['ratio']}x (median {figures['soak_median']} ms, {figures['posts']} posts); "
            f"outside the disruption's {report['disrupted_seconds']} s: {figures['steady']} ms "
            f"= {figures['steady_ratio']}x ({figures['steady_posts']} posts)"
        )
    for page, figures in report["pages"].items():
        print(
            f"   {page} p99: {figures['alone']['p99_ms']} ms alone, "
            f"{figures['soak']['p99_ms']} ms in the soak "
            f"= {figures['ratio']}x ({figures['soak']['requests']} requests, "
            f"{figures['soak']['not_ok']} not 2xx/3xx, {figures['soak']['socket_errors']} socket errors)"
        )
    for event in report["disruptions"]:
        print(f"   midway +{event['at']} s: {event['what']}")
    lag = report["replica_lag"]
    if lag is None:
        print("   replica: none (--no-replica, or no PostgreSQL server programs)")
    else:
        print(
            f"   replica lag: max {lag['max_bytes']} bytes, at the end {lag['end_bytes']} bytes "
            f"({lag['seconds_without_a_figure']} s without a figure: the standby down)"
        )
    print(f"   drained in {report['drain']['seconds']} s; still waiting: {report['drain']['waiting']}")
    for check in report["checks"]:
        figures = {k: v for k, v in check.items() if k not in ("name", "ok", "problems")}
        print(f"   {'PASS' if check['ok'] else 'FAIL'} {check['name']}: {figures}")
        for problem in check["problems"]:
            print(f"        {problem}")
    print(f"   {'all checks passed' if report['ok'] else 'CHECKS FAILED'}")


def written(report: dict, path: str | None) -> None:
    if path:
        Path(path).write_text(json.dumps(report, indent=2, default=str))
