"""What checking the archive costs (`make bench BENCH=archive_checks`; DATABASE_URL must be PostgreSQL).

Every file recall opens is checked against its month's manifest (archive.checks): read whole and
hashed (sha256) the first time in a process, then only stat'ed while its stamp stays the same. Here,
one month of a Boundless table (BND1, March 2026: ROUNDS rounds of PLAYERS players, simulated and
ingested; at BENCH_SCALE=smoke 2 rounds of 100 players) is
exported (its manifest signed, as in production), verified and dropped into a directory, and measured
in-process, in the same run:

- the cold verify of the whole month (every file read and hashed, verdicts forgotten first), against
  reading the same files without hashing them (the baseline: what the storage gives); and its MB/s;
- the first recall of a round of the month (rounds.recall.archived_round with every bet, as the API
  reads it) after the verdicts are forgotten, against the same recall with them kept (warm);
- the warm checks alone (the manifest's signature, and a stat a file, of all the month's files where a
  recall opens two to five), as a share of a warm recall: goal <= 5%, so that the archived round
  page's goal (bench_history: p99 <= 3x the same page while hot) is kept.
"""

import math
import statistics
import tempfile
import time
from datetime import UTC, date, datetime
from itertools import islice

from .support import bench_scale, scratch_database, sized

ROUNDS = sized(200, 2)  # at full scale some 400,000 bets (two a player): a month of bench_history's BND1
PLAYERS = sized(1_000, 100)
ROUNDS_A_SHOE = 50  # fewer than a Boundless shoe deals (bench_history's per_shoe: 59)
MARCH = date(2026, 3, 1)
REPEATS = sized(15, 3)
GOAL_WARM_CHECKS = 0.05  # the warm checks' share of a warm recall


def main():
    with scratch_database("archive_checks") as database:
        if database is None:
            return
        from django.test.utils import override_settings

        with (
            tempfile.TemporaryDirectory(prefix="pitboss-bench-archive-") as directory,
            override_settings(
                PITBOSS_HOT_MONTHS=6, PITBOSS_ARCHIVE_URL=directory, PITBOSS_ARCHIVE_MANIFEST_KEY="bench-key"
            ),
        ):
            bench()


def _month(rounds: int) -> str:
    """BND1's March 2026: `rounds` simulated rounds ingested, exported, verified and dropped; the id
    of its biggest round."""
    import io
    import json

    from django.core.management import call_command

    from archive.drop import month_drop
    from archive.services import month_export, month_verify
    from blackjack.rules import preset
    from blackjack.simulate import simulate
    from rounds.ingest import round_ingest
    from rounds.partitions import partitions_ensure
    from rounds.totals import player_totals_catch_up
    from tables.models import Table

    call_command("seed_demo", stdout=io.StringIO())
    partitions_ensure([MARCH])
    start = datetime(2026, 3, 10, 8, tzinfo=UTC)
    shoes = math.ceil(rounds / ROUNDS_A_SHOE)
    started = time.perf_counter()
    biggest, most = None, -1
    rules = preset("boundless")
    documents = simulate(rules, table="BND1", shoes=shoes, players=PLAYERS, seed=44, start=start)
    for document in islice(documents, rounds):
        stored = round_ingest(document=json.loads(json.dumps(document))).round
        if stored.bet_count > most:
            biggest, most = stored.round_id, stored.bet_count
    player_totals_catch_up()
    table = Table.objects.get(code="BND1")
    record = month_export(table, MARCH)
    assert record.error == "", record.error
    record = month_verify(table, MARCH)
    assert record.error == "", record.error
    month_drop(MARCH)
    bets = record.manifest["totals"]["bets"]
    size = sum(entry["bytes"] for entry in record.manifest["files"].values())
    print(
        f"   the month: {rounds:,} rounds, {bets:,} bets, {size / 2**20:.1f} MiB of Parquet in "
        f"{len(record.manifest['files'])} files; built in {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    return biggest


def _seconds(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def bench() -> None:
    from django.core.cache import cache

    from archive.checks import month_checked, verdicts_forget
    from archive.models import ArchivedMonth
    from archive.storage import archive_location
    from rounds.recall import archived_round

    print(f"   BENCH_SCALE={bench_scale()}: {ROUNDS} rounds of {PLAYERS:,} players", flush=True)
    round_id = _month(ROUNDS)
    cache.clear()
    record = ArchivedMonth.objects.select_related("table").get(table__code="BND1", month=MARCH)
    location = archive_location(record.archive_url)
    directory = location.month_dir("BND1", MARCH)
    paths = [f"{directory}/{entry['path']}" for entry in record.manifest["files"].values()]
    size = sum(entry["bytes"] for entry in record.manifest["files"].values())

    def read_plain() -> None:
        for path in paths:
            with location.filesystem.open_input_stream(path) as stream:
                while stream.read(8 * 2**20):
                    pass

    def verify_cold() -> None:
        verdicts_forget()
        month_checked(record, location)

    def recall() -> None:
        archived_round(round_id).bets_all()

    def recall_cold() -> None:
        verdicts_forget()
        recall()

    # In turn, each REPEATS times, medians: the machine's drift falls on both sides of each ratio.
    figures = {name: [] for name in ("plain", "cold verify", "cold recall", "warm recall", "warm checks")}
    for _ in range(REPEATS):
        figures["plain"].append(_seconds(read_plain))
        figures["cold verify"].append(_seconds(verify_cold))
        figures["cold recall"].append(_seconds(recall_cold))
        figures["warm recall"].append(_seconds(recall))
        figures["warm checks"].append(_seconds(lambda: month_checked(record, location)))
    median = {name: statistics.median(values) for name, values in figures.items()}
    ms = {name: seconds * 1000 for name, seconds in median.items()}
    print(
        f"   the month's cold verify (every file read and hashed): {ms['cold verify']:.1f} ms = "
        f"{size / 2**20 / median['cold verify']:,.0f} MiB/s; reading the files without hashing "
        f"{ms['plain']:.1f} ms: {median['cold verify'] / median['plain']:.2f}x",
        flush=True,
    )
    print(
        f"   a round's recall with every bet ({round_id}): cold {ms['cold recall']:.1f} ms, warm "
        f"{ms['warm recall']:.1f} ms: the first recall of the month in a process "
        f"{median['cold recall'] / median['warm recall']:.2f}x a later one",
        flush=True,
    )
    share = median["warm checks"] / median["warm recall"]
    verdict = "met" if share <= GOAL_WARM_CHECKS else "NOT met"
    print(
        f"   the warm checks of all {len(paths)} files (a stat each): {ms['warm checks']:.2f} ms = "
        f"{share:.1%} of a warm recall (goal <= {GOAL_WARM_CHECKS:.0%}: {verdict})",
        flush=True,
    )
