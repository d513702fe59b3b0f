"""The transactional outbox: a Celery task to send, written in the transaction whose change it follows.

A task queued with `transaction.on_commit` alone is lost, or fails the request after its change has
committed, when the broker is down. A message written here commits or rolls back with the change;
it is sent when the transaction commits and, if the broker refused it then, by the beat task that
drains the outbox (`outbox.tasks.outbox_drain`).
"""

from django.db import models
from django.db.models import Q


class OutboxMessage(models.Model):
    task = models.CharField(max_length=200, help_text="The Celery task's registered name.")
    args = models.JSONField(default=list, help_text="Its positional arguments (ids and dates, as text).")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True, help_text="When the broker took it.")
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, help_text="Why the broker last refused it.")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["id"], condition=Q(sent_at__isnull=True), name="outbox_pending")]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class WorkerBeat(models.Model):
    """When a worker last ran the heartbeat task of a queue (outbox.tasks.worker_beat_task, sent by
    beat every 30 s to each queue): how long ago tells /healthz and /metrics whether a queue's
    workers are taking tasks. A row per queue, in the database so that every process sees it."""

    queue = models.CharField(max_length=100, primary_key=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.queue} at {self.beat_at:%Y-%m-%d %H:%M:%S}"
