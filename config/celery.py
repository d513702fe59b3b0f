"""The Celery app: configured from Django settings (CELERY_* names), tasks found in each app's tasks.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pitboss")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
