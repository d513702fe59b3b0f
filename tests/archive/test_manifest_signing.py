"""The manifests are signed (archive.signing: HMAC-SHA256 under PITBOSS_ARCHIVE_MANIFEST_KEY), so that
a file changed in the archive cannot come with a manifest changed to match it; and `archive_check`
checks every file against its manifest and signs the manifests written before the key was set."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from archive.checks import verdicts_forget
from archive.export import MANIFEST
from archive.models import ArchivedMonth
from archive.signing import SIGNATURE, manifest_bytes
from archive.slices import PARTS
from rounds.models import Bet
from tests.archive.damage_support import TAMPERED, dlx1_march, put_back, returned_changed
from tests.archive.recall_support import page_of
from tests.archive.support import MARCH, march_archived
from tests.rounds.corrections_support import demo_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
KEY = "a-long-random-key-kept-apart-from-the-archive"


@pytest.fixture
def march(history, tmp_path, settings):
    settings.PITBOSS_ARCHIVE_URL = str(tmp_path / "archive")
    bet = Bet.objects.filter(round=history.march[1]).select_related("player").order_by("id").first()
    verdicts_forget()
    compliance = Client()
    compliance.force_login(demo_user("compliance"))
    return history, bet, compliance


def archive_check(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("archive_check", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_file_changed_with_its_manifest_to_match_is_refused_by_the_signature(march, settings):
    history, bet, compliance = march
    settings.PITBOSS_ARCHIVE_MANIFEST_KEY = KEY
    march_archived(history)
    record = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH)
    assert record.manifest[SIGNATURE]["algorithm"] == "HMAC-SHA256"
    month = dlx1_march(history, bet)
    assert str(TAMPERED) not in page_of(compliance, month.round_id)

    # The file changed, and the manifest (the database's and the archive's) made to match it.
    returned_changed(month)
    sha256, size = month.location.checksum(month.bets_path)
    record.manifest["files"]["bets"].update(sha256=sha256, bytes=size)
    record.save(update_fields=["manifest"])
    manifest_path = f"{month.location.month_dir('DLX1', MARCH)}/{MANIFEST}"
    month.location.write_bytes(manifest_path, manifest_bytes(record.manifest))

    response = compliance.get(f"/rounds/{month.round_id}/")
    assert response.status_code == 409
    html = response.content.decode()
    assert "The archive of DLX1 2026-03 is damaged" in html and "manifest.json" in html
    assert "signature does not match" in html and str(TAMPERED) not in html
    with pytest.raises(CommandError, match="1 month"):
        archive_check("DLX1", "2026-03")


def test_archive_check_signs_the_manifests_written_before_the_key_once_their_files_match(march, settings):
    history, bet, compliance = march
    march_archived(history)  # no key yet: unsigned
    month = dlx1_march(history, bet)
    assert SIGNATURE not in ArchivedMonth.objects.get(table=history.dlx1, month=MARCH).manifest
    with pytest.raises(CommandError, match="PITBOSS_ARCHIVE_MANIFEST_KEY is not set"):
        archive_check("--sign")

    settings.PITBOSS_ARCHIVE_MANIFEST_KEY = KEY
    response = compliance.get(f"/rounds/{month.round_id}/")
    assert response.status_code == 409 and "archive_check --sign" in response.content.decode()
    with pytest.raises(CommandError, match="manifest.json: the manifest is not signed"):
        call_command("archive_restore", "DLX1", "2026-03", stdout=io.StringIO())

    returned_changed(month)  # DLX1's March damaged: it is not signed; CLS1's is
    with pytest.raises(CommandError, match="1 month"):
        out, err = archive_check("--sign")
    assert not ArchivedMonth.objects.get(table=history.dlx1, month=MARCH).manifest.get(SIGNATURE)
    assert ArchivedMonth.objects.get(table=history.cls1, month=MARCH).manifest.get(SIGNATURE)

    put_back(month)
    out, err = archive_check("--sign")
    assert f"DLX1 2026-03: {len(PARTS)} files match the manifest; manifest signed" in out, (out, err)
    assert f"CLS1 2026-03: {len(PARTS)} files match the manifest\n" in out and err == ""
    record = ArchivedMonth.objects.get(table=history.dlx1, month=MARCH)
    manifest_path = f"{month.location.month_dir('DLX1', MARCH)}/{MANIFEST}"
    assert month.location.read_bytes(manifest_path) == manifest_bytes(record.manifest)  # the archive's too
    assert str(TAMPERED) not in page_of(compliance, month.round_id)
    out, _ = archive_check("DLX1", "2026-03")
    assert out == f"DLX1 2026-03: {len(PARTS)} files match the manifest\n"
