"""The tests' door into the provider: POST /setup/user/ with a JSON body {"username", "password",
"groups"} makes or changes that user (exactly those groups). Only with the header X-Setup-Token equal
to OIDC_PROVIDER_SETUP_TOKEN."""

import json
import os

from django.contrib.auth.models import Group, User
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST


@csrf_exempt
@require_POST
def user_set(request):
    if request.headers.get("X-Setup-Token") != os.environ["OIDC_PROVIDER_SETUP_TOKEN"]:
        return HttpResponse(status=403)
    wanted = json.loads(request.body)
    user, _ = User.objects.get_or_create(username=wanted["username"])
    user.email = f"{user.username}@casino.test"
    user.set_password(wanted["password"])
    user.save()
    user.groups.set([Group.objects.get_or_create(name=name)[0] for name in wanted["groups"]])
    return HttpResponse(status=204)
