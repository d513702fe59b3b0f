"""A user whose role changes, or who is deactivated, is signed out everywhere: every session of theirs
ends (deleted from the session store, so also from a cache in front of it) and their API tokens are
revoked. Roles are groups: a change is Django's m2m_changed on the user's groups, from either side
(the admin's user page, a group's, the role set at a single sign-on); deactivation is a save with
`is_active` false.

Sessions are not indexed by user: the live ones are read and each whose signed-in user is this one
ends. That is a read of every live session, for an event that is rare (a role change) among sessions
that are few (the staff's, and a session lasts PITBOSS_SESSION_MAX_AGE at most).
"""

from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone

from .services import tokens_revoke

CHUNK = 500


def sessions_end(user_ids: set[int]) -> int:
    """End every live session signed in as one of `user_ids`; how many ended."""
    wanted = {str(pk) for pk in user_ids}
    live = Session.objects.filter(expire_date__gt=timezone.now())
    ended = [
        session.session_key
        for session in live.iterator(chunk_size=CHUNK)
        if str(session.get_decoded().get(SESSION_KEY)) in wanted
    ]
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in ended:
        store(session_key=key).delete()
    return len(ended)


def signed_out_everywhere(user_ids: set[int]) -> None:
    """Their sessions end (users who never signed in have none) and their tokens are revoked."""
    signed_in = set(
        get_user_model()
        .objects.filter(pk__in=user_ids, last_login__isnull=False)
        .values_list("pk", flat=True)
    )
    if signed_in:
        sessions_end(signed_in)
    from .models import ApiToken

    tokens_revoke(ApiToken.objects.filter(user_id__in=user_ids))


def role_changed(sender, instance, action, reverse, model, pk_set, **kwargs) -> None:
    """m2m_changed on User.groups, from the user's side or a group's: after an add or a remove; before
    a clear (only then are the members known)."""
    if action == "pre_clear":
        user_ids = set(instance.user_set.values_list("pk", flat=True)) if reverse else {instance.pk}
    elif action in ("post_add", "post_remove") and pk_set:
        user_ids = set(pk_set) if reverse else {instance.pk}
    else:
        return
    if user_ids:
        signed_out_everywhere(user_ids)


def deactivated(sender, instance, created, **kwargs) -> None:
    """post_save of a user: saved inactive (the admin's user page, or code)."""
    if not created and not instance.is_active:
        signed_out_everywhere({instance.pk})


def connect() -> None:
    from django.db.models.signals import m2m_changed, post_save

    User = get_user_model()
    m2m_changed.connect(role_changed, sender=User.groups.through, dispatch_uid="accounts_role_changed")
    post_save.connect(deactivated, sender=User, dispatch_uid="accounts_deactivated_sessions_end")
