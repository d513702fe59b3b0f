"""Production settings: config/settings.py behind a TLS-terminating proxy (see README.md).

    DJANGO_SETTINGS_MODULE=config.settings_production

It is what config/wsgi.py, config/asgi.py and config/celery.py load when DJANGO_SETTINGS_MODULE is
unset. DEBUG is off; SECRET_KEY (50 characters or more), ALLOWED_HOSTS (no '*') and CACHE_URL must
come from the environment, or start-up stops with ImproperlyConfigured naming the variable. Plain
HTTP is redirected to HTTPS, cookies go over HTTPS only, and browsers are told (HSTS) to use nothing
but HTTPS for a year.
Everything else, such as DATABASE_URL and CELERY_BROKER_URL, is read as in development.
"""

from django.core.exceptions import ImproperlyConfigured

from config.settings import *  # noqa: F403
from core.cache import production_cache
from core.env import env_bool, env_list, env_mailer, env_str, is_redis_url

if env_bool("DEBUG", False):
    raise ImproperlyConfigured("DEBUG must be off in production: unset it (or set DEBUG=false).")
DEBUG = False

SECRET_KEY = env_str("SECRET_KEY")
if SECRET_KEY is None:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set in production: a long random string, e.g. the output of "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, the same on every server. "
        "(On a development machine, name the development settings: DJANGO_SETTINGS_MODULE=config.settings.)"
    )
# Django's own deployment check (security.W009) asks for at least 50 characters; here it is a refusal.
MIN_SECRET_KEY_LENGTH = 50
if len(SECRET_KEY) < MIN_SECRET_KEY_LENGTH:
    raise ImproperlyConfigured(
        f"SECRET_KEY must be at least {MIN_SECRET_KEY_LENGTH} characters in production; it has "
        f"{len(SECRET_KEY)}. Make one with `python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set in production: the host names the back office is served under, "
        "comma-separated (e.g. pitboss.example.com)."
    )
if any("*" in host for host in ALLOWED_HOSTS):
    # '*' takes any Host header: links in mails and redirects could then name another site.
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must name the back office's hosts in production, without '*' (it takes any "
        f"Host header): got {','.join(ALLOWED_HOSTS)!r}. Name each host (pitboss.example.com), or a "
        "domain and its subdomains with a leading dot (.example.com)."
    )

# The ledger's day heads are signed (ledger.signing): without its own key, the development one would
# let anyone who can write the database rewrite a chain and sign its heads again.
PITBOSS_LEDGER_KEY = env_str("PITBOSS_LEDGER_KEY")
if PITBOSS_LEDGER_KEY is None:
    raise ImproperlyConfigured(
        "PITBOSS_LEDGER_KEY must be set in production: the key the ledger's daily chain heads are "
        "signed with (HMAC-SHA256), e.g. the output of "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, "
        'kept apart from the database, the same on every server (README, "The ledger").'
    )

# An archive's manifests are signed (archive/signing.py): without the key, a file changed in the
# archive could come with a manifest changed to match it.
if env_str("PITBOSS_ARCHIVE_URL") and not env_str("PITBOSS_ARCHIVE_MANIFEST_KEY"):
    raise ImproperlyConfigured(
        "PITBOSS_ARCHIVE_MANIFEST_KEY must be set in production when PITBOSS_ARCHIVE_URL is: the key "
        "the archive's manifests are signed with (HMAC-SHA256), a long random string kept apart from the "
        "archive, the same on every server. Then sign the manifests already written: "
        "python manage.py archive_check --sign"
    )

# Notifications are off unless turned on; then the mail server, the sender and the address links in
# messages point to must be named (the development defaults would send nothing, or a wrong link).
PITBOSS_NOTIFICATIONS = env_bool("PITBOSS_NOTIFICATIONS", False)
if PITBOSS_NOTIFICATIONS:
    missing = [name for name in ("EMAIL_HOST", "DEFAULT_FROM_EMAIL", "PITBOSS_BASE_URL") if not env_str(name)]
    if missing:
        raise ImproperlyConfigured(
            f"{', '.join(missing)} must be set in production when PITBOSS_NOTIFICATIONS is on: the SMTP "
            "server (EMAIL_HOST, with EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS or "
            "EMAIL_USE_SSL), the sender's address (DEFAULT_FROM_EMAIL) and the back office's address for "
            "the links in messages (PITBOSS_BASE_URL, e.g. https://pitboss.example.com)."
        )
# By SMTP whatever is set (Django's deployment check refuses the console): notifications off, nothing
# is sent but what Django itself sends.
MAILERS = {"default": env_mailer(console_without_host=False)}

# One cache for every process and server, so throttles count the same requests everywhere. Its own
# Redis database, not the broker's: clearing the cache empties the database.
cache_url = env_str("CACHE_URL")  # not a setting of its own: it may hold a password
if cache_url is None:
    raise ImproperlyConfigured(
        "CACHE_URL must be set in production: the Redis database every process shares as its cache, "
        "e.g. redis://127.0.0.1:6379/1 (another database than CELERY_BROKER_URL's)."
    )
if not is_redis_url(cache_url):
    raise ImproperlyConfigured("CACHE_URL must be a Redis URL (redis://... or rediss://...).")
# Django's Redis cache behind a breaker (core/cache.py): a Redis that is stopped or does not answer
# stops nothing; the cache is then skipped, and emptied when it is back.
CACHES = {"default": production_cache(cache_url)}
# A page reads its session from that cache; every change is written to the database too (Django's
# cached_db engine), so sessions outlive a Redis restart or eviction, and a cache miss, or a cache
# that is away, reads the row.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# HTTPS ends at the proxy, which must set X-Forwarded-Proto on every request (replacing any a
# client sent): that is how a request is known to have come in over HTTPS.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
# A monitor may ask a server for /healthz directly, over plain HTTP: it says nothing secret. So may
# Prometheus /metrics, which answers only PITBOSS_METRICS_ADDRESSES.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
# Takes effect only once the domain is submitted to the browsers' preload list (hstspreload.org),
# a separate, deliberate step.
SECURE_HSTS_PRELOAD = True
