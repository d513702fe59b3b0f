"""The home page: the signed-in user's work queues (portal.queues), then the pages they may use."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.roles import user_role
from portal.queues import queues_for


@login_required
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The work queues of the user's roles, those with work first, then cards for their pages."""
    queues = queues_for(request.user)
    context = {
        "role": user_role(request.user),
        "queues": queues,
        "waiting": [queue for queue in queues if queue.count],
        "clear": [queue for queue in queues if not queue.count],
    }
    return render(request, "home.html", context)
