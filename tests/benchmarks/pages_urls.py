"""bench_pages's URLs: Pitboss's own, and a baseline page that the project itself does not have."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import include, path

import config.urls
from tables.models import Table

BASELINE = "bench/baseline/"


@login_required
def baseline(request):
    """What any page costs before its own work: the same server and middleware, the session and the
    signed-in user read, and one query of its own."""
    return HttpResponse(f"{Table.objects.count()} tables\n", content_type="text/plain")


urlpatterns = [path(BASELINE, baseline), path("", include(config.urls))]
handler404 = config.urls.handler404
