"""The archive's settings and where they point (no database, no network)."""

from pathlib import Path

from django.conf import settings
from pyarrow import fs

from archive.storage import archive_location
from archive.window import hot_window_start, months_before


def test_the_defaults():
    assert settings.PITBOSS_HOT_MONTHS == 13
    assert settings.PITBOSS_ARCHIVE_RETENTION_YEARS == 10
    assert settings.PITBOSS_ARCHIVE_URL == str(settings.VAR_DIR / "archive")
    assert settings.PITBOSS_ARCHIVE_S3_ENDPOINT is None


def test_a_directory_or_an_s3_bucket(tmp_path, monkeypatch):
    local = archive_location(str(tmp_path / "archive/"))
    assert isinstance(local.filesystem, fs.LocalFileSystem)
    assert local.root == str(tmp_path / "archive") and local.month_dir(
        "DLX1", months_before(hot_window_start(), 0)
    ).startswith(local.root + "/DLX1/")
    monkeypatch.chdir(tmp_path)
    assert archive_location("var/archive").root == str(Path(tmp_path / "var/archive").resolve())
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    s3 = archive_location("s3://bucket/pitboss/", s3_endpoint="http://127.0.0.1:9000")
    assert isinstance(s3.filesystem, fs.S3FileSystem)
    assert (s3.root, s3.url) == ("bucket/pitboss", "s3://bucket/pitboss")


def test_the_hot_window_is_the_current_month_and_the_months_before_it(settings):
    from datetime import date

    settings.PITBOSS_HOT_MONTHS = 13
    assert hot_window_start(date(2026, 12, 3)) == date(2025, 11, 1)
    assert hot_window_start(date(2026, 1, 31)) == date(2024, 12, 1)
    settings.PITBOSS_HOT_MONTHS = 1
    assert hot_window_start(date(2026, 1, 1)) == date(2025, 12, 1)


def test_production_refuses_to_start_with_an_archive_and_no_manifest_key():
    from tests.test_entry_points import DEPLOYMENT, python

    archive = {"PITBOSS_ARCHIVE_URL": "s3://pitboss-archive/history"}
    result = python("-c", "import config.wsgi", **DEPLOYMENT, **archive)
    assert result.returncode != 0
    assert "ImproperlyConfigured: PITBOSS_ARCHIVE_MANIFEST_KEY must be set in production" in result.stderr
    assert "archive_check --sign" in result.stderr
    result = python(
        "-c", "import config.wsgi", **DEPLOYMENT, **archive, PITBOSS_ARCHIVE_MANIFEST_KEY="k" * 40
    )
    assert result.returncode == 0, result.stderr
    assert python("-c", "import config.wsgi", **DEPLOYMENT).returncode == 0  # no archive named: no key asked
