from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction

from .roles import ROLES, roles_sync


@transaction.atomic
def user_create(*, username: str, password: str, role: str, email: str = ""):
    """A user in exactly one role."""
    if role not in ROLES:
        raise ValidationError({"role": f"Unknown role {role!r} (one of {', '.join(ROLES)})."})
    User = get_user_model()
    if User.objects.filter(username=username).exists():
        raise ValidationError({"username": f"The user {username} already exists."})
    roles_sync()
    user = User.objects.create_user(username=username, password=password, email=email)
    user.groups.add(Group.objects.get(name=role))
    return user
