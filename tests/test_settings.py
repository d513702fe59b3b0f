"""The environment helpers in core/env.py: good values parse, bad ones stop start-up."""

import json
import os
import subprocess
import sys
from datetime import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.env import (
    CONSOLE_BACKEND,
    SMTP_BACKEND,
    env_bool,
    env_broker_url,
    env_database,
    env_int,
    env_list,
    env_mailer,
    env_str,
    env_time,
    env_timezone,
    filesystem_broker_options,
    is_filesystem_url,
    is_redis_url,
)

REPO = Path(__file__).resolve().parent.parent


def _database(environ: dict[str, str], tmp_path: Path) -> dict:
    return env_database(
        "DATABASE_URL", sqlite_path=tmp_path / "var" / "db.sqlite3", conn_max_age=60, environ=environ
    )


def test_an_empty_value_counts_as_unset():
    assert env_str("X", "fallback", environ={"X": "  "}) == "fallback"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("true", True), ("Yes", True), ("0", False), ("FALSE", False), ("no", False)],
)
def test_env_bool_accepts_the_usual_spellings(value, expected):
    assert env_bool("DEBUG", not expected, environ={"DEBUG": value}) is expected


def test_env_bool_uses_the_default_when_unset():
    assert env_bool("DEBUG", True, environ={}) is True


@pytest.mark.parametrize("value", ["2", "on", "maybe", "tru"])
def test_env_bool_rejects_anything_else(value):
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG", True, environ={"DEBUG": value})


def test_env_list_splits_on_commas_and_strips():
    assert env_list("ALLOWED_HOSTS", [], environ={"ALLOWED_HOSTS": "a.example, b.example"}) == [
        "a.example",
        "b.example",
    ]


def test_env_list_uses_the_default_when_unset():
    assert env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"], environ={}) == ["127.0.0.1", "localhost"]


def test_env_list_rejects_an_empty_item():
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS"):
        env_list("ALLOWED_HOSTS", [], environ={"ALLOWED_HOSTS": "a.example,,b.example"})


def test_env_time_parses_hh_mm():
    assert env_time(
        "PITBOSS_GAMING_DAY_CUTOFF", "06:00", environ={"PITBOSS_GAMING_DAY_CUTOFF": "23:59"}
    ) == time(23, 59)
    assert env_time("PITBOSS_GAMING_DAY_CUTOFF", "06:00", environ={}) == time(6, 0)


@pytest.mark.parametrize("value", ["6:00", "24:00", "06:60", "0600", "06:00:00", "noon"])
def test_env_time_rejects_anything_but_hh_mm(value):
    with pytest.raises(ImproperlyConfigured, match="PITBOSS_GAMING_DAY_CUTOFF"):
        env_time("PITBOSS_GAMING_DAY_CUTOFF", "06:00", environ={"PITBOSS_GAMING_DAY_CUTOFF": value})


def test_env_int_parses_a_whole_number_and_defaults_when_unset():
    name = "PITBOSS_ROUND_CLOCK_TOLERANCE_MINUTES"
    assert env_int(name, 5, environ={name: "12"}) == 12
    assert env_int(name, 5, environ={}) == 5


@pytest.mark.parametrize("value", ["-1", "2.5", "five", "\uff15"])  # the last: a full-width 5
def test_env_int_rejects_anything_but_ascii_digits(value):
    name = "PITBOSS_ROUND_CLOCK_TOLERANCE_MINUTES"
    with pytest.raises(ImproperlyConfigured, match=name):
        env_int(name, 5, environ={name: value})


def test_env_timezone_accepts_an_iana_name():
    environ = {"PITBOSS_GAMING_DAY_TIME_ZONE": "America/New_York"}
    assert env_timezone("PITBOSS_GAMING_DAY_TIME_ZONE", "Europe/Malta", environ=environ) == "America/New_York"


@pytest.mark.parametrize("value", ["Europe/Atlantis", "../etc/passwd", "CEST+2"])
def test_env_timezone_rejects_an_unknown_zone(value):
    with pytest.raises(ImproperlyConfigured, match="PITBOSS_GAMING_DAY_TIME_ZONE"):
        env_timezone(
            "PITBOSS_GAMING_DAY_TIME_ZONE", "Europe/Malta", environ={"PITBOSS_GAMING_DAY_TIME_ZONE": value}
        )


def test_database_defaults_to_sqlite_and_creates_its_folder(tmp_path):
    config = _database({}, tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "var" / "db.sqlite3")
    assert (tmp_path / "var").is_dir()


def test_database_parses_a_postgres_url(tmp_path):
    config = _database({"DATABASE_URL": "postgres://app:s3cret@db.internal:5433/pitboss"}, tmp_path)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.internal", 5433, "pitboss")
    assert (config["USER"], config["PASSWORD"]) == ("app", "s3cret")
    assert config["CONN_MAX_AGE"] == 60


@pytest.mark.parametrize(
    "url",
    [
        "mysql://root@localhost/pitboss",
        "sqlite:///tmp/x.sqlite3",
        "not a url",
        "postgres://app:s3cret@db.internal:port/pitboss",
        "postgres://app@db.internal:5432/",
    ],
)
def test_database_rejects_anything_but_a_postgres_url(url, tmp_path):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL") as raised:
        _database({"DATABASE_URL": url}, tmp_path)
    assert "s3cret" not in str(raised.value)


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://cache:6380/1", "amqp://guest@mq//"])
def test_broker_url_accepts_redis_and_amqp(url):
    assert env_broker_url("CELERY_BROKER_URL", environ={"CELERY_BROKER_URL": url}) == url


def test_broker_url_is_none_when_unset():
    assert env_broker_url("CELERY_BROKER_URL", environ={}) is None


def test_broker_url_accepts_the_filesystem_transport():
    assert (
        env_broker_url("CELERY_BROKER_URL", environ={"CELERY_BROKER_URL": "filesystem://"}) == "filesystem://"
    )
    assert is_filesystem_url("filesystem://") and not is_filesystem_url("redis://x")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:6379",
        "127.0.0.1:6379",
        "sqs://queue",
        "filesystem:/",
        "file://",
        "memory://",
        "garbage",
    ],
)
def test_broker_url_rejects_other_schemes(url):
    with pytest.raises(ImproperlyConfigured, match="CELERY_BROKER_URL"):
        env_broker_url("CELERY_BROKER_URL", environ={"CELERY_BROKER_URL": url})


@pytest.mark.parametrize("url", ["filesystem:///var/broker", "filesystem://localhost/"])
def test_broker_url_takes_no_folder_for_the_filesystem_transport(url):
    with pytest.raises(
        ImproperlyConfigured, match="CELERY_BROKER_URL must be exactly filesystem://.*PITBOSS_BROKER_FOLDER"
    ):
        env_broker_url("CELERY_BROKER_URL", environ={"CELERY_BROKER_URL": url})


def test_filesystem_broker_options_make_its_folders(tmp_path):
    options = filesystem_broker_options(tmp_path / "broker")
    queue = str(tmp_path / "broker" / "queue")
    assert options == {
        "data_folder_in": queue,
        "data_folder_out": queue,
        "control_folder": str(tmp_path / "broker" / "control"),
    }
    assert (tmp_path / "broker" / "queue").is_dir() and (tmp_path / "broker" / "control").is_dir()


def test_sqlite_has_a_busy_timeout_wal_and_immediate_transactions(tmp_path):
    options = _database({}, tmp_path)["OPTIONS"]
    assert options["timeout"] >= 5
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "PRAGMA journal_mode=WAL" in options["init_command"]


def test_is_redis_url():
    assert is_redis_url("redis://x") and is_redis_url("rediss://x")
    assert not is_redis_url("amqp://x") and not is_redis_url(None)


def _import_settings(**overrides: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DEBUG"}}
    environ.update(overrides)
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=REPO,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_start_up_stops_on_a_bad_database_url():
    result = _import_settings(DATABASE_URL="mysql://root@localhost/pitboss")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DATABASE_URL" in result.stderr


def test_start_up_stops_without_a_secret_key_when_debug_is_off():
    result = _import_settings(DEBUG="false", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_settings_import_cleanly_with_nothing_set():
    result = _import_settings()
    assert result.returncode == 0, result.stderr


def _settings_value(code: str, **overrides: str) -> subprocess.CompletedProcess:
    """Run `code` (printing something) with config.settings set up, in a process of its own."""
    environ = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DEBUG"}}
    environ.update(DJANGO_SETTINGS_MODULE="config.settings", **overrides)
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=REPO,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_filesystem_broker_keeps_its_folders_where_the_setting_says(tmp_path):
    result = _settings_value(
        "import json; from django.conf import settings; "
        "print(json.dumps([settings.CELERY_BROKER_URL, settings.CELERY_TASK_ALWAYS_EAGER, "
        "settings.CELERY_RESULT_BACKEND, settings.CELERY_BROKER_TRANSPORT_OPTIONS]))",
        CELERY_BROKER_URL="filesystem://",
        PITBOSS_BROKER_FOLDER=str(tmp_path / "broker"),
    )
    assert result.returncode == 0, result.stderr
    url, eager, backend, options = json.loads(result.stdout)
    assert (url, eager, backend) == ("filesystem://", False, None)
    assert options["data_folder_in"] == options["data_folder_out"] == str(tmp_path / "broker" / "queue")
    assert options["control_folder"] == str(tmp_path / "broker" / "control")
    assert (tmp_path / "broker" / "queue").is_dir()


def test_a_redis_broker_gives_a_killed_workers_messages_back_after_the_visibility_setting():
    show = (
        "from django.conf import settings; "
        "print(settings.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout'])"
    )
    redis = "redis://127.0.0.1:6379/0"
    assert _settings_value(show, CELERY_BROKER_URL=redis).stdout.strip() == "3600"
    chosen = _settings_value(show, CELERY_BROKER_URL=redis, PITBOSS_BROKER_VISIBILITY_SECONDS="30")
    assert chosen.stdout.strip() == "30", chosen.stderr


def test_start_up_stops_on_a_bad_broker_url():
    result = _import_settings(CELERY_BROKER_URL="filesytem://")
    assert result.returncode != 0
    assert "ImproperlyConfigured: CELERY_BROKER_URL must start with one of" in result.stderr


def test_sqlite_connections_are_in_wal_mode_with_a_busy_timeout(tmp_path):
    """As every process of make demo opens them (PostgreSQL in CI or not: DATABASE_URL is unset here)."""
    result = _settings_value(
        "from django.db import connection; cursor = connection.cursor(); "
        "print(*[cursor.execute(f'PRAGMA {name}').fetchone()[0] for name in ('journal_mode', 'busy_timeout', "
        "'synchronous')])",
        PITBOSS_SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    assert result.returncode == 0, result.stderr
    # synchronous 1 is NORMAL; the busy timeout is in milliseconds.
    assert result.stdout.split() == ["wal", "30000", "1"]


@pytest.mark.parametrize("name", ["PITBOSS_SESSION_IDLE_MINUTES", "PITBOSS_SESSION_MAX_AGE_HOURS"])
def test_start_up_stops_on_a_session_lifetime_of_zero(name):
    result = _import_settings(**{name: "0"})
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {name} must be a whole number of at least 1" in result.stderr


def test_start_up_stops_on_an_account_allowance_that_would_make_a_real_user_wait_too_long():
    """Under 20 wrong passwords an hour per account, keeping to it would need waits over 5 minutes
    (accounts/sign_in.py): a real user, from a new address, could wait that long to sign in."""
    name = "PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR"
    assert _import_settings(**{name: "20"}).returncode == 0
    result = _import_settings(**{name: "19"})
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {name} must be a whole number of at least 20" in result.stderr


def test_the_mailer_is_the_console_without_a_host_in_development_and_smtp_from_the_email_variables():
    assert env_mailer(console_without_host=True, environ={}) == {"BACKEND": CONSOLE_BACKEND}
    assert env_mailer(console_without_host=False, environ={})["OPTIONS"]["host"] == "localhost"
    mailer = env_mailer(
        console_without_host=True,
        environ={
            "EMAIL_HOST": "smtp.example.com",
            "EMAIL_USE_TLS": "yes",
            "EMAIL_HOST_USER": "pitboss",
            "EMAIL_HOST_PASSWORD": "secret",
        },
    )
    assert mailer["BACKEND"] == SMTP_BACKEND
    assert mailer["OPTIONS"] | {"timeout": None} == {
        "host": "smtp.example.com",
        "port": 587,
        "username": "pitboss",
        "password": "secret",
        "use_tls": True,
        "use_ssl": False,
        "timeout": None,
    }
    ssl = env_mailer(console_without_host=True, environ={"EMAIL_HOST": "h", "EMAIL_USE_SSL": "1"})
    assert ssl["OPTIONS"]["port"] == 465
    both = {"EMAIL_HOST": "h", "EMAIL_USE_SSL": "1", "EMAIL_USE_TLS": "1"}
    with pytest.raises(ImproperlyConfigured, match="EMAIL_USE_TLS and EMAIL_USE_SSL"):
        env_mailer(console_without_host=True, environ=both)
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT"):
        env_mailer(console_without_host=True, environ={"EMAIL_HOST": "h", "EMAIL_PORT": "smtp"})
