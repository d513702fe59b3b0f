"""A round's document is kept as the JSON text it was received as, compressed with zstd: read back,
exported and restored as that text, byte for byte; migration rounds/0022 compresses the documents a
database already holds, and going back gives them back as text (PostgreSQL, on a scratch database)."""

import hashlib
import os
import subprocess
import sys

import psycopg
import pytest
from django.db import connection

from rounds.fields import json_of_compressed
from rounds.ingest import round_ingest
from rounds.models import Round
from tests.fixtures import round_document, round_path
from tests.rounds.test_migrations_back import ROOT, _scratch, migrate
from tests.rounds.test_pages import demo  # noqa: F401 (a fixture)

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
FIXTURE = "deluxe-split-double-play-behind"


def stored_bytes(round_pk: int) -> bytes:
    with connection.cursor() as cursor:
        cursor.execute("SELECT document FROM rounds_round WHERE id = %s", [round_pk])
        return bytes(cursor.fetchone()[0])


@pytest.mark.django_db
@pytest.mark.usefixtures("demo")
def test_a_document_is_stored_compressed_and_read_back_as_the_text_received():
    document = round_document(FIXTURE)
    document["note"] = 'Ünïcode and \\ escapes " kept'  # text PostgreSQL would read as escapes in bytea
    stored = round_ingest(document=document).round

    data = stored_bytes(stored.pk)
    assert data.startswith(ZSTD_MAGIC)
    text = json_of_compressed(data)
    assert len(data) < len(text.encode()) / 2
    assert hashlib.sha256(text.encode()).hexdigest() == stored.document_sha256
    assert Round.objects.get(pk=stored.pk).document == document
    # The same document again is the same round, not a conflict.
    assert round_ingest(document=round_document(FIXTURE) | {"note": document["note"]}).created is False


@pytest.mark.postgres
def test_migration_0022_compresses_the_documents_kept_and_back_gives_their_text():
    with _scratch("documents") as (url, server):
        migrate(url)
        environment = {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
        for command in (["seed_demo"], ["ingest", str(round_path(FIXTURE))]):
            done = subprocess.run(
                [sys.executable, "manage.py", *command, "-v0"],
                cwd=ROOT,
                env={**os.environ, **environment},
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stderr[-3000:]

        def document_and_digest():
            with psycopg.connect(**server) as database:
                return database.execute("SELECT document, document_sha256 FROM rounds_round").fetchone()

        compressed, digest = document_and_digest()
        text = json_of_compressed(compressed)

        migrate(url, "rounds", "0021")
        as_text, _ = document_and_digest()
        assert as_text == text
        assert hashlib.sha256(as_text.encode()).hexdigest() == digest
        with psycopg.connect(**server) as database:
            storage = database.execute(
                "SELECT attstorage, attcompression FROM pg_attribute "
                "WHERE attrelid = 'rounds_round'::regclass AND attname = 'document'"
            ).fetchone()
        assert storage == ("x", "l")  # extended, under lz4, as migration 0003 set it

        migrate(url)
        again, _ = document_and_digest()
        assert bytes(again).startswith(ZSTD_MAGIC)
        assert json_of_compressed(again) == text
        with psycopg.connect(**server) as database:
            storages = database.execute(
                "SELECT DISTINCT attstorage FROM pg_attribute WHERE attname = 'document' "
                "AND attrelid IN (SELECT relid FROM pg_partition_tree('rounds_round'))"
            ).fetchall()
        assert storages == [("e",)]  # external on every partition: TOAST does not compress it again
