"""`manage.py check --deploy` is clean with the production settings (config/settings_production.py),
which refuse to start without their secret, hosts and shared cache; the development settings stay as
they were."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings

REPO = Path(__file__).resolve().parent.parent
PRODUCTION = "config.settings_production"
# What the settings read about security; the tests set them, the rest of the environment stays.
# DJANGO_ALLOW_ASYNC_UNSAFE too: the browser tests set it in this process, a deployment never does.
SECURITY_VARIABLES = {
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CACHE_URL",
    "PITBOSS_LEDGER_KEY",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "PITBOSS_NOTIFICATIONS",
    "EMAIL_HOST",
    "DEFAULT_FROM_EMAIL",
    "PITBOSS_BASE_URL",
}
SHOW_SETTINGS = """
import json
from django.conf import settings
names = ["DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT", "SECURE_PROXY_SSL_HEADER",
         "SECURE_HSTS_SECONDS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"]
shown = {name: getattr(settings, name) for name in names}
shown["CACHE"] = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[1]
print(json.dumps(shown))
"""
# Loading the settings opens no connection: any Redis URL does where the cache is not used.
SOME_REDIS = "redis://127.0.0.1:6379/9"


def run(*args: str, **variables: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in SECURITY_VARIABLES}
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO,
        env={**environ, **variables},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production(**variables: str) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": PRODUCTION,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "pitboss.example.com",
        "CACHE_URL": SOME_REDIS,
        "PITBOSS_LEDGER_KEY": secrets.token_urlsafe(50),
        **variables,
    }


def test_check_deploy_is_clean_with_the_production_settings():
    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING", **production())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


def test_the_production_settings_expect_tls_to_end_at_a_proxy():
    result = run("-c", f"import django; django.setup(); {SHOW_SETTINGS}", **production())
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["pitboss.example.com"],
        "SECURE_SSL_REDIRECT": True,
        "SECURE_REDIRECT_EXEMPT": ["^healthz$", "^metrics$"],
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_HSTS_SECONDS": 31536000,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "CACHE": "ResilientRedisCache",
    }


def test_production_refuses_to_start_without_a_secret_key():
    result = run("manage.py", "check", "--deploy", **production(SECRET_KEY=""))
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set in production" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    result = run("manage.py", "check", "--deploy", **production(ALLOWED_HOSTS=""))
    assert result.returncode != 0
    assert "ImproperlyConfigured: ALLOWED_HOSTS must be set in production" in result.stderr


@pytest.mark.parametrize("key", ["x" * 49, "django-insecure-pitboss-development-only"])
def test_production_refuses_a_secret_key_shorter_than_50_characters(key):
    result = run("manage.py", "check", "--deploy", **production(SECRET_KEY=key))
    assert result.returncode != 0
    assert (
        f"ImproperlyConfigured: SECRET_KEY must be at least 50 characters in production; it has {len(key)}"
        in result.stderr
    )


def test_production_takes_a_secret_key_of_50_characters():
    key = secrets.token_urlsafe(50)[:50]
    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING", **production(SECRET_KEY=key))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("hosts", ["*", "pitboss.example.com,*", " * ", "pitboss.example.com,*.example.com"])
def test_production_refuses_a_wildcard_in_allowed_hosts(hosts):
    result = run("manage.py", "check", "--deploy", **production(ALLOWED_HOSTS=hosts))
    assert result.returncode != 0
    assert (
        "ImproperlyConfigured: ALLOWED_HOSTS must name the back office's hosts in production, without '*'"
        in (result.stderr)
    )


def test_production_refuses_to_start_without_a_shared_cache():
    result = run("manage.py", "check", "--deploy", **production(CACHE_URL=""))
    assert result.returncode != 0
    assert "ImproperlyConfigured: CACHE_URL must be set in production" in result.stderr


@pytest.mark.parametrize("url", ["memcached://127.0.0.1:11211", "127.0.0.1:6379", "locmem://"])
def test_production_refuses_a_cache_that_is_not_redis(url):
    result = run("manage.py", "check", "--deploy", **production(CACHE_URL=url))
    assert result.returncode != 0
    assert "ImproperlyConfigured: CACHE_URL must be a Redis URL" in result.stderr


@pytest.mark.redis
def test_the_production_cache_is_shared_through_redis():
    """A value cached by a process under the production settings is in Redis, where every other
    process and machine reads it (CELERY_BROKER_URL's Redis stands in for CACHE_URL's here)."""
    key = f"pitboss-test-{secrets.token_hex(8)}"
    script = (
        "import django, json; django.setup();"
        "from django.core.cache import cache;"
        f"cache.set({key!r}, 42, 60);"
        f"print(json.dumps([cache.make_key({key!r}), cache.get({key!r})]))"
    )
    result = run("-c", script, **production(CACHE_URL=settings.CELERY_BROKER_URL))
    assert result.returncode == 0, result.stderr
    stored_as, read_back = json.loads(result.stdout)
    assert read_back == 42
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=5)
    try:
        assert client.get(stored_as) == b"42"
        assert 0 < client.ttl(stored_as) <= 60
    finally:
        client.delete(stored_as)


MAIL = {
    "EMAIL_HOST": "smtp.example.com",
    "DEFAULT_FROM_EMAIL": "pitboss@example.com",
    "PITBOSS_BASE_URL": "https://pitboss.example.com",
}


@pytest.mark.parametrize("unset", sorted(MAIL))
def test_production_refuses_notifications_without_their_mail_settings(unset):
    result = run(
        "manage.py", "check", "--deploy", **production(PITBOSS_NOTIFICATIONS="yes", **(MAIL | {unset: ""}))
    )
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {unset} must be set in production when PITBOSS_NOTIFICATIONS is on" in (
        result.stderr
    )


def test_production_has_notifications_off_unless_set_and_mails_by_smtp():
    show = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.PITBOSS_NOTIFICATIONS, settings.MAILERS['default']['BACKEND'].rsplit('.', 2)[1])"
    )
    assert run("-c", show, **production()).stdout.split() == ["False", "smtp"]
    assert run("-c", show, **production(PITBOSS_NOTIFICATIONS="yes", **MAIL)).stdout.split() == [
        "True",
        "smtp",
    ]


def test_production_refuses_debug():
    result = run("manage.py", "check", "--deploy", **production(DEBUG="true"))
    assert result.returncode != 0
    assert "ImproperlyConfigured: DEBUG must be off in production" in result.stderr


def test_the_development_settings_stay_as_they_were():
    """`make demo` serves plain HTTP on 127.0.0.1 with a development key: no redirect, no
    HTTPS-only cookies (the login would not stick), DEBUG on."""
    result = run(
        "-c", f"import django; django.setup(); {SHOW_SETTINGS}", DJANGO_SETTINGS_MODULE="config.settings"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "DEBUG": True,
        "ALLOWED_HOSTS": ["127.0.0.1", "localhost"],
        "SECURE_SSL_REDIRECT": False,
        "SECURE_REDIRECT_EXEMPT": [],
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_HSTS_SECONDS": 0,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "CACHE": "LocMemCache",
    }
    assert run("manage.py", "check", DJANGO_SETTINGS_MODULE="config.settings").returncode == 0


def test_production_refuses_to_start_without_the_ledger_key():
    result = run("manage.py", "check", "--deploy", **production(PITBOSS_LEDGER_KEY=""))
    assert result.returncode != 0
    assert "ImproperlyConfigured: PITBOSS_LEDGER_KEY must be set in production" in result.stderr
