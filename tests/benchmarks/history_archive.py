"""bench_history's archive round trip (issue 21): the history's oldest month exported and read back,
rows per second both ways, the archive's bytes per bet, and an archived round's page against the same
page while it was in the database."""

import time

GOAL_ARCHIVE_BYTES_PER_BET = 40
GOAL_ARCHIVED_PAGE = 3.0  # an archived round's page p99 against the same page's while it was hot


def verdict(value: float, goal: float) -> str:
    """Whether a figure meets its goal (at most the goal), as bench_history prints it."""
    return "met" if value <= goal else "NOT met"


def archive_round_trip(database: str, session: str) -> float | None:
    """The archive round trip on the history's oldest month (past the hot window): every table's
    export (rows/s written) and verification (every file read back and held against the database:
    rows/s read), the archive's bytes per bet (goal <= 40), then the month dropped; and the page of
    its biggest BND1 round before and after, p99 under gunicorn with wrk: archived / hot (goal <= 3x),
    and each against its run's baseline page. The archive's bytes per bet (None: no round to page)."""
    import tempfile

    from archive.drop import month_drop
    from archive.services import month_export, month_verify
    from archive.slices import month_tables
    from archive.storage import archive_location
    from rounds.models import Round
    from rounds.partitions import month_after

    from .history_build import history_months

    month = history_months()[0]
    in_month = {"gaming_day__gte": month, "gaming_day__lt": month_after(month)}
    biggest = (
        Round.objects.filter(table__code="BND1", **in_month)
        .order_by("-bet_count", "id")
        .values_list("round_id", "bet_count")
        .first()
    )
    if biggest is None:
        print(f"   archive round trip: no BND1 round in {month:%Y-%m}")
        return None
    round_id, bets_of_round = biggest
    path = f"/rounds/{round_id}/"
    print(
        f"   archive round trip, {month:%Y-%m} (every table), and the page of {round_id} "
        f"({bets_of_round} bets):"
    )
    hot = _round_page(database, session, path, "in the database")
    with tempfile.TemporaryDirectory(prefix="pitboss-bench-archive-") as directory:
        location = archive_location(directory)
        rows = files_bytes = bets = 0
        export_seconds = verify_seconds = 0.0
        for table in month_tables(month):
            started = time.perf_counter()
            record = month_export(table, month, location=location)
            export_seconds += time.perf_counter() - started
            assert record.error == "", record.error
            started = time.perf_counter()
            record = month_verify(table, month, location=location)
            verify_seconds += time.perf_counter() - started
            assert record.error == "", record.error
            files = record.manifest["files"].values()
            rows += sum(entry["rows"] for entry in files)
            files_bytes += sum(entry["bytes"] for entry in files)
            bets += record.manifest["totals"]["bets"]
        print(
            f"      export: {rows:,} rows in {export_seconds:.1f} s = {rows / export_seconds:,.0f} rows/s; "
            f"read back and verified: {verify_seconds:.1f} s = {rows / verify_seconds:,.0f} rows/s",
            flush=True,
        )
        per_bet = files_bytes / bets
        print(
            f"      the archive: {files_bytes:,} bytes for {bets:,} bets = {per_bet:.1f} B/bet "
            f"(goal <= {GOAL_ARCHIVE_BYTES_PER_BET}: {verdict(per_bet, GOAL_ARCHIVE_BYTES_PER_BET)})",
            flush=True,
        )
        started = time.perf_counter()
        dropped = month_drop(month)
        seconds = time.perf_counter() - started
        print(f"      {len(dropped)} partitions detached and dropped in {seconds:.1f} s")
        archived = _round_page(database, session, path, "from the archive")
    ratio = archived["page"] / hot["page"]
    relative = (archived["page"] / archived["baseline"]) / (hot["page"] / hot["baseline"])
    print(
        f"      the round page, archived / hot: p99 {hot['page']:.1f} -> {archived['page']:.1f} ms = "
        f"{ratio:.2f}x (goal <= {GOAL_ARCHIVED_PAGE}x: {verdict(ratio, GOAL_ARCHIVED_PAGE)}; against "
        f"the baseline page: {relative:.2f}x)",
        flush=True,
    )
    return per_bet


def _round_page(database: str, session: str, path: str, label: str) -> dict:
    """p99 of the round page at `path` and of the baseline page (medians of history_pages's turns), in
    ms."""
    from .bench_pages import WRK
    from .history_pages import pages_served_in_turn

    results, baseline = pages_served_in_turn(database, {label: path}, session)
    page = results[label]
    print(f"      round page {label}: {page} ({' '.join(WRK)}; baseline page: {baseline})", flush=True)
    return {"page": page.p99, "baseline": baseline.p99}
