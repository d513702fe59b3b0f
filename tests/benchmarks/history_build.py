"""bench_history's synthetic history, written by SQL (INSERT ... SELECT), a month at a time.

Every synthetic round is a copy of a real one: a few template rounds are simulated
(blackjack.simulate) and ingested for real at the hot month's end, and each synthetic round
takes one template's bets and findings as ingest stored them (kinds, stakes, wagered and returned,
computed amounts and patterns, options), with its own ids, shoe, number and time, and the template's
document as received with the ids and times substituted by SQL `replace()`, so that the bytes stored
are those of real rounds (a round's spots and hands are read from its document: rounds.deal).
Every bet id is the round's id and the template bet's suffix, as the simulator names them, so bet
ids are unique.

The history runs over MONTHS months of gaming days, FIRST_MONTH to the hot month (the last). Per
table and gaming day, SHAPES gives the rounds at scale 1.0 (bench_history's SCALE multiplies
them; at least one round a table a month is kept) and the templates: mostly BND1, a Boundless table
with hundreds of players a round, and the other seed_demo tables with a few seated players. At scale
1.0 that is about 25 million bets in some 800,000 rounds.

A round's players are its template's (the same few thousand real accounts play every day), and so
are its findings and configuration version (seed_demo's, in force from 2026-01-01): nothing is
judged again, so the months before 2026 are not what ingest would have made of them. Day totals
are worked out from the rows, as the migration that introduced them does for stored rounds, but a
month at a time (history_totals).

Each table's columns and the SQL of their values are in COLUMNS, in one place: when bets and
findings carry the gaming day (issue 21's partitioning), ROUND_ROWS_PARTITION_KEY gains
`"gaming_day": "p.gaming_day"`, and every INSERT writes it.
"""

import calendar
import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

FIRST_MONTH = date(2024, 12, 1)
MONTHS = 24
# The templates' rounds are played on this morning of the hot month (UTC), each set in a shoe of its own.
TEMPLATES_START = datetime(2026, 11, 29, 10, tzinfo=UTC)
TEMPLATE_PREFIX = "TPL"


@dataclass(frozen=True)
class Shape:
    """One table's synthetic rounds: how many a gaming day at scale 1.0, the players of its template
    sets (one simulated shoe each), how many rounds of each shoe serve as templates, how many rounds
    a shoe deals (as the simulator's shoes do), and how often a template has a wrong payout planted."""

    per_day: float
    players: tuple[int, ...]
    templates_each: int
    per_shoe: int
    wrong_payout_rate: float


SHAPES = {
    "BND1": Shape(per_day=26, players=(100, 300, 1000), templates_each=3, per_shoe=59, wrong_payout_rate=0.3),
    "DLX1": Shape(per_day=360, players=(7,), templates_each=12, per_shoe=21, wrong_payout_rate=0.2),
    "CLS1": Shape(per_day=360, players=(7,), templates_each=12, per_shoe=26, wrong_payout_rate=0.2),
    "MPB1": Shape(per_day=360, players=(7,), templates_each=12, per_shoe=26, wrong_payout_rate=0.2),
}

# --- the columns written, in one place -------------------------------------------------------------
#
# Aliases: p, the plan's round (bench_history_plan); t, its template (bench_history_template); tr,
# the template's stored round; tb, tf, the template's bet and finding; shoe, the round's shoe; doc,
# the round's document (bench_history_document, documents_stage).

# Bets and findings carry their round's gaming day: the month they are kept in.
ROUND_ROWS_PARTITION_KEY: dict[str, str] = {"gaming_day": "p.gaming_day"}

COLUMNS: dict[str, dict[str, str]] = {
    "rounds_shoe": {
        "code": "p.shoe_code",
        "table_id": "min(p.table_id)",
        "first_seen_at": "min(p.opened_at)",
    },
    "rounds_round": {
        "id": "p.id",
        "round_id": "p.code",
        "table_id": "p.table_id",
        "shoe_id": "shoe.id",
        "number": "p.number",
        "opened_at": "p.opened_at",
        "gaming_day": "p.gaming_day",
        "closed_at": "p.opened_at + t.duration",
        "status": "tr.status",
        "cancel_reason": "tr.cancel_reason",
        "cut_card": "p.cut_card",
        "configuration_id": "tr.configuration_id",
        "document": "doc.document",
        "document_sha256": "doc.sha256",
        "dealer_cards": "tr.dealer_cards",
        "shared": "tr.shared",
        "dealt_by": "tr.dealt_by",
        "cards_taken": "tr.cards_taken",
        "players": "tr.players",
        "bet_count": "tr.bet_count",
        "wagered": "tr.wagered",
        "returned": "tr.returned",
        "computed_wagered": "tr.computed_wagered",
        "computed_returned": "tr.computed_returned",
        "finding_count": "tr.finding_count",
        "review_comment": "''",
        "ingested_at": "p.opened_at + t.duration + interval '2 seconds'",
    },
    "rounds_bet": {
        "id": "p.bet_base + tb.n",
        "round_id": "p.id",
        "bet_id": "p.code || tb.suffix",
        "player_id": "tb.player_id",
        "spot": "tb.spot",
        "kind": "tb.kind",
        "stake": "tb.stake",
        "wagered": "tb.wagered",
        "returned": "tb.returned",
        "computed_wagered": "tb.computed_wagered",
        "computed_returned": "tb.computed_returned",
        "computed_pattern": "tb.computed_pattern",
        "options": "tb.options",
        **ROUND_ROWS_PARTITION_KEY,
    },
    # The registry of every round and bet id (rounds.registry).
    "rounds_roundkey": {
        "id": "p.id",
        "round_id": "p.code",
        "gaming_day": "p.gaming_day",
        "table_id": "p.table_id",
    },
    "rounds_betkey": {
        "id": "p.bet_base + tb.n",
        "bet_id": "p.code || tb.suffix",
        "round_id": "p.id",
    },
    "rounds_finding": {
        "id": "p.finding_base + tf.n",
        "round_id": "p.id",
        "code": "tf.code",
        "bet_id": "p.bet_base + tf.bet_n",  # NULL for a finding on no bet
        "spot": "tf.spot",
        "hand": "tf.hand",
        "message": "replace(tf.message, t.round_code, p.code)",
        **ROUND_ROWS_PARTITION_KEY,
    },
}

# Where each table's values come from, for the plan's rounds. A document's times are written as the
# simulator writes them (ISO 8601, UTC, to the second).
ISO_UTC = """'YYYY-MM-DD"T"HH24:MI:SS"Z"'"""
# A plan's round's document as received: its template's, with the round's ids and times.
DOCUMENT_TEXT = f"""replace(replace(replace(replace(replace(t.document,
    t.round_code, p.code), t.shoe_code, p.shoe_code),
    t.number_text, '"number":' || p.number || ','),
    t.opened_text, '"opened_at":"' || to_char(p.opened_at AT TIME ZONE 'UTC', {ISO_UTC}) || '"'),
    t.closed_text,
    '"closed_at":"' || to_char((p.opened_at + t.duration) AT TIME ZONE 'UTC', {ISO_UTC}) || '"')"""
SOURCES = {
    # A shoe dealt across the end of a month is already there.
    "rounds_shoe": "bench_history_plan p GROUP BY p.shoe_code ON CONFLICT (code) DO NOTHING",
    "rounds_round": """
        bench_history_plan p
        JOIN bench_history_template t ON t.id = p.template_id
        JOIN rounds_round tr ON tr.id = t.round_pk
        JOIN rounds_shoe shoe ON shoe.code = p.shoe_code
        JOIN bench_history_document doc ON doc.id = p.id
    """,
    "rounds_bet": "bench_history_plan p JOIN bench_history_bet tb ON tb.template_id = p.template_id",
    "rounds_roundkey": "bench_history_plan p",
    "rounds_betkey": "bench_history_plan p JOIN bench_history_bet tb ON tb.template_id = p.template_id",
    "rounds_finding": """
        bench_history_plan p
        JOIN bench_history_template t ON t.id = p.template_id
        JOIN bench_history_finding tf ON tf.template_id = p.template_id
    """,
}
# The plan's id bases, per table, for the rows each round adds (its ids are base + n, n from 1).
ID_BASES = {
    "rounds_bet": "bets",
    "rounds_finding": "findings",
}
HELPER_TABLES = ["plan", "finding", "bet", "template", "day", "document"]


def insert_sql(table: str) -> str:
    """The INSERT of `table`'s rows for every round of the plan (in COLUMNS' order: shoes first)."""
    columns = COLUMNS[table]
    select = ", ".join(columns.values())
    insert = f"INSERT INTO {table} ({', '.join(columns)}) SELECT {select} FROM {SOURCES[table]}"
    if table == "rounds_betkey":  # as ingest writes the registry: in bet-id order (rounds.ingest.store)
        insert += f" ORDER BY {columns['bet_id']}"
    return insert


# --- the layout: how many rounds each table has in each month -----------------------------------


def history_months() -> list[date]:
    """The first day of each month of the history, oldest first; the last is the hot month."""
    months, month = [], FIRST_MONTH
    for _ in range(MONTHS):
        months.append(month)
        month = (month + timedelta(days=32)).replace(day=1)
    return months


def days_in(month: date) -> int:
    return calendar.monthrange(month.year, month.month)[1]


@dataclass(frozen=True)
class Slice:
    """One table's rounds in one month: `rounds` of them, the first the table's `first_ordinal`-th
    (from 0) of the history, which fixes its shoe, its number and its template."""

    code: str
    month: date
    rounds: int
    first_ordinal: int


def layout(scale: float) -> dict[date, list[Slice]]:
    """Each month's slices, every table's rounds in order of time across the history."""
    slices: dict[date, list[Slice]] = {month: [] for month in history_months()}
    for code, shape in SHAPES.items():
        ordinal = 0
        for month in history_months():
            rounds = max(1, round(shape.per_day * days_in(month) * scale))
            slices[month].append(Slice(code, month, rounds, ordinal))
            ordinal += rounds
    return slices


# --- templates: real rounds, ingested --------------------------------------------------------------


def templates_ingest() -> int:
    """Simulate and ingest every table's template rounds, and copy their rows into the helper
    tables the INSERTs read; the number of templates."""
    from django.db import connection

    from blackjack.rules import preset
    from blackjack.simulate import simulate
    from rounds.bulk import json_text
    from rounds.fields import json_of_compressed
    from rounds.ingest import round_ingest
    from tables.models import Table

    from .bench_ingest import _prefix_ids

    helpers_drop()
    with connection.cursor() as cursor:
        cursor.execute(TEMPLATE_TABLES_SQL)
    rows = []
    for code, shape in SHAPES.items():
        table = Table.objects.get(code=code)
        for players in shape.players:
            documents = simulate(
                preset(table.game),
                table=code,
                shoes=1,
                players=players,
                seed=players,
                start=TEMPLATES_START,
                wrong_payout_rate=shape.wrong_payout_rate,
            )
            for _, document in zip(range(shape.templates_each), documents, strict=False):
                document = json.loads(json.dumps(document))  # as a game server's document arrives
                _prefix_ids(document, f"{TEMPLATE_PREFIX}{players}-")
                stored = round_ingest(document=document).round
                with connection.cursor() as cursor:
                    cursor.execute("SELECT document FROM rounds_round WHERE id = %s", [stored.pk])
                    text = json_of_compressed(cursor.fetchone()[0])
                rows.append(
                    (
                        table.pk,
                        len([row for row in rows if row[0] == table.pk]),
                        stored.pk,
                        document["round_id"],
                        document["shoe"],
                        '"opened_at":' + json_text(document["opened_at"]),
                        '"closed_at":' + json_text(document["closed_at"]),
                        f'"number":{document["number"]},',
                        stored.closed_at - stored.opened_at,
                        text,
                    )
                )
    with connection.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO bench_history_template (table_id, idx, round_pk, round_code, shoe_code, "
            "opened_text, closed_text, number_text, duration, document) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            rows,
        )
        cursor.execute(TEMPLATE_ROWS_SQL)
    return len(rows)


TEMPLATE_TABLES_SQL = """
CREATE TABLE bench_history_template (
    id serial PRIMARY KEY, table_id bigint, idx int, round_pk bigint, round_code text, shoe_code text,
    opened_text text, closed_text text, number_text text, duration interval, document text,
    bets int, findings int
);
CREATE TABLE bench_history_day (day date PRIMARY KEY, starts_at timestamptz, ends_at timestamptz);
CREATE TABLE bench_history_document (id bigint PRIMARY KEY, document bytea, sha256 text);
CREATE TABLE bench_history_plan (
    id bigint PRIMARY KEY, table_id bigint, code text, shoe_code text, number int, cut_card boolean,
    opened_at timestamptz, gaming_day date, template_id int,
    bet_base bigint, finding_base bigint
);
"""
# Each template's rows numbered from 1 in the order ingest wrote them; a finding names its bet by
# that number.
TEMPLATE_ROWS_SQL = """
CREATE TABLE bench_history_bet AS
SELECT t.id AS template_id, row_number() OVER (PARTITION BY t.id ORDER BY b.id) AS n, b.id AS source_id,
    substr(b.bet_id, length(t.round_code) + 1) AS suffix, b.player_id, b.spot, b.kind, b.stake, b.wagered,
    b.returned, b.computed_wagered, b.computed_returned, b.computed_pattern, b.options
FROM bench_history_template t JOIN rounds_bet b ON b.round_id = t.round_pk;
CREATE TABLE bench_history_finding AS
SELECT t.id AS template_id, row_number() OVER (PARTITION BY t.id ORDER BY f.id) AS n, f.code,
    tb.n AS bet_n, f.spot, f.hand, f.message
FROM bench_history_template t JOIN rounds_finding f ON f.round_id = t.round_pk
LEFT JOIN bench_history_bet tb ON tb.source_id = f.bet_id;
UPDATE bench_history_template t SET
    bets = (SELECT count(*) FROM bench_history_bet x WHERE x.template_id = t.id),
    findings = (SELECT count(*) FROM bench_history_finding x WHERE x.template_id = t.id);
CREATE INDEX ON bench_history_bet (template_id);
CREATE INDEX ON bench_history_finding (template_id);
ANALYZE bench_history_template, bench_history_bet, bench_history_finding;
"""


def helpers_drop() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for name in HELPER_TABLES:
            cursor.execute(f"DROP TABLE IF EXISTS bench_history_{name}")


# --- a month's rounds --------------------------------------------------------------------------------


def days_record(months: list[date]) -> None:
    """The bounds of every gaming day of `months` (core.gaming_day), for the plan's times."""
    from django.db import connection

    from core.gaming_day import gaming_day

    rows = []
    for month in months:
        for offset in range(days_in(month)):
            bounds = gaming_day(month + timedelta(days=offset))
            rows.append((bounds.day, bounds.starts_at, bounds.ends_at))
    with connection.cursor() as cursor:
        cursor.executemany("INSERT INTO bench_history_day VALUES (%s, %s, %s) ON CONFLICT DO NOTHING", rows)


# Each slice's rounds evenly over its month's gaming days (opened before the day's last 3 minutes);
# the rounds of every table numbered together in order of time, and each given its ids' bases.
PLAN_SQL = """
WITH slice (table_id, code, first_day, days, rounds, first_ordinal, per_shoe, templates) AS (VALUES {slices}),
placed AS (
    SELECT s.*, s.first_ordinal + i AS ordinal, (i + 0.5) * s.days / s.rounds AS at
    FROM slice s CROSS JOIN generate_series(0, s.rounds - 1) i
),
timed AS (
    SELECT pl.*, d.day, date_trunc('second', d.starts_at
        + (pl.at - floor(pl.at)) * (d.ends_at - d.starts_at - interval '3 minutes')) AS opened_at
    FROM placed pl JOIN bench_history_day d ON d.day = pl.first_day + floor(pl.at)::int
),
numbered AS (
    SELECT tm.*, t.id AS template_id, t.bets, t.findings,
        row_number() OVER (ORDER BY tm.opened_at, tm.table_id) AS n,
        tm.code || '-H' || lpad((tm.ordinal / tm.per_shoe + 1)::text, 5, '0') AS shoe_code
    FROM timed tm
    JOIN bench_history_template t ON t.table_id = tm.table_id AND t.idx = mod(tm.ordinal, tm.templates)
)
INSERT INTO bench_history_plan
SELECT %(round)s + n, table_id, shoe_code || '-' || lpad((mod(ordinal, per_shoe) + 1)::text, 3, '0'),
    shoe_code, mod(ordinal, per_shoe) + 1, mod(ordinal, per_shoe) = per_shoe - 1, opened_at, day, template_id,
    %(bets)s + sum(bets) OVER w - bets, %(findings)s + sum(findings) OVER w - findings
FROM numbered
WINDOW w AS (ORDER BY n)
"""


def month_build(slices: list[Slice]) -> dict[str, int]:
    """Write one month's rounds (every table's slice) and their rows; the rows written per table."""
    from django.db import connection

    from tables.models import Table

    tables = dict(Table.objects.filter(code__in=SHAPES).values_list("code", "pk"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT table_id, count(*) FROM bench_history_template GROUP BY table_id")
        templates = dict(cursor.fetchall())
        values = ", ".join(
            cursor.mogrify(
                "(%s::bigint, %s, %s::date, %s, %s, %s::bigint, %s, %s)",
                [
                    tables[s.code],
                    s.code,
                    s.month,
                    days_in(s.month),
                    s.rounds,
                    s.first_ordinal,
                    SHAPES[s.code].per_shoe,
                    templates[tables[s.code]],
                ],
            )
            for s in slices
        )
        cursor.execute("TRUNCATE bench_history_plan")
        bases = {"round": _next_id(cursor, "rounds_round")}
        bases |= {alias: _next_id(cursor, table) for table, alias in ID_BASES.items()}
        cursor.execute(PLAN_SQL.format(slices=values), bases)
        cursor.execute("ANALYZE bench_history_plan")
        documents_stage(cursor)
        written = {}
        for table in COLUMNS:
            cursor.execute(insert_sql(table))
            written[table] = cursor.rowcount
        _ids_taken(cursor, "rounds_round", "SELECT max(id) FROM bench_history_plan")
        for table, alias in ID_BASES.items():
            count = alias.rstrip("s")  # bets -> the template's bet count, as summed into the base
            _ids_taken(
                cursor,
                table,
                f"SELECT max(p.{count}_base + t.{alias}) FROM bench_history_plan p "
                "JOIN bench_history_template t ON t.id = p.template_id",
            )
    return written


def documents_stage(cursor, rounds_at_a_time: int = 2_000) -> None:
    """Each planned round's document, compressed as rounds.fields.CompressedJsonField keeps it (SQL
    cannot compress with zstd), with its text's sha256, into bench_history_document, from which its
    round is written. A round written with its text and compressed afterwards would leave the text's
    TOAST pages dead in the files that bytes per bet are measured from."""
    from rounds.fields import compressed_json

    cursor.execute("TRUNCATE bench_history_document")
    cursor.execute("SELECT id FROM bench_history_plan ORDER BY id")
    planned = [pk for (pk,) in cursor.fetchall()]
    for start in range(0, len(planned), rounds_at_a_time):
        chunk = planned[start : start + rounds_at_a_time]
        cursor.execute(
            f"SELECT p.id, {DOCUMENT_TEXT} FROM bench_history_plan p "
            "JOIN bench_history_template t ON t.id = p.template_id WHERE p.id BETWEEN %s AND %s",
            [chunk[0], chunk[-1]],
        )
        cursor.executemany(
            "INSERT INTO bench_history_document VALUES (%s, %s, %s)",
            [
                (pk, compressed_json(text), hashlib.sha256(text.encode()).hexdigest())
                for pk, text in cursor.fetchall()
            ],
        )
    cursor.execute("ANALYZE bench_history_document")


def _next_id(cursor, table: str) -> int:
    """A base for ids written explicitly: the table's sequence moved past it (ids base + 1 on)."""
    cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [table])
    return cursor.fetchone()[0]


def _ids_taken(cursor, table: str, highest_sql: str) -> None:
    """The table's sequence moved past the ids written explicitly, for ingest's next rows."""
    cursor.execute(highest_sql)
    highest = cursor.fetchone()[0]
    if highest is not None:
        cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, highest])


def totals_rebuild() -> None:
    """Every day total worked out again from the rounds stored (ingest's and the synthetic ones), as
    the migration that introduced them does, a month at a time (history_totals); none is left pending."""
    from django.db import connection

    from rounds.models import PlayerDayTotal, PlayerTotalsPending, TableDayPatternHits, TableDayTotal

    from .history_totals import totals_write

    models = [TableDayTotal, TableDayPatternHits, PlayerDayTotal, PlayerTotalsPending]
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(model._meta.db_table for model in models)}")
    totals_write()


def history_build(months: list[date], scale: float, report=None) -> dict[str, int]:
    """Write the synthetic rounds of `months` (after `templates_ingest`) and rebuild the day totals;
    the rows written per table. `report(month, written, seconds)` is told of each month."""
    import time

    from rounds.partitions import partitions_ensure

    # Each month in its own partition, as the beat task makes them ahead of a live system's rounds
    # (without, every month before this one would land in the default partitions).
    partitions_ensure(months)
    plan = layout(scale)
    days_record(months)
    written: dict[str, int] = dict.fromkeys(COLUMNS, 0)
    for month in months:
        started = time.perf_counter()
        rows = month_build(plan[month])
        for table, count in rows.items():
            written[table] += count
        if report is not None:
            report(month, rows, time.perf_counter() - started)
    totals_rebuild()
    return written


def expected_at(scale: float) -> tuple[int, int]:
    """(rounds, bets) of the history at `scale`, a round having its template's bets (templates_ingest)."""
    from django.db import connection

    from tables.models import Table

    with connection.cursor() as cursor:
        cursor.execute("SELECT table_id, idx, bets FROM bench_history_template")
        bets = {(table_id, idx): count for table_id, idx, count in cursor.fetchall()}
    tables = dict(Table.objects.filter(code__in=SHAPES).values_list("code", "pk"))
    rounds = total = 0
    for slices in layout(scale).values():
        for s in slices:
            templates = [count for (table_id, _), count in sorted(bets.items()) if table_id == tables[s.code]]
            rounds += s.rounds
            total += sum(templates[(s.first_ordinal + i) % len(templates)] for i in range(s.rounds))
    return rounds, total
