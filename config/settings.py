"""Pitboss settings. Everything that differs between machines comes from the environment
(see README.md for the table); a bad value stops start-up with ImproperlyConfigured."""

import os
from datetime import timedelta
from pathlib import Path

import django
from django.conf.locale import LANG_INFO
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from kombu import Queue

from config.beat_schedule import beat_schedule
from core.env import (
    EMAIL_TIMEOUT_SECONDS,
    env_bool,
    env_broker_url,
    env_database,
    env_database_pool,
    env_int,
    env_list,
    env_mailer,
    env_networks,
    env_pairs,
    env_percent,
    env_str,
    env_time,
    env_timezone,
    filesystem_broker_options,
    is_filesystem_url,
    is_redis_url,
    with_pool,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false.")
    SECRET_KEY = "django-insecure-pitboss-development-only"

# The key the ledger's day heads are signed with (HMAC-SHA256, ledger.signing; README, "The ledger").
# The production settings refuse to start without it; this default is for development only.
PITBOSS_LEDGER_KEY = env_str("PITBOSS_LEDGER_KEY", "pitboss-ledger-development-only")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    # Only for accounts/migrations/0002, which moves DRF's tokens into accounts.ApiToken; the API
    # no longer reads them. Remove once every deployment has run that migration.
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_tables2",
    "simple_history",
    "axes",
    # Sign-in (issue 53): django-allauth's pages for passwords, the second factor (TOTP and recovery
    # codes) and OpenID Connect; accounts/ says who needs what.
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    "core",  # its template tags (pitboss) and date formats; no models
    "accounts",
    "staff",  # the administrators' pages: accounts, roles, second factors, tokens, the sign-in record
    "outbox",
    "ledger",  # the hash chains of money movements and approved changes (issue 52)
    "tables",
    "limits",
    "live",
    "rounds",
    "reports",
    "sheets",
    "demo",
    "archive",  # archive (issue 21)
    "floor",  # the live floor and each table's live page
    "alerts",  # the monitors, their alerts, silences, thresholds and reportable faults
    "regulator",  # a gaming day's pack for the regulator (issue 52)
    "notifications",  # subscriptions, webhook endpoints and deliveries of the alerts' events
    "portal",  # the home page, search, error pages and navigation
]

MIDDLEWARE = [
    "core.middleware.request_metrics",  # every request counted and timed for /metrics (core/metrics.py)
    "django.middleware.security.SecurityMiddleware",
    "core.no_store.no_store",  # Cache-Control: no-store for a signed-in user and the API
    "core.body_length.length_required",  # a body without a Content-Length (chunked): 411
    "core.middleware.refuse_nul_in_path",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.replica.wrote_recently_stamp",  # read your writes: a writer reads the primary a while
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.current_request.remember_request",  # for the second-factor forms
    "accounts.session_lifetime.session_lifetime",
    "accounts.second_factor.enrolment_first",  # a role that needs a second factor enrols before all else
    "accounts.middleware.user_time_zone",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "accounts.sign_in.SignInRefusals",  # a sign-in held up before its password was checked: its page
    "rounds.archive_damage.ArchiveUnreadableAnswer",  # a damaged or missing archived month: 409/503
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: it turns a lockout into its page
]

# django-axes's backend comes first: it refuses a locked-out sign-in before any password is checked.
# SignInTurns then refuses one whose address is locked or whose username's wait is not over, and
# counts the others (accounts/sign_in.py). RoleBackend is Django's ModelBackend reading a user's
# permissions and roles in one query a request.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.sign_in.SignInTurns",
    "accounts.backends.RoleBackend",
]
# Sessions are rows in the database. The production settings put their shared Redis cache in front
# (cached_db); here the cache is each process's own memory, where a session signed out in one process
# would live on in another's copy, so none is.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# A session ends after this long without a request, and this long after sign-in however busy
# (accounts/session_lifetime.py, whatever the engine); the cookie and the stored session last no longer.
PITBOSS_SESSION_IDLE = timedelta(minutes=env_int("PITBOSS_SESSION_IDLE_MINUTES", 30, minimum=1))
PITBOSS_SESSION_MAX_AGE = timedelta(hours=env_int("PITBOSS_SESSION_MAX_AGE_HOURS", 12, minimum=1))
SESSION_COOKIE_AGE = int(PITBOSS_SESSION_MAX_AGE.total_seconds())

# One process's memory; the production settings share a Redis cache between processes and servers.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Django's logging, plus: a 403 (a page, the API, the CSRF check) is one WARNING line naming the
# method, path and user, with no traceback (core/log_filters.py). With DEBUG off, warnings and
# errors go to stderr; Django's own console handler writes only with DEBUG on.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "refusal_one_line": {"()": "core.log_filters.RefusalOneLine"},
        "archive_answered_once": {"()": "rounds.archive_damage.AnsweredOnce"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "level": "WARNING", "filters": ["require_debug_false"]},
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django.request": {"filters": ["refusal_one_line", "archive_answered_once"]},
        "django.security.csrf": {"filters": ["refusal_one_line"]},
        # A worker logs at INFO (make demo's): not every PDF's seven layout steps.
        "weasyprint.progress": {"level": "WARNING"},
    },
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

# Django's engine with its default loaders, cached (also with DEBUG on, reloaded when a file changes).
# Forms render through the same engine (TemplatesSetting), so a widget template in templates/
# overrides Django's; the second directory holds Django's own form templates, as its docs direct.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", Path(django.__path__[0]) / "forms" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

# Pages and PDFs load nothing from the internet; the browser is told so too.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],  # no page is framed, as X_FRAME_OPTIONS says to older browsers
}
X_FRAME_OPTIONS = "DENY"

# Database: SQLite for development (var/pitboss.sqlite3, or the file PITBOSS_SQLITE_PATH names), in WAL
# mode with a busy timeout (core/env.py), PostgreSQL when DATABASE_URL is set.
SQLITE_PATH = Path(env_str("PITBOSS_SQLITE_PATH") or VAR_DIR / "pitboss.sqlite3")
DATABASES = {
    "default": env_database("DATABASE_URL", sqlite_path=SQLITE_PATH, conn_max_age=60),
}
# A read replica (issue 55, core/replica.py): a PostgreSQL standby that lists, exports, reports and
# archive recall read when it is up and close enough; unset, everything uses the one server.
if env_str("REPLICA_DATABASE_URL"):
    DATABASES["replica"] = env_database("REPLICA_DATABASE_URL", sqlite_path=SQLITE_PATH, conn_max_age=60)
    # A replica that does not answer is given up quickly; the breaker then spares later requests.
    DATABASES["replica"].setdefault("OPTIONS", {})["connect_timeout"] = 2
# Connection pooling (README, "Deployment"): each process keeps PITBOSS_DATABASE_POOL_MIN to
# PITBOSS_DATABASE_POOL_MAX connections to each PostgreSQL database; off (0) by default.
PITBOSS_DATABASE_POOL = env_database_pool()
DATABASES = {
    alias: with_pool(
        "DATABASE_URL" if alias == "default" else "REPLICA_DATABASE_URL", config, PITBOSS_DATABASE_POOL
    )
    for alias, config in DATABASES.items()
}
if PITBOSS_DATABASE_POOL and "replica" in DATABASES:
    # As with connect_timeout above: a replica's connection is waited for 2 s, not psycopg_pool's 30.
    DATABASES["replica"]["OPTIONS"]["pool"]["timeout"] = 2
DATABASE_ROUTERS = ["core.replica.ReplicaRouter"]
# After a write, its user reads the primary for this long (read your writes).
PITBOSS_READ_YOUR_WRITES_SECONDS = env_int("PITBOSS_READ_YOUR_WRITES_SECONDS", 10, minimum=0)
# Above this many bytes of WAL received but not replayed, reads go to the primary.
PITBOSS_REPLICA_MAX_LAG_BYTES = env_int("PITBOSS_REPLICA_MAX_LAG_BYTES", 16 * 1024 * 1024, minimum=0)
# A replica that failed is not tried again for this long (the breaker, per process).
PITBOSS_REPLICA_RETRY_SECONDS = env_int("PITBOSS_REPLICA_RETRY_SECONDS", 30, minimum=0)
# How often a process measures the replica's lag again.
PITBOSS_REPLICA_LAG_CHECK_SECONDS = env_int("PITBOSS_REPLICA_LAG_CHECK_SECONDS", 5, minimum=0)
# GET /metrics (portal/metrics.py) answers only these client addresses (REMOTE_ADDR; a proxy in front
# must not forward /metrics), addresses or CIDR networks; any other is answered 404.
PITBOSS_METRICS_ADDRESSES = env_networks("PITBOSS_METRICS_ADDRESSES", ["127.0.0.1", "::1"])
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Refuses nothing: a changed password revokes the user's API tokens (accounts/revocation.py).
    {"NAME": "accounts.revocation.RevokeTokensOnPasswordChange"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Signing in (django-allauth; README, "Signing in: a second factor and single sign-on"). Accounts are
# made by administrators (manage.py create_user, the admin) or, with single sign-on, at a user's first
# sign-in through the provider: nobody signs themself up. Password guesses are throttled below
# (django-axes and accounts/sign_in.py), so allauth's own rate limits are off.
ACCOUNT_ADAPTER = "accounts.sign_in_pages.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_RATE_LIMITS = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_SESSION_REMEMBER = True  # how long a session lasts is accounts/session_lifetime.py's
# The second factor: TOTP (RFC 6238, 6 digits, 30 s, the period before and after accepted for a clock
# that drifts; a code is accepted once) and ten recovery codes, shown once and regenerable.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = env_str("PITBOSS_TOTP_ISSUER", "Pitboss")
MFA_TOTP_TOLERANCE = 1
MFA_RECOVERY_CODES_SHOW_ONCE = True
# Addresses are an administrator's or the provider's, never verified by a mailed link: that is no
# reason to refuse an authenticator (a provider's user has an unverified one).
MFA_ALLOW_UNVERIFIED_EMAIL = True
MFA_ADAPTER = "accounts.sign_in_pages.MFAAdapter"
# Each code typed takes its turn like a password (accounts/guesses.py) and a wrong one is a failed
# sign-in for django-axes (accounts/second_factor_forms.py).
MFA_FORMS = {
    "authenticate": "accounts.second_factor_forms.AuthenticateForm",
    "reauthenticate": "accounts.second_factor_forms.ReauthenticateForm",
    "activate_totp": "accounts.second_factor_forms.ActivateTOTPForm",
}
# The roles whose users must have a second factor (enrolled at their first sign-in), by slug.
PITBOSS_SECOND_FACTOR_ROLES = env_list(
    "PITBOSS_SECOND_FACTOR_ROLES", ["supervisor", "compliance", "administrator"]
)
# Approving or deciding a re-settlement, void or configuration change, and signing a report, need a
# code checked within this long (accounts/second_factor.py).
PITBOSS_CODE_FRESH_MINUTES = env_int("PITBOSS_CODE_FRESH_MINUTES", 15, minimum=1)

# Single sign-on with an OpenID Connect provider, beside passwords, when PITBOSS_OIDC_SERVER_URL is set
# (accounts/single_sign_on.py). The provider's groups claim names each user's role:
# PITBOSS_OIDC_GROUP_ROLES="floor-supervisors=supervisor,compliance=compliance,service=customer_service".
PITBOSS_OIDC_SERVER_URL = env_str("PITBOSS_OIDC_SERVER_URL")
PITBOSS_OIDC_PROVIDER_ID = "sso"
SOCIALACCOUNT_ADAPTER = "accounts.single_sign_on.SocialAccountAdapter"
SOCIALACCOUNT_PROVIDERS = {
    "openid_connect": {
        "OAUTH_PKCE_ENABLED": True,
        "APPS": [
            {
                "provider_id": PITBOSS_OIDC_PROVIDER_ID,
                "name": env_str("PITBOSS_OIDC_NAME", "Single sign-on"),
                "client_id": env_str("PITBOSS_OIDC_CLIENT_ID", ""),
                "secret": env_str("PITBOSS_OIDC_CLIENT_SECRET", ""),
                "settings": {"server_url": PITBOSS_OIDC_SERVER_URL, "oauth_pkce_enabled": True},
            }
        ]
        if PITBOSS_OIDC_SERVER_URL
        else [],
    }
}
SOCIALACCOUNT_AUTO_SIGNUP = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_LOGIN_ON_GET = False  # the sign-in page posts; a link asks first
SOCIALACCOUNT_STORE_TOKENS = False
PITBOSS_OIDC_GROUP_ROLES = env_pairs("PITBOSS_OIDC_GROUP_ROLES", {})
PITBOSS_OIDC_GROUPS_CLAIM = env_str("PITBOSS_OIDC_GROUPS_CLAIM", "groups")
# The provider's `amr` values (RFC 8176) taken as a second factor, so that its users enrol no Pitboss
# TOTP; none by default: every user of a role above enrols one.
PITBOSS_OIDC_TRUSTED_AMR = env_list("PITBOSS_OIDC_TRUSTED_AMR", [])
# Break-glass (accounts/break_glass.py): with a provider configured, an administrator who signs in with
# their local password is flagged on the sign-in record for compliance to review, with whether the
# provider's discovery document answered (connecting, and answering, each within
# PITBOSS_BREAK_GLASS_PROBE_SECONDS) at that moment. PITBOSS_OIDC_ONLY=1: with a provider configured,
# nobody but administrators signs in with a password (the sign-in form names the provider instead);
# off (the default), passwords work for everybody beside the provider.
PITBOSS_OIDC_ONLY = env_bool("PITBOSS_OIDC_ONLY", False)
PITBOSS_BREAK_GLASS_PROBE_SECONDS = env_int("PITBOSS_BREAK_GLASS_PROBE_SECONDS", 2, minimum=1)

# Sign-in throttling, the portal's and the admin's (accounts/sign_in.py, accounts/guesses.py, django-axes;
# README, "Security"). Attempts are kept in the database, so every process and server counts the same.
# - PITBOSS_SIGN_IN_FAILURE_LIMIT failed passwords for one username from one address, each within
#   PITBOSS_SIGN_IN_LOCKOUT_MINUTES of the one before, lock that username at that address only, until
#   that long after the last of them (django-axes).
# - PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT failed passwords from one address within
#   PITBOSS_SIGN_IN_LOCKOUT_MINUTES, whatever the usernames, lock that address until fewer are.
# - At most PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR failed passwords for one username in any hour,
#   from all addresses together, kept so by a growing wait, never a lock; the addresses of its last 5
#   successful sign-ins within 30 days are exempt. Under 20 an hour the wait would exceed 5 minutes.
PITBOSS_SIGN_IN_FAILURE_LIMIT = env_int("PITBOSS_SIGN_IN_FAILURE_LIMIT", 10, minimum=1)
PITBOSS_SIGN_IN_LOCKOUT_MINUTES = env_int("PITBOSS_SIGN_IN_LOCKOUT_MINUTES", 15, minimum=1)
PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT = env_int("PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT", 30, minimum=1)
PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR = env_int("PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR", 30, minimum=20)
PITBOSS_SIGN_IN_CONTACT = env_str("PITBOSS_SIGN_IN_CONTACT", "a Pitboss administrator")
# How many proxies in front append to X-Forwarded-For; 0: the connection's address (REMOTE_ADDR).
PITBOSS_TRUSTED_PROXIES = env_int("PITBOSS_TRUSTED_PROXIES", 0)
AXES_FAILURE_LIMIT = PITBOSS_SIGN_IN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=PITBOSS_SIGN_IN_LOCKOUT_MINUTES)
# The pair only: failures for a username from elsewhere never lock it here (issue 43), and an address
# alone is locked at its own, higher limit by accounts/sign_in.py (django-axes has one limit for all).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
# A refused attempt does not restart the wait (retries would keep a lock going for as long as anyone
# tries), and a success does not wipe the count (an insider could sign in between guesses).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = False
AXES_CLIENT_IP_CALLABLE = "accounts.sign_in.client_address"
AXES_CLIENT_STR_CALLABLE = "accounts.sign_in.describe_client"
AXES_LOCKOUT_CALLABLE = "accounts.sign_in.locked_out"

# The portal speaks English (no LocaleMiddleware: nothing follows the browser's language). Only the
# players' rule sheets (sheets/) are also made in Filipino, each under translation.override, from the
# catalogue in locale/fil/LC_MESSAGES/ (django.po and its compiled django.mo, both in the repository).
# Django's language list has no "fil", so it is added here for get_language_info and its template tags.
# Django has no formats module for "fil" either (its defaults group no digits): core/formats/fil/
# gives Filipino's ("." decimal, "," between thousands, as CLDR has it; tests/sheets/test_catalogue.py).
LANGUAGE_CODE = "en-us"
LANGUAGES = [("en", "English"), ("fil", "Filipino")]
LANG_INFO.update(
    {"fil": {"bidi": False, "code": "fil", "name": "Filipino", "name_local": "Filipino"}},
)
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["core.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# A gaming day runs from the cut-off to the next day's cut-off, in this time zone; reports state both.
PITBOSS_GAMING_DAY_TIME_ZONE = env_timezone("PITBOSS_GAMING_DAY_TIME_ZONE", "Europe/Malta")
PITBOSS_GAMING_DAY_CUTOFF = env_time("PITBOSS_GAMING_DAY_CUTOFF", "06:00")
# A round's opened_at and closed_at may lie this far past the server's clock (a game server's clock
# may run a little ahead); further, the round is refused.
PITBOSS_ROUND_CLOCK_TOLERANCE = timedelta(minutes=env_int("PITBOSS_ROUND_CLOCK_TOLERANCE_MINUTES", 5))
# A proposed configuration version is flagged where a bet kind's theoretical RTP would fall below this
# (percent), as it is where it falls more than 1 percentage point (tables/proposals.py).
PITBOSS_RTP_FLOOR_PERCENT = env_percent("PITBOSS_RTP_FLOOR_PERCENT", "90")
# An alert below critical not acknowledged within this many minutes escalates (alerts.services).
PITBOSS_ALERT_ACKNOWLEDGE_MINUTES = env_int("PITBOSS_ALERT_ACKNOWLEDGE_MINUTES", 15, minimum=1)
# The public rule sheets (pages, PDFs and GET /api/tables/<code>/rules/, together) answer each client
# address (as sign-in throttling reads it, behind PITBOSS_TRUSTED_PROXIES) this many requests a minute;
# more get 429 with Retry-After (sheets/throttle.py). 0: no limit.
PITBOSS_SHEET_REQUESTS_PER_MINUTE = env_int("PITBOSS_SHEET_REQUESTS_PER_MINUTE", 60)
# POST /api/rounds/ alone takes JSON bodies of up to this many bytes (a JSON 413 above it); every other
# request keeps DATA_UPLOAD_MAX_MEMORY_SIZE. A Boundless round of 10,000 players is about 4.2 MB.
PITBOSS_ROUND_BODY_LIMIT = 32 * 2**20
# How long an API token works from when it was made (accounts/token_lifetime.py): a member of staff's
# this many days; a game server's until revoked, unless this many days are set (0: until revoked).
PITBOSS_STAFF_TOKEN_DAYS = env_int("PITBOSS_STAFF_TOKEN_DAYS", 90, minimum=1)
PITBOSS_GAME_SERVER_TOKEN_DAYS = env_int("PITBOSS_GAME_SERVER_TOKEN_DAYS", 0)
# Where the daily reports' PDFs are kept: <dir>/<day>/<report>-<day>.pdf.
PITBOSS_REPORTS_DIR = Path(os.environ.get("PITBOSS_REPORTS_DIR") or VAR_DIR / "reports")
# archive (issue 21): months of round history older than the hot window (the current month and the
# PITBOSS_HOT_MONTHS before it) are exported to Parquet under PITBOSS_ARCHIVE_URL (a directory, or
# s3://bucket/prefix; S3 credentials from the standard AWS variables), verified, then their
# partitions dropped (archive/). PITBOSS_ARCHIVE_S3_ENDPOINT: an S3-compatible store's address.
PITBOSS_ARCHIVE_URL = env_str("PITBOSS_ARCHIVE_URL", str(VAR_DIR / "archive"))
PITBOSS_ARCHIVE_S3_ENDPOINT = env_str("PITBOSS_ARCHIVE_S3_ENDPOINT")
PITBOSS_HOT_MONTHS = env_int("PITBOSS_HOT_MONTHS", 13, minimum=1)
PITBOSS_ARCHIVE_RETENTION_YEARS = env_int("PITBOSS_ARCHIVE_RETENTION_YEARS", 10, minimum=1)
# The key of the manifests' HMAC-SHA256 signatures (archive/signing.py); the production settings
# refuse to start without it once PITBOSS_ARCHIVE_URL is set. Unset: manifests are neither signed nor checked.
PITBOSS_ARCHIVE_MANIFEST_KEY = env_str("PITBOSS_ARCHIVE_MANIFEST_KEY")

# Notifications (notifications/, README "Notifications: email and webhooks"): each alert raised,
# worsened or escalated sent by email and webhook. Mail goes through Django's email framework: SMTP at
# EMAIL_HOST when it is set, else (development, make demo) to the console of the process that sends it.
PITBOSS_NOTIFICATIONS = env_bool("PITBOSS_NOTIFICATIONS", True)
# Django's mailers (MAILERS replaces its EMAIL_* settings), from the usual EMAIL_* variables.
MAILERS = {"default": env_mailer(console_without_host=True)}
PITBOSS_EMAIL_TIMEOUT_SECONDS = EMAIL_TIMEOUT_SECONDS
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "pitboss@localhost")
# The address the back office is reached at, for the links in messages (no trailing slash).
PITBOSS_BASE_URL = env_str("PITBOSS_BASE_URL", "http://127.0.0.1:8000").rstrip("/")
PITBOSS_WEBHOOK_TIMEOUT_SECONDS = env_int("PITBOSS_WEBHOOK_TIMEOUT_SECONDS", 5, minimum=1)
# After a rotation, a webhook endpoint's previous secret still signs (a second signature) this long.
PITBOSS_WEBHOOK_SECRET_GRACE_HOURS = env_int("PITBOSS_WEBHOOK_SECRET_GRACE_HOURS", 24)

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"

# The API (see core/api.py): token auth first, so a caller without credentials gets 401 with
# WWW-Authenticate; every view checks model permissions unless it names its own.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["core.api.ModelPermissions"],
    # Requests a minute, counted per token (per user when signed in by session) in the cache; more
    # are answered 429 with Retry-After (accounts/throttles.py). A game server checks every stake
    # (POST /api/limits/check): a 5,000-player Boundless table makes about 10,000 checks and one
    # round a minute, and one token may carry a studio's tables.
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.throttles.GameServerRateThrottle",
        "accounts.throttles.StaffRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {"game_server": "60000/min", "staff": "600/min"},
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "core.api.Pagination",
    # JSON bodies: at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes (Django's 2.5 MiB; a JSON 413 above it)
    # and core.parsers.MAX_JSON_DEPTH (64) levels of nesting (a 400 deeper).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "COERCE_DECIMAL_TO_STRING": True,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# The schema and its docs need a login; Swagger UI and Redoc come from the app's own static files.
SPECTACULAR_SETTINGS = {
    "TITLE": "Pitboss API",
    "DESCRIPTION": "Back office for live-dealer blackjack tables: tables, limits, players, the limit check.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Every operation's error answers with the one error body, and times of day as DRF writes them.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api.document_errors",
        "core.api.times_of_day",
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameEnum": "tables.choices.Game",
        "CurrencyEnum": "tables.choices.Currency",
        "TableStatusEnum": "tables.choices.TableStatus",
        "ConfigurationStatusEnum": "tables.choices.ConfigurationStatus",
        "AccountTypeEnum": "limits.choices.AccountType",
        "PlayerStatusEnum": "limits.choices.PlayerStatus",
        "BetKindEnum": "limits.choices.BetKind",
        "TableLimitKindEnum": "limits.choices.TABLE_LIMIT_KINDS",
        "AlertStatusEnum": "alerts.choices.AlertStatus",
    },
}

# Celery: without a broker, tasks run eagerly in-process; with one, a worker runs them. filesystem://
# (make demo's) is kombu's filesystem transport: messages are files in PITBOSS_BROKER_FOLDER (var/broker/),
# for processes on one machine and no server. No result backend but Redis: the jobs keep their progress
# in the app's own tables (a report run's, a configuration's figures), and a report run's tables then
# go one after another (reports/tasks.py).
CELERY_BROKER_URL = env_broker_url("CELERY_BROKER_URL")
if CELERY_BROKER_URL is None:
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
    CELERY_RESULT_BACKEND = None
else:
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_RESULT_BACKEND = CELERY_BROKER_URL if is_redis_url(CELERY_BROKER_URL) else None
# On Redis, a message a worker took but never acknowledged (the worker killed mid-task: tasks are
# acknowledged late) goes back to the queue this many seconds after it was taken (kombu's
# visibility_timeout, default one hour). Longer than any task runs, or a running task is given to a
# second worker too; make soak sets it short, so that a killed worker's tasks come back within its run.
if is_redis_url(CELERY_BROKER_URL):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("PITBOSS_BROKER_VISIBILITY_SECONDS", 60 * 60, minimum=1)
    }
if is_filesystem_url(CELERY_BROKER_URL):
    PITBOSS_BROKER_FOLDER = Path(env_str("PITBOSS_BROKER_FOLDER") or VAR_DIR / "broker")
    # A worker looks for new messages this often (seconds; kombu's default is 1).
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(PITBOSS_BROKER_FOLDER) | {
        "polling_interval": 0.25
    }
CELERY_TIMEZONE = TIME_ZONE
# Notifications have a queue of their own, so that a report run or an odds job never delays them. A
# worker started without -Q consumes every queue declared here (make demo's does); production may run
# one worker for them alone: `celery -A config worker -Q notifications`.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery"), Queue("notifications"))
CELERY_TASK_ROUTES = {"notifications.tasks.deliver_task": {"queue": "notifications"}}
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

# Celery beat's schedule: config/beat_schedule.py.
# make demo's game servers: a round at every open demo table every this many seconds (demo.tasks);
# 0, the default, deals nothing.
PITBOSS_DEMO_DEALING = env_int("PITBOSS_DEMO_DEALING", 0)
CELERY_BEAT_SCHEDULE = beat_schedule([queue.name for queue in CELERY_TASK_QUEUES], PITBOSS_DEMO_DEALING)

# Figures worked out in advance (tables/known_odds.py): files of rule sets and their theoretical RTP,
# used only while the odds engine is the one that wrote them. `manage.py odds_known` writes the presets'.
PITBOSS_KNOWN_ODDS_FILES = [BASE_DIR / "tables" / "known_odds.json"]
