"""Signing in and permissions: Django's ModelBackend, with a user's permissions and role names read
together, by one ORM query, once a request.

Every page checks the user's permissions and its header shows their role names (their groups).
ModelBackend alone reads the user's own permissions and their groups' in two queries, and the
role names would be a third. Here one query reads all three (`access()`), the first time a request
asks, and keeps them on that request's user object as `user.pitboss_access`. Nothing outlives the
request (each request reads its user afresh), so a changed role or permission holds from the next
page on. Everything else, signing in and reading the signed-in user, is ModelBackend's.
"""

from dataclasses import dataclass

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.db.models import CharField, Q, Value


@dataclass(frozen=True)
class Access:
    permissions: frozenset[str]  # "app_label.codename", as has_perm() takes them
    roles: tuple[str, ...]  # group names, sorted


class RoleBackend(ModelBackend):
    def get_all_permissions(self, user_obj, obj=None):
        # A superuser holds every permission: ModelBackend reads them all (the admin, rarely).
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None or user_obj.is_superuser:
            return super().get_all_permissions(user_obj, obj)
        return access(user_obj).permissions


def role_names(user) -> list[str]:
    """The names of the user's groups (their roles), sorted; read with their permissions."""
    if not user.is_authenticated:
        return []
    return list(access(user).roles)


def access(user) -> Access:
    """The user's permissions and roles, read the first time this user object is asked."""
    try:
        return user.pitboss_access
    except AttributeError:
        user.pitboss_access = _access_read(user)
        return user.pitboss_access


def _text(value: str) -> Value:
    return Value(value, output_field=CharField())


def _access_read(user) -> Access:
    roles = Group.objects.filter(user=user).values_list(_text("role"), "name", _text(""))
    permissions = Permission.objects.filter(Q(user=user) | Q(group__user=user)).values_list(
        _text("permission"), "content_type__app_label", "codename"
    )
    rows = list(roles.order_by().union(permissions.order_by()))
    return Access(
        permissions=frozenset(f"{label}.{code}" for kind, label, code in rows if kind == "permission"),
        roles=tuple(sorted(name for kind, name, _ in rows if kind == "role")),
    )
