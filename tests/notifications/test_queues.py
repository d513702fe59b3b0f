"""Notifications go to a queue of their own, which a worker started without -Q consumes too (make
demo's, a production worker for every queue), and which a worker of its own can take alone."""

import subprocess
import sys
from pathlib import Path

from django.conf import settings

REPO = Path(__file__).resolve().parents[2]
SHOW = """
import django; django.setup()
from config.celery import app
print(app.amqp.router.route({}, "notifications.tasks.deliver_task")["queue"].name)
for queues in (None, ["notifications"]):  # `celery -A config worker`, then with -Q notifications
    app.Worker(queues=queues, without_mingle=True, without_gossip=True)
    print(",".join(sorted(app.amqp.queues.consume_from or app.amqp.queues)))
"""


def test_a_worker_started_without_queues_consumes_the_notifications_queue_too():
    assert settings.CELERY_TASK_ROUTES == {"notifications.tasks.deliver_task": {"queue": "notifications"}}
    assert [queue.name for queue in settings.CELERY_TASK_QUEUES] == ["celery", "notifications"]
    shown = subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=REPO,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == ["notifications", "celery,notifications", "notifications"]
