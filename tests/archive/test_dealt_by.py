"""Who dealt a round (Round.dealt_by, rounds/0026) in the archive: an archived month keeps it, recall
shows it and a restore puts it back. A month archived before the column was added (its rounds file
has no dealt_by) is still recalled and restored, its rounds' dealt_by blank (archive.slices.ADDED_COLUMNS);
a file lacking any other column is still refused."""

import io

import pyarrow.parquet as pq
import pytest
from django.core.management import call_command
from django.test import Client

from archive.checks import verdicts_forget
from archive.export import COMPRESSION, MANIFEST
from archive.models import ArchivedMonth
from archive.restore import columns_fit
from archive.signing import SIGNATURE, manifest_bytes, manifest_signed
from archive.slices import ADDED_COLUMNS, PARTS, part_schema
from archive.storage import archive_location
from rounds.models import Round
from tests.api_support import client_as
from tests.archive.recall_support import page_of
from tests.archive.support import MARCH, march_archived
from tests.rounds.corrections_support import demo_user

ROUNDS = next(part for part in PARTS if part.name == "rounds")


def test_a_rounds_file_without_dealt_by_fits_and_one_without_another_column_does_not():
    now = part_schema(ROUNDS, {})
    added = ADDED_COLUMNS["rounds"]
    before = now.remove(now.get_field_index("dealt_by"))
    assert columns_fit(before, now, added=added)
    assert not columns_fit(before, now)  # only where the column is known to be added since
    assert not columns_fit(now.remove(now.get_field_index("dealer_cards")), now, added=added)
    assert not columns_fit(before.remove(before.get_field_index("shared")), now, added=added)


def archive_restore(*args) -> str:
    out = io.StringIO()
    call_command("archive_restore", *args, stdout=out)
    return out.getvalue()


@pytest.mark.postgres
def test_who_dealt_is_recalled_from_the_archive_and_restored(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    plain, wrong, _, _ = history.march
    march_archived(history)
    api = client_as("compliance")
    assert api.get(f"/api/rounds/{wrong.round_id}/").json()["dealt_by"] == "D-ANA"
    assert api.get(f"/api/rounds/{plain.round_id}/").json()["dealt_by"] == ""

    archive_restore("DLX1", "2026-03")

    assert Round.objects.get(pk=wrong.pk).dealt_by == "D-ANA"
    assert Round.objects.get(pk=plain.pk).dealt_by == ""


def rounds_file_as_before_dealt_by(record: ArchivedMonth) -> None:
    """Rewrite the month's rounds file as an export before rounds/0026 wrote it (no dealt_by column),
    and its manifest (in the archive and the database) to match, signed again when a key is set."""
    location = archive_location(record.archive_url)
    directory = location.month_dir(record.table.code, record.month)
    path = f"{directory}/{record.manifest['files']['rounds']['path']}"
    with location.filesystem.open_input_file(path) as source:
        table = pq.read_table(source)
    assert "dealt_by" in table.column_names
    with location.filesystem.open_output_stream(path) as sink:
        pq.write_table(table.drop_columns(["dealt_by"]), sink, compression=COMPRESSION)
    sha256, size = location.checksum(path)
    manifest = {name: value for name, value in record.manifest.items() if name != SIGNATURE}
    manifest["files"]["rounds"] |= {"bytes": size, "sha256": sha256}
    manifest = manifest_signed(manifest)
    location.write_bytes(f"{directory}/{MANIFEST}", manifest_bytes(manifest))
    record.manifest = manifest
    record.save(update_fields=["manifest"])
    verdicts_forget()


@pytest.mark.postgres
def test_a_month_archived_before_dealt_by_is_recalled_and_restored_with_it_blank(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    plain, wrong, _, _ = history.march
    march_archived(history)
    rounds_file_as_before_dealt_by(ArchivedMonth.objects.get(table=history.dlx1, month=MARCH))
    compliance = client_as("compliance")

    # The round's document says D-ANA, but the file (as written before the column) has no dealt_by:
    # blank, as the migration left the rounds stored before it.
    answer = compliance.get(f"/api/rounds/{wrong.round_id}/").json()
    assert answer["archived"] is True and answer["dealt_by"] == ""
    assert answer["bets"]  # the rest of the round is read as before
    pages = Client()
    pages.force_login(demo_user("compliance"))
    html = page_of(pages, wrong.round_id)
    assert (
        "From the archive" in html
        and '<dd class="dealt-by"><span class="subtle">not sent</span></dd>' in html
    )

    out = archive_restore("DLX1", "2026-03")

    assert "equal to the manifest" in out
    assert Round.objects.get(pk=wrong.pk).dealt_by == ""
    assert Round.objects.get(pk=plain.pk).dealt_by == ""
