"""Strict parsing of settings from the environment.

Every helper takes the variable's name and reads it from `environ` (the process environment
unless a mapping is given, which is how the tests call them). An empty value counts as unset.
A value that does not parse raises ImproperlyConfigured naming the variable, so a bad
deployment stops at start-up instead of misbehaving later.
"""

import ipaddress
import os
import re
from collections.abc import Mapping
from datetime import time
from decimal import Decimal, InvalidOperation
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

Environ = Mapping[str, str]

_TRUE = frozenset({"1", "true", "yes"})
_FALSE = frozenset({"0", "false", "no"})
_HH_MM = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")
_BROKER_SCHEMES = ("redis://", "rediss://", "amqp://")
# kombu's filesystem transport takes its folders from transport options, never from the URL.
FILESYSTEM_BROKER_URL = "filesystem://"
_POSTGRESQL_ENGINE = "django.db.backends.postgresql"


def env_str(name: str, default: str | None = None, *, environ: Environ | None = None) -> str | None:
    environ = os.environ if environ is None else environ
    value = environ.get(name, "").strip()
    return value or default


def env_bool(name: str, default: bool, *, environ: Environ | None = None) -> bool:
    value = env_str(name, environ=environ)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no; got {value!r}.")


def env_list(name: str, default: list[str], *, environ: Environ | None = None) -> list[str]:
    """A comma-separated list; blanks around items are dropped, an empty item is an error."""
    value = env_str(name, environ=environ)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if not all(items):
        raise ImproperlyConfigured(f"{name} has an empty item in {value!r}.")
    return items


def env_networks(
    name: str, default: list[str], *, environ: Environ | None = None
) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated addresses or CIDR networks ("127.0.0.1, 10.0.0.0/8, ::1"); an address is a
    network of one. A network with host bits set ("10.0.0.1/8") is an error, as is anything else."""
    networks = []
    for item in env_list(name, default, environ=environ):
        try:
            networks.append(ipaddress.ip_network(item))
        except ValueError:
            raise ImproperlyConfigured(f"{name} has {item!r}, which is no address or network.") from None
    return networks


def env_pairs(name: str, default: dict[str, str], *, environ: Environ | None = None) -> dict[str, str]:
    """Comma-separated `key=value` pairs, e.g. "floor-supervisors=supervisor,compliance=compliance";
    a pair without `=`, an empty side or a key given twice is an error."""
    value = env_str(name, environ=environ)
    if value is None:
        return dict(default)
    pairs: dict[str, str] = {}
    for item in value.split(","):
        key, equals, item_value = (part.strip() for part in item.partition("="))
        if not equals or not key or not item_value:
            raise ImproperlyConfigured(f"{name}: {item.strip()!r} is not key=value.")
        if key in pairs:
            raise ImproperlyConfigured(f"{name} names {key!r} twice.")
        pairs[key] = item_value
    return pairs


def env_int(name: str, default: int, *, minimum: int = 0, environ: Environ | None = None) -> int:
    """A whole number, at least `minimum`."""
    value = env_str(name, environ=environ)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit() or int(value) < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number of at least {minimum}; got {value!r}.")
    return int(value)


def env_percent(name: str, default: str, *, environ: Environ | None = None) -> Decimal:
    """A percentage from 0 to 100, written as a decimal number ("90", "92.5")."""
    value = env_str(name, default, environ=environ)
    try:
        percent = Decimal(value)
    except InvalidOperation:
        percent = None
    if percent is None or not percent.is_finite() or not 0 <= percent <= 100:
        raise ImproperlyConfigured(
            f"{name} must be a percentage from 0 to 100, such as 90 or 92.5; got {value!r}."
        )
    return percent


def env_time(name: str, default: str, *, environ: Environ | None = None) -> time:
    """A time of day written HH:MM (24-hour clock)."""
    value = env_str(name, default, environ=environ)
    match = _HH_MM.fullmatch(value)
    if match is None:
        raise ImproperlyConfigured(f"{name} must be a time of day as HH:MM (24-hour); got {value!r}.")
    return time(int(match[1]), int(match[2]))


def env_timezone(name: str, default: str, *, environ: Environ | None = None) -> str:
    """An IANA time zone name, checked against the zoneinfo database."""
    value = env_str(name, default, environ=environ)
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ImproperlyConfigured(f"{name} is not a known time zone: {value!r}.") from error
    return value


# The demo's web server, worker and beat all write the one SQLite file (Django's SQLite notes):
# - WAL: readers never wait for the writer, nor the writer for them; NORMAL is safe under WAL (a power
#   cut may lose the last commits, never corrupt the file);
# - IMMEDIATE: a transaction takes the write lock when it begins, so it waits its turn (the timeout)
#   instead of failing with "database is locked" when a read turns into a write;
# - the timeout: seconds to wait for the lock, longer than the demo's longest write (a report run's
#   finish, with its charts and PDFs, holds it for some seconds).
SQLITE_TIMEOUT_SECONDS = 30
SQLITE_OPTIONS = {
    "timeout": SQLITE_TIMEOUT_SECONDS,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}


def env_database(name: str, *, sqlite_path: Path, conn_max_age: int, environ: Environ | None = None) -> dict:
    """Django's DATABASES["default"]: SQLite at `sqlite_path` when unset, else a PostgreSQL URL."""
    url = env_str(name, environ=environ)
    if url is None:
        sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(sqlite_path),
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    try:
        config = dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
    except Exception as error:
        # The URL may hold a password: name the variable, never echo the value.
        raise ImproperlyConfigured(
            f"{name} is not a database URL that can be parsed "
            "(expected postgres://user:password@host:5432/dbname)."
        ) from error
    if config["ENGINE"] != _POSTGRESQL_ENGINE:
        scheme = url.split(":", 1)[0]
        raise ImproperlyConfigured(
            f"{name} must be a PostgreSQL URL (postgres://...); got scheme {scheme!r}."
        )
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name} names no database (expected postgres://.../dbname).")
    return config


def env_database_pool(*, environ: Environ | None = None) -> dict | None:
    """Django's psycopg pool for PostgreSQL (DATABASES[...]["OPTIONS"]["pool"], psycopg_pool's
    ConnectionPool arguments): None when PITBOSS_DATABASE_POOL_MAX is 0 or unset (a connection per
    process, kept CONN_MAX_AGE seconds), else at most that many connections per process, of which
    PITBOSS_DATABASE_POOL_MIN (1 unless set, never above the maximum) are kept open."""
    maximum = env_int("PITBOSS_DATABASE_POOL_MAX", 0, environ=environ)
    if maximum == 0:
        return None
    minimum = env_int("PITBOSS_DATABASE_POOL_MIN", min(1, maximum), environ=environ)
    if minimum > maximum:
        raise ImproperlyConfigured(
            f"PITBOSS_DATABASE_POOL_MIN ({minimum}) must not be above PITBOSS_DATABASE_POOL_MAX ({maximum})."
        )
    return {"min_size": minimum, "max_size": maximum}


def with_pool(name: str, config: dict, pool: dict | None) -> dict:
    """`config` (env_database's) with the pool turned on, or as it is when `pool` is None. Django
    refuses a pool beside persistent connections, so CONN_MAX_AGE becomes 0: the pool keeps them.
    SQLite has no pool: refused, naming `name`, rather than silently ignored."""
    if pool is None:
        return config
    if config["ENGINE"] != _POSTGRESQL_ENGINE:
        raise ImproperlyConfigured(
            f"PITBOSS_DATABASE_POOL_MAX is for PostgreSQL: set {name} to a postgres:// URL, "
            "or PITBOSS_DATABASE_POOL_MAX=0 (SQLite opens its file in each process and has no pool)."
        )
    options = {**config.get("OPTIONS", {}), "pool": dict(pool)}
    return {**config, "CONN_MAX_AGE": 0, "OPTIONS": options}


def env_broker_url(name: str, *, environ: Environ | None = None) -> str | None:
    """A Celery broker URL (Redis or AMQP, or exactly filesystem:// for one machine), or None when unset."""
    url = env_str(name, environ=environ)
    if url is None or url == FILESYSTEM_BROKER_URL or url.startswith(_BROKER_SCHEMES):
        return url
    if url.startswith(FILESYSTEM_BROKER_URL):
        raise ImproperlyConfigured(
            f"{name} must be exactly {FILESYSTEM_BROKER_URL} for the filesystem broker; its folder "
            "comes from PITBOSS_BROKER_FOLDER."
        )
    raise ImproperlyConfigured(
        f"{name} must start with one of {', '.join(_BROKER_SCHEMES)}, or be {FILESYSTEM_BROKER_URL}."
    )


def is_filesystem_url(url: str | None) -> bool:
    return url == FILESYSTEM_BROKER_URL


def filesystem_broker_options(folder: Path) -> dict[str, str]:
    """kombu's filesystem transport options: every process reads and writes one queue folder (the
    transport's data_folder_in and data_folder_out), and its exchanges' bindings (the workers'
    broadcast queues, which `celery inspect ping` reaches) are kept beside it. The folders are made
    here: the transport expects them to exist."""
    queue, control = folder / "queue", folder / "control"
    for path in (queue, control):
        path.mkdir(parents=True, exist_ok=True)
    return {"data_folder_in": str(queue), "data_folder_out": str(queue), "control_folder": str(control)}


def is_redis_url(url: str | None) -> bool:
    return url is not None and url.startswith(("redis://", "rediss://"))


SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"
EMAIL_TIMEOUT_SECONDS = 10


def env_mailer(*, console_without_host: bool, environ: Environ | None = None) -> dict:
    """Django's MAILERS["default"] from EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
    EMAIL_USE_TLS and EMAIL_USE_SSL: SMTP, or with no EMAIL_HOST and `console_without_host` the
    console (development). The port defaults to 465 with SSL, 587 with TLS, else 25."""
    host = env_str("EMAIL_HOST", environ=environ)
    if host is None and console_without_host:
        return {"BACKEND": CONSOLE_BACKEND}
    use_tls = env_bool("EMAIL_USE_TLS", False, environ=environ)
    use_ssl = env_bool("EMAIL_USE_SSL", False, environ=environ)
    if use_tls and use_ssl:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: set one of them.")
    port = 465 if use_ssl else 587 if use_tls else 25
    return {
        "BACKEND": SMTP_BACKEND,
        "OPTIONS": {
            "host": host or "localhost",
            "port": env_int("EMAIL_PORT", port, minimum=1, environ=environ),
            "username": env_str("EMAIL_HOST_USER", "", environ=environ),
            "password": env_str("EMAIL_HOST_PASSWORD", "", environ=environ),
            "use_tls": use_tls,
            "use_ssl": use_ssl,
            "timeout": EMAIL_TIMEOUT_SECONDS,
        },
    }
