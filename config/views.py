from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.roles import user_role


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Cards for what the signed-in user's role may use."""
    return render(request, "home.html", {"role": user_role(request.user)})
