"""The demo's periodic task (make demo): Celery beat deals a round at every open demo table."""

from celery import shared_task
from django.utils import timezone


@shared_task(name="demo.tasks.demo_deal_task", ignore_result=True)
def demo_deal_task() -> int:
    from .live_dealing import demo_deal

    return len(demo_deal(timezone.now()))
