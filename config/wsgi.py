"""WSGI entry point: `config.wsgi:application`. Without DJANGO_SETTINGS_MODULE it loads the
production settings, which refuse to start without SECRET_KEY, ALLOWED_HOSTS and CACHE_URL.

What the process loads at start, and on its first request (URL patterns, templates), lives as long
as the process. `gc.freeze()` takes it out of the cyclic collector's full passes, which otherwise
walk it all: 50-60 ms pauses every 150-250 requests, that many milliseconds on the p99 of a page
(measured in-process on the round list and the round page; with the freeze, 15-25 ms at most).
"""

import gc
import os

from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_production")

application = get_wsgi_application()
gc.freeze()


def _freeze_after_first_request(**kwargs):
    request_finished.disconnect(_freeze_after_first_request)
    gc.freeze()


request_finished.connect(_freeze_after_first_request)
