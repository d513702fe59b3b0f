"""{{ user|roles }}: the signed-in user's role names, read with their permissions (one query)."""

from django import template

from accounts.backends import role_names

register = template.Library()


@register.filter
def roles(user) -> list[str]:
    return role_names(user)
