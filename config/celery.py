"""The Celery app: configured from Django settings (CELERY_* names), tasks found in each app's tasks.py.

Without DJANGO_SETTINGS_MODULE a worker or beat loads the production settings, as config/wsgi.py
does; name config.settings to run one against the development settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_production")

app = Celery("pitboss")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
