"""ASGI entry point: `config.asgi:application`. Without DJANGO_SETTINGS_MODULE it loads the
production settings, which refuse to start without SECRET_KEY, ALLOWED_HOSTS and CACHE_URL."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_production")

application = get_asgi_application()
