"""What a server or worker loads when nothing names the settings: the production settings.

gunicorn (config.wsgi), an ASGI server (config.asgi) and a Celery worker (config.celery) default
DJANGO_SETTINGS_MODULE to config.settings_production, which refuses to start without SECRET_KEY,
ALLOWED_HOSTS and CACHE_URL; only manage.py (and so `make demo` and pytest) defaults to the
development settings. Each case runs in a fresh interpreter with those variables removed.
"""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# What decides which settings load and whether they start; the rest of the environment stays
# (DATABASE_URL, CELERY_BROKER_URL: read as in development).
SETTINGS_VARIABLES = {
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CACHE_URL",
    "PITBOSS_LEDGER_KEY",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
SHOW = """
import json
from django.conf import settings
print(json.dumps({"module": settings.SETTINGS_MODULE, "debug": settings.DEBUG,
                  "cache": settings.CACHES["default"]["BACKEND"]}))
"""
LOADS = {
    "wsgi": "import config.wsgi",
    "asgi": "import config.asgi",
    # A worker reads its configuration from the Django settings (CELERY_* names) through the app
    # (not the broker's URL: Celery takes that from the environment first).
    "celery": "from config.celery import app; app.conf.task_acks_late",
}
DEPLOYMENT = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "pitboss.example.com",
    "CACHE_URL": "redis://127.0.0.1:6379/9",  # not connected to: loading settings opens no connection
    "PITBOSS_LEDGER_KEY": secrets.token_urlsafe(50),
}


def python_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}


def python(*args: str, **variables: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO,
        env={**python_environment(), **variables},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("entry", LOADS)
def test_an_entry_point_refuses_to_start_without_a_secret_key(entry):
    result = python("-c", LOADS[entry])
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set in production" in result.stderr


def test_a_celery_worker_refuses_to_start_without_a_secret_key():
    worker = str(Path(sys.executable).parent / "celery")
    result = subprocess.run(
        [worker, "-A", "config", "worker", "--loglevel", "warning"],
        cwd=REPO,
        # A broker nothing listens on: started by mistake, the worker would wait for it, not run.
        env={**python_environment(), "CELERY_BROKER_URL": "redis://127.0.0.1:9/0"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set in production" in result.stderr


@pytest.mark.parametrize("entry", LOADS)
@pytest.mark.parametrize("missing", ["ALLOWED_HOSTS", "CACHE_URL"])
def test_an_entry_point_names_what_else_is_missing(entry, missing):
    result = python("-c", LOADS[entry], **{**DEPLOYMENT, missing: ""})
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {missing} must be set in production" in result.stderr


@pytest.mark.parametrize("entry", LOADS)
def test_an_entry_point_loads_the_production_settings_when_they_are_complete(entry):
    result = python("-c", LOADS[entry] + SHOW, **DEPLOYMENT)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "module": "config.settings_production",
        "debug": False,
        "cache": "core.cache.ResilientRedisCache",
    }


@pytest.mark.parametrize("entry", LOADS)
def test_named_settings_win_over_the_default(entry):
    """Tests and benchmarks name the development settings explicitly; that still works."""
    result = python("-c", LOADS[entry] + SHOW, DJANGO_SETTINGS_MODULE="config.settings")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["module"] == "config.settings"


def test_manage_py_alone_defaults_to_the_development_settings():
    result = python("manage.py", "shell", "--no-imports", "--command", SHOW)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "module": "config.settings",
        "debug": True,
        "cache": "django.core.cache.backends.locmem.LocMemCache",
    }
