from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import PREFIX_LENGTH, ApiToken, Preferences, key_digest, key_new
from .roles import ROLES, roles_sync
from .time_zones import SESSION_KEY, default_time_zone


@transaction.atomic
def user_create(*, username: str, password: str, role: str, email: str = ""):
    """A user in exactly one role."""
    if role not in ROLES:
        raise ValidationError({"role": f"Unknown role {role!r} (one of {', '.join(ROLES)})."})
    User = get_user_model()
    if User.objects.filter(username=username).exists():
        raise ValidationError({"username": f"The user {username} already exists."})
    group = Group.objects.filter(name=role).first()
    if group is None:  # migrate makes the groups; a database emptied since (a test's flush) has none
        roles_sync()
        group = Group.objects.get(name=role)
    user = User.objects.create_user(username=username, password=password, email=email)
    user.groups.add(group)
    return user


def token_create(*, user, name: str = "", expires_at: datetime | None = None):
    """A new API token for `user`: (the token, its key). The key is not stored: show it once."""
    key = key_new()
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[:PREFIX_LENGTH], digest=key_digest(key), expires_at=expires_at
    )
    return token, key


@transaction.atomic
def token_rotate(*, user, grace: timedelta, name: str = ""):
    """A new token for `user`, (the token, its key); the user's other tokens keep working for
    `grace` (none of them longer than it was to), so a game server can switch without a gap."""
    if grace < timedelta(0):
        raise ValidationError({"grace": "The grace period cannot be negative."})
    now = timezone.now()
    ends = now + grace
    longer = Q(expires_at__isnull=True) | Q(expires_at__gt=ends)
    ApiToken.objects.filter(longer, user=user, revoked_at__isnull=True).update(expires_at=ends)
    return token_create(user=user, name=name or f"rotated {now:%Y-%m-%d %H:%M} UTC")


def tokens_revoke(tokens) -> int:
    """Revoke `tokens` (ApiTokens: a user's, say) not revoked yet; how many. A revoked token is
    refused from now on, and stays listed."""
    return tokens.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def preferred_time_zone(user) -> str:
    """The time zone `user` sees times in: their choice, else the default (one query)."""
    chosen = Preferences.objects.filter(user=user).values_list("time_zone", flat=True).first()
    return chosen or default_time_zone()


def time_zone_set(*, user, time_zone: str, session=None) -> Preferences:
    """`user` sees times in `time_zone` from now on (in `session` too, their current one). A name the
    zoneinfo database does not know is refused (ValidationError on `time_zone`), nothing stored."""
    preferences = Preferences(user=user, time_zone=time_zone)
    preferences.full_clean(exclude=["user"], validate_unique=False)
    preferences.save()
    if session is not None:
        session[SESSION_KEY] = time_zone
    return preferences


def time_zone_remember(sender, request, user, **kwargs) -> None:
    """At sign-in (user_logged_in): the user's time zone into their session, read once here so that
    no page reads it again (accounts.middleware.user_time_zone)."""
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = preferred_time_zone(user)
