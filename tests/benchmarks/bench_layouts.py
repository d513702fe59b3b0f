"""Bytes per bet of the layouts the hot goal (≤ 300 B/bet, issue 21) could be met with, measured on
PostgreSQL (`make bench BENCH=layouts`; DATABASE_URL must name a PostgreSQL database).

It ingests simulated 5,000-player Boundless rounds through `round_ingest` into a scratch database
and prints the bytes per bet of what they stored: each table, and each index of the bets and of the
registry's bet keys. Then it builds each alternative from those same rows by SQL, and measures it
against a copy of the rows as stored, built the same way (a freshly built index is denser than one
grown by ingest, so copies are compared with copies):

- the bets without their own primary-key index (the registry's key is the bet's id across months);
- the bets as one row of arrays per round (TOASTed), and a row per player and round, indexed, for
  the play record;
- the registry's bet ids as one array per round under a GIN index, instead of a row and a btree
  entry each;
- every bet id shaped as the round format's example (`B-` and digits), instead of the simulator's;
- keeping a row per bet (the play record's speed), what narrower storage could save: the round
  documents compressed by Pitboss with zstd (TOAST has only pglz and lz4), the bets' ids under a
  BRIN index instead of the primary key's btree, and the registry keyed by a 16-byte digest of each
  bet id instead of its text;
- the narrowest a row per bet gets while every read stays a btree lookup: those narrowings but BRIN
  stacked, with the bets' columns in an order that leaves no padding, their kind a small integer,
  their ids under a plain index packed full, and the registry's indexes packed full.

Last, what the arrays would cost to read: three reads timed on the rows and on the arrays (median
of REPEATS, in process, warm): a round's bets (the round page), a player's newest 50 bets (the play
record) and the newest 50 bets of one kind (the bet list filtered). And what BRIN would cost to
find bets by id (a correction's bet), and zstd to read a round's document.

It changes nothing in Pitboss: it measures what a change of layout would save, for the decision.
"""

import json
import random
import statistics
import time

import zstandard

from rounds.fields import ZSTD_LEVEL, json_of_compressed

from .support import scratch_database, sized

ROUNDS = sized(8, 2)
PLAYERS = sized(5_000, 200)
# A bet id as the round format's example (`B-88231`), with digits enough for ten years of bets.
FORMAT_ID = "'B-' || (10000000000 + id)"
REPEATS = sized(21, 3)
# The level the documents are stored at (zstd's default), and the archive's
# (archive.export.COMPRESSION_LEVEL)
DOCUMENT_ZSTD_LEVELS = (ZSTD_LEVEL, 9)
BRIN_PAGES_PER_RANGE = 8  # fewer pages per range than PostgreSQL's 128: fewer rows rechecked a bet
# A round's bets from its row of arrays, as rows again (the columns the reads below use).
UNNESTED = """unnest(r.ids, r.bet_ids, r.players, r.kinds, r.stakes, r.wagered, r.returned)
    AS b(id, bet_id, player_id, kind, stake, wagered, returned)"""


def main():
    with scratch_database("layouts") as database:
        if database is None:
            return
        from django.db import connection

        from .bench_ingest import _prepare

        _prepare()
        _ingest()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
            bets = _count(cursor, "rounds_bet")
            stored = _stored(cursor, bets)
            _alternatives(cursor, bets, stored)
            _row_per_bet(cursor, bets, stored)
            _narrowest_rows(cursor, bets, stored)
            _reads(cursor)
            _reads_by_id(cursor)


def _ingest() -> None:
    from rounds.ingest import round_ingest

    from .bench_ingest import _rounds

    for document in _rounds(PLAYERS, ROUNDS, seed=2026):
        round_ingest(document=document)


def _count(cursor, table: str) -> int:
    cursor.execute(f"SELECT count(*) FROM {table}")
    return cursor.fetchone()[0]


def _columns(cursor, table: str, **replaced: str) -> str:
    """The table's columns in order, for a SELECT, some of them replaced by an expression."""
    cursor.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = %s ORDER BY ordinal_position",
        [table],
    )
    names = [name for (name,) in cursor.fetchall()]
    return ", ".join(f"{replaced[name]} AS {name}" if name in replaced else name for name in names)


def _size(cursor, table: str, bets: int) -> tuple[float, float]:
    """(whole, indexes) of `table` in bytes per bet, after VACUUM ANALYZE."""
    cursor.execute(f"VACUUM ANALYZE {table}")
    cursor.execute("SELECT pg_total_relation_size(%s), pg_indexes_size(%s)", [table, table])
    whole, indexes = cursor.fetchone()
    return whole / bets, indexes / bets


def _stored(cursor, bets: int) -> float:
    """Prints what ingest stored, per table and per index of the bets and bet keys; returns the
    B/bet of a round's tables (rounds, bets, findings, the registry's round and bet keys)."""
    rounds = _count(cursor, "rounds_round")
    print(f"   {rounds} rounds of {PLAYERS:,} players, {bets:,} bets, as ingest stored them:")
    total = 0.0
    for table in ("rounds_round", "rounds_bet", "rounds_finding", "rounds_roundkey", "rounds_betkey"):
        # A partitioned table's partitions, or the table itself (pg_partition_tree has no row for it).
        cursor.execute(
            """SELECT sum(pg_total_relation_size(relid)), sum(pg_indexes_size(relid)) FROM (
                 SELECT relid FROM pg_partition_tree(%(table)s) UNION SELECT %(table)s::regclass) tree""",
            {"table": table},
        )
        whole, indexes = (float(value) / bets for value in cursor.fetchone())
        total += whole
        print(f"      {table:17} {whole:6.1f} B/bet (indexes {indexes:5.1f})")
    cursor.execute(
        """SELECT i.relname, pg_relation_size(i.oid) FROM pg_index x
           JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
           WHERE t.relname IN ('rounds_bet_default', 'rounds_betkey') ORDER BY 2 DESC"""
    )
    for name, size in cursor.fetchall():
        print(f"         index {name:42} {size / bets:5.1f}")
    print(f"      in all {total:.1f} B/bet (the day totals, one row per player and kind a day, apart)")
    return total


def _alternatives(cursor, bets: int, stored: float) -> None:
    print("   each alternative against a copy of the rows as stored, built the same way (B/bet):")
    sql = {
        "bets as rows (the copy)": [
            "CREATE TABLE alt_bets AS SELECT * FROM rounds_bet ORDER BY id",
            "ALTER TABLE alt_bets ADD PRIMARY KEY (id, gaming_day)",
            "CREATE INDEX ON alt_bets (round_id)",
            "CREATE INDEX ON alt_bets (player_id, round_id)",
        ],
        "bets as rows, no primary-key index": [
            "CREATE TABLE alt_bets_no_pk AS SELECT * FROM rounds_bet ORDER BY id",
            "CREATE INDEX ON alt_bets_no_pk (round_id)",
            "CREATE INDEX ON alt_bets_no_pk (player_id, round_id)",
        ],
        "bets as a row of arrays per round": [
            """CREATE TABLE alt_round_bets AS SELECT round_id, gaming_day, array_agg(id ORDER BY id) ids,
               array_agg(bet_id ORDER BY id) bet_ids, array_agg(player_id ORDER BY id) players,
               array_agg(spot ORDER BY id) spots, array_agg(kind ORDER BY id) kinds,
               array_agg(stake ORDER BY id) stakes, array_agg(wagered ORDER BY id) wagered,
               array_agg(returned ORDER BY id) returned, array_agg(computed_wagered ORDER BY id) cw,
               array_agg(computed_returned ORDER BY id) cr, array_agg(computed_pattern ORDER BY id) cp,
               array_agg(options ORDER BY id) options
               FROM rounds_bet GROUP BY round_id, gaming_day ORDER BY round_id""",
            "ALTER TABLE alt_round_bets ADD PRIMARY KEY (round_id, gaming_day)",
        ],
        "  with a row per player and round": [
            """CREATE TABLE alt_player_rounds AS SELECT DISTINCT round_id, player_id, gaming_day
               FROM rounds_bet ORDER BY round_id, player_id""",
            "CREATE INDEX ON alt_player_rounds (player_id, round_id)",
        ],
        "registry bet keys as rows (the copy)": [
            "CREATE TABLE alt_keys AS SELECT * FROM rounds_betkey ORDER BY round_id, bet_id",
            "ALTER TABLE alt_keys ADD PRIMARY KEY (id)",
            "CREATE UNIQUE INDEX ON alt_keys (bet_id)",
        ],
        "registry bet ids as an array per round, GIN": [
            """CREATE TABLE alt_key_arrays AS SELECT round_id, array_agg(bet_id ORDER BY bet_id) bet_ids
               FROM rounds_betkey GROUP BY round_id ORDER BY round_id""",
            "CREATE INDEX ON alt_key_arrays USING gin (bet_ids) WITH (fastupdate = off)",
        ],
        "registry bet keys, ids as the format's": [
            f"""CREATE TABLE alt_keys_short AS SELECT {_columns(cursor, "rounds_betkey", bet_id=FORMAT_ID)}
               FROM rounds_betkey ORDER BY round_id, id""",
            "ALTER TABLE alt_keys_short ADD PRIMARY KEY (id)",
            "CREATE UNIQUE INDEX ON alt_keys_short (bet_id)",
        ],
        "bets as rows, ids as the format's": [
            f"""CREATE TABLE alt_bets_short AS SELECT {_columns(cursor, "rounds_bet", bet_id=FORMAT_ID)}
               FROM rounds_bet ORDER BY id""",
            "ALTER TABLE alt_bets_short ADD PRIMARY KEY (id, gaming_day)",
            "CREATE INDEX ON alt_bets_short (round_id)",
            "CREATE INDEX ON alt_bets_short (player_id, round_id)",
        ],
    }
    sizes = {}
    for name, statements in sql.items():
        for statement in statements:
            cursor.execute(statement)
        table = statements[0].split()[2]
        sizes[name] = _size(cursor, table, bets)
        whole, indexes = sizes[name]
        print(f"      {name:44} {whole:6.1f} (indexes {indexes:5.1f})")
    bets_rows, keys_rows = (
        sizes["bets as rows (the copy)"][0],
        sizes["registry bet keys as rows (the copy)"][0],
    )
    saved = {
        "no primary-key index on the bets": bets_rows - sizes["bets as rows, no primary-key index"][0],
        "bets as arrays per round, a row per player and round": bets_rows
        - sizes["bets as a row of arrays per round"][0]
        - sizes["  with a row per player and round"][0],
        "the registry's bet ids as arrays per round, GIN": keys_rows
        - sizes["registry bet ids as an array per round, GIN"][0],
        "bet ids as the format's (bets and registry)": bets_rows
        - sizes["bets as rows, ids as the format's"][0]
        + keys_rows
        - sizes["registry bet keys, ids as the format's"][0],
    }
    print(f"   what each saves, and what a round's tables (as stored: {stored:.1f} B/bet) would take:")
    for name, bytes_saved in saved.items():
        print(f"      {name:55} -{bytes_saved:5.1f}  -> {stored - bytes_saved:6.1f} B/bet")


def _row_per_bet(cursor, bets: int, stored: float) -> None:
    """Keeping a row per bet: what each narrower storage saves against a copy of what it replaces
    (the copies of the bets and bet keys are _alternatives'), and all three together. The documents
    are stored under zstd at level ZSTD_LEVEL since migration rounds/0022: that level is compared
    with the lz4 text they were before, and with level 9."""
    print("   keeping a row per bet, each against a copy of what it replaces (B/bet):")
    sql = {
        "bets, ids under BRIN instead of the primary key": [
            "CREATE TABLE alt_bets_brin AS SELECT * FROM rounds_bet ORDER BY id",
            f"CREATE INDEX ON alt_bets_brin USING brin (id) WITH (pages_per_range = {BRIN_PAGES_PER_RANGE})",
            "CREATE INDEX ON alt_bets_brin (round_id)",
            "CREATE INDEX ON alt_bets_brin (player_id, round_id)",
        ],
        "registry bet keys, a digest unique beside the id": [
            """CREATE TABLE alt_keys_digest AS SELECT id, md5(bet_id)::uuid digest, round_id
               FROM rounds_betkey ORDER BY round_id, id""",
            "ALTER TABLE alt_keys_digest ADD PRIMARY KEY (id)",
            "CREATE UNIQUE INDEX ON alt_keys_digest (digest)",
        ],
        "registry bet keys, the digest their primary key": [
            """CREATE TABLE alt_keys_by_digest AS SELECT md5(bet_id)::uuid digest, id, round_id
               FROM rounds_betkey ORDER BY round_id, id""",
            "ALTER TABLE alt_keys_by_digest ADD PRIMARY KEY (digest)",
        ],
    }
    sizes = {name: _built(cursor, statements, bets) for name, statements in sql.items()}
    texts = _document_texts(cursor)
    as_text = "round documents as text under lz4 (before rounds/0022)"
    sizes[as_text] = _documents_as_text(cursor, bets, texts)
    under = {level: f"round documents under zstd, level {level}" for level in DOCUMENT_ZSTD_LEVELS}
    for level, name in under.items():
        sizes[name] = _documents_zstd(cursor, bets, texts, level)
    for name, whole in sizes.items():
        print(f"      {name:52} {whole:6.1f}")
    saved_by_0022 = sizes[as_text] - sizes[under[ZSTD_LEVEL]]
    print(f"   migration rounds/0022 (zstd level {ZSTD_LEVEL}) saved {saved_by_0022:.1f} B/bet")
    bets_rows = _size(cursor, "alt_bets", bets)[0]
    keys_rows = _size(cursor, "alt_keys", bets)[0]
    saved = {
        f"the documents under zstd level 9, not {ZSTD_LEVEL}": sizes[under[ZSTD_LEVEL]] - sizes[under[9]],
        "the bets' ids under BRIN": bets_rows - sizes["bets, ids under BRIN instead of the primary key"],
        "the registry's bet ids as a digest, unique beside the id": keys_rows
        - sizes["registry bet keys, a digest unique beside the id"],
        "the registry's bet ids as a digest, its primary key": keys_rows
        - sizes["registry bet keys, the digest their primary key"],
    }
    print(f"   what each saves, and what a round's tables (as stored: {stored:.1f} B/bet) would take:")
    for name, bytes_saved in saved.items():
        print(f"      {name:58} -{bytes_saved:5.1f}  -> {stored - bytes_saved:6.1f} B/bet")
    together = ["the bets' ids under BRIN", "the registry's bet ids as a digest, its primary key"]
    for names in (together, [f"the documents under zstd level 9, not {ZSTD_LEVEL}", *together]):
        all_saved = sum(saved[name] for name in names)
        print(f"      all of: {'; '.join(names)}")
        print(f"      {'':58} -{all_saved:5.1f}  -> {stored - all_saved:6.1f} B/bet")


# The bets' columns with no padding between them: the 8-byte ones, the date, then the variable ones
# (PostgreSQL aligns a bigint to 8 bytes and a date to 4, where it follows a variable-length value).
NARROW_BET_COLUMNS = """id, round_id, player_id, gaming_day,
    dense_rank() OVER (ORDER BY kind)::smallint AS kind,
    bet_id, spot, stake, wagered, returned, computed_wagered, computed_returned, computed_pattern, options"""


def _narrowest_rows(cursor, bets: int, stored: float) -> None:
    """The narrowest a row per bet gets while every read stays a btree lookup: every narrowing of
    run 2 but BRIN, stacked, with those that cost no read besides. The bets' columns in an order that
    leaves no padding, their kind a small integer; the bets' ids under a plain btree packed full
    (the registry's primary key already keeps them unique); the registry keyed by a digest of each
    bet id; the documents at zstd level 9. Measured against the copies that _alternatives and
    _row_per_bet built before it."""
    sql = {
        "bets, narrowest": [
            f"CREATE TABLE alt_bets_narrow AS SELECT {NARROW_BET_COLUMNS} FROM rounds_bet ORDER BY id",
            "CREATE INDEX ON alt_bets_narrow (id) WITH (fillfactor = 100)",
            "CREATE INDEX ON alt_bets_narrow (round_id)",
            "CREATE INDEX ON alt_bets_narrow (player_id, round_id)",
        ],
        "registry bet keys, indexes packed full": [
            "CREATE TABLE alt_keys_packed AS SELECT * FROM rounds_betkey ORDER BY round_id, bet_id",
            "ALTER TABLE alt_keys_packed ADD PRIMARY KEY (id) WITH (fillfactor = 100)",
            "CREATE UNIQUE INDEX ON alt_keys_packed (bet_id) WITH (fillfactor = 100)",
        ],
    }
    sizes = {name: _built(cursor, statements, bets) for name, statements in sql.items()}
    bets_rows, keys_rows = (_size(cursor, table, bets)[0] for table in ("alt_bets", "alt_keys"))
    documents = {level: _size(cursor, f"alt_documents_zstd_{level}", bets)[0] for level in (ZSTD_LEVEL, 9)}
    keys_by_digest = _size(cursor, "alt_keys_by_digest", bets)[0]
    readable = {
        "the bets narrowest": bets_rows - sizes["bets, narrowest"],
        "the registry's indexes packed full": keys_rows - sizes["registry bet keys, indexes packed full"],
        f"the documents at zstd level 9, not {ZSTD_LEVEL}": documents[ZSTD_LEVEL] - documents[9],
    }
    print("   the narrowest a row per bet gets, every read a btree lookup (B/bet):")
    for name, bytes_saved in readable.items():
        print(f"      {name:58} -{bytes_saved:5.1f}")
    every_id_readable = stored - sum(readable.values())
    print(f"      {'all three, every bet id readable in the registry':58} -> {every_id_readable:6.1f} B/bet")
    packed = keys_rows - readable["the registry's indexes packed full"]
    for name, keys in (
        ("and the registry keyed by a digest, built at once", keys_by_digest),
        ("  the same, grown round by round as ingest writes it", _digest_keys_grown(cursor, bets)),
    ):
        print(f"      {name:58} -{packed - keys:5.1f}  -> {every_id_readable - packed + keys:6.1f} B/bet")


def _digest_keys_grown(cursor, bets: int) -> float:
    """The registry keyed by digest as ingest would grow it, a round at a time (each round's keys in
    digest order): B/bet. Random keys split the index's pages where a build packs them."""
    cursor.execute("CREATE TABLE alt_keys_digest_grown (digest uuid PRIMARY KEY, id bigint, round_id bigint)")
    cursor.execute("SELECT DISTINCT round_id FROM rounds_betkey ORDER BY round_id")
    for (round_pk,) in cursor.fetchall():
        cursor.execute(
            """INSERT INTO alt_keys_digest_grown SELECT md5(bet_id)::uuid, id, round_id FROM rounds_betkey
               WHERE round_id = %s ORDER BY 1""",
            [round_pk],
        )
    return _size(cursor, "alt_keys_digest_grown", bets)[0]


def _built(cursor, statements: list[str], bets: int) -> float:
    for statement in statements:
        cursor.execute(statement)
    return _size(cursor, statements[0].split()[2], bets)[0]


def _document_texts(cursor) -> list[tuple[int, bytes]]:
    """Each round's id and document text (UTF-8), as received."""
    cursor.execute("SELECT id, document FROM rounds_round ORDER BY id")
    return [(pk, json_of_compressed(stored).encode()) for pk, stored in cursor.fetchall()]


def _documents_as_text(cursor, bets: int, texts: list[tuple[int, bytes]]) -> float:
    """The documents as text under TOAST's lz4, as PostgreSQL kept them before rounds/0022: B/bet."""
    cursor.execute("CREATE TABLE alt_documents (id bigint PRIMARY KEY, document text COMPRESSION lz4)")
    for pk, text in texts:
        cursor.execute("INSERT INTO alt_documents VALUES (%s, %s)", [pk, text.decode()])
    return _size(cursor, "alt_documents", bets)[0]


def _documents_zstd(cursor, bets: int, texts: list[tuple[int, bytes]], level: int) -> float:
    """The documents compressed with zstd before PostgreSQL sees them (stored EXTERNAL: TOAST does
    not compress them again): B/bet, and what compressing one and reading it back costs."""
    table = f"alt_documents_zstd_{level}"
    cursor.execute(f"CREATE TABLE {table} (id bigint PRIMARY KEY, document bytea)")
    cursor.execute(f"ALTER TABLE {table} ALTER COLUMN document SET STORAGE EXTERNAL")
    compress_ms = []
    for pk, text in texts:
        started = time.perf_counter()
        compressed = zstandard.compress(text, level)
        compress_ms.append((time.perf_counter() - started) * 1000)
        cursor.execute(f"INSERT INTO {table} VALUES (%s, %s)", [pk, compressed])
    whole = _size(cursor, table, bets)[0]
    newest, text = texts[-1]

    def as_text():
        cursor.execute("SELECT document FROM alt_documents WHERE id = %s", [newest])
        return json.loads(cursor.fetchone()[0])

    def as_zstd():
        cursor.execute(f"SELECT document FROM {table} WHERE id = %s", [newest])
        return json.loads(zstandard.decompress(cursor.fetchone()[0]))

    assert as_text() == as_zstd()
    text_ms, zstd_ms = (_median_of(read) for read in (as_text, as_zstd))
    print(
        f"      a round's document ({len(text) / 1e6:.1f} MB of text), level {level}: compressed in "
        f"{statistics.median(compress_ms):.1f} ms (median); read and parsed in {text_ms:.1f} ms as "
        f"lz4 text, {zstd_ms:.1f} ms under zstd ({zstd_ms / text_ms:.2f}x)"
    )
    return whole


def _median_of(read) -> float:
    read()  # warm
    seconds = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        read()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds) * 1000


def _reads_by_id(cursor) -> None:
    """Finding bets by id (a correction's bet: adjustments, refunds, void lines), btree against BRIN."""
    cursor.execute("SELECT id FROM alt_bets ORDER BY id")
    ids = [pk for (pk,) in cursor.fetchall()]
    picked = random.Random(2026)
    cursor.execute(
        """SELECT pg_relation_size(x.indexrelid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
           JOIN pg_am a ON a.oid = i.relam
           WHERE x.indrelid = 'alt_bets_brin'::regclass AND a.amname = 'brin'"""
    )
    (brin_size,) = cursor.fetchone()
    print(f"   finding bets by id, primary key against BRIN (ms, median of {REPEATS}, in process, warm):")
    print(
        f"      (BRIN on id: {brin_size // 1024} kB here, read whole by each lookup; it grows with the month)"
    )
    for count in (1, 50):
        params = {"ids": picked.sample(ids, count)}
        sql = "SELECT id, bet_id, returned FROM {} WHERE id = ANY(%(ids)s)"
        btree_ms, brin_ms = (
            _median_ms(cursor, sql.format(table), params) for table in ("alt_bets", "alt_bets_brin")
        )
        print(
            f"      {count:2} bets, anywhere in the {len(ids):,}: "
            f"{btree_ms:6.2f} against {brin_ms:6.2f} ({brin_ms / btree_ms:5.1f}x)"
        )


def _reads(cursor) -> None:
    cursor.execute("SELECT max(round_id) FROM alt_bets")
    (newest_round,) = cursor.fetchone()
    # A player of every round (Boundless: the same players round after round).
    cursor.execute(
        "SELECT player_id FROM alt_player_rounds GROUP BY player_id ORDER BY count(*) DESC, player_id LIMIT 1"
    )
    (player,) = cursor.fetchone()
    columns = "b.id, b.bet_id, b.player_id, b.kind, b.stake, b.wagered, b.returned"
    reads = {
        "a round's bets (the round page)": (
            f"SELECT {columns} FROM alt_bets b WHERE round_id = %(round)s ORDER BY id",
            f"SELECT {columns} FROM alt_round_bets r, {UNNESTED} WHERE r.round_id = %(round)s ORDER BY b.id",
        ),
        "a player's newest 50 bets (the play record)": (
            f"SELECT {columns} FROM alt_bets b WHERE player_id = %(player)s "
            "ORDER BY round_id DESC, id LIMIT 50",
            f"""SELECT {columns} FROM alt_player_rounds p JOIN alt_round_bets r USING (round_id, gaming_day),
                {UNNESTED} WHERE p.player_id = %(player)s AND b.player_id = %(player)s
                ORDER BY r.round_id DESC, b.id LIMIT 50""",
        ),
        "the newest 50 pair bets (the bet list, kind=pair)": (
            f"SELECT {columns} FROM alt_bets b WHERE kind = 'pair' ORDER BY round_id DESC, id DESC LIMIT 50",
            f"""SELECT {columns} FROM alt_round_bets r, {UNNESTED} WHERE b.kind = 'pair'
                ORDER BY r.round_id DESC, b.id DESC LIMIT 50""",
        ),
    }
    print(f"   reads, rows against arrays (ms, median of {REPEATS}, in process, warm):")
    for name, (on_rows, on_arrays) in reads.items():
        params = {"round": newest_round, "player": player}
        rows_ms, arrays_ms = (_median_ms(cursor, sql, params) for sql in (on_rows, on_arrays))
        print(f"      {name:50} {rows_ms:7.2f} against {arrays_ms:7.2f} ({arrays_ms / rows_ms:5.1f}x)")


def _median_ms(cursor, sql: str, params: dict) -> float:
    def read():
        cursor.execute(sql, params)
        return cursor.fetchall()

    return _median_of(read)
