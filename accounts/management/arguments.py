"""What the account commands read from the command line (accounts' and staff's)."""

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError


def user_named(username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"No user named {username!r}.")
    return user
