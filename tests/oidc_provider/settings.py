"""Settings of the OpenID Connect provider the single sign-on tests start (serve.py): a small Django
project of its own, with django-oauth-toolkit's OpenID Connect, its users signing in with Django's
login form. Its database and RSA key are in the folder OIDC_PROVIDER_FOLDER names."""

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDER = Path(os.environ["OIDC_PROVIDER_FOLDER"])

SECRET_KEY = "pitboss-tests-oidc-provider"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.oidc_provider.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [HERE / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": FOLDER / "provider.sqlite3"}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "/login/"
# Its own cookie names: a browser keeps cookies by host, whatever the port.
SESSION_COOKIE_NAME = "provider_sessionid"
CSRF_COOKIE_NAME = "provider_csrftoken"

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": (FOLDER / "key.pem").read_text(),
    "OAUTH2_VALIDATOR_CLASS": "tests.oidc_provider.claims.ClaimsValidator",
    "PKCE_REQUIRED": True,
    "SCOPES": {"openid": "OpenID Connect", "profile": "Your profile", "email": "Your email address"},
    "DEFAULT_SCOPES": ["openid"],
}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django": {"handlers": ["console"], "level": "WARNING"}},
}
