from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults

from accounts.roles import user_role


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Cards for what the signed-in user's role may use."""
    return render(request, "home.html", {"role": user_role(request.user)})


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A URL nothing matches: under /api/ a JSON message like every API error, elsewhere the page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)
