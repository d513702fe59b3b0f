"""The Celery app: configured from Django settings (CELERY_* names), tasks found in each app's tasks.py.

Without DJANGO_SETTINGS_MODULE a worker or beat loads the production settings, as config/wsgi.py
does; name config.settings to run one against the development settings. Tasks are timed and their
failures counted for /metrics (core/task_metrics.py)."""

import os

from celery import Celery

from core import task_metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_production")

app = Celery("pitboss")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
task_metrics.connect()
