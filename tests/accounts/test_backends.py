"""accounts.backends.RoleBackend: Django's ModelBackend, reading a user's permissions and role
names together in one query, once a request; nothing kept beyond the request."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.backends import RoleBackend, role_names
from accounts.roles import COMPLIANCE, CUSTOMER_SERVICE, SUPERVISOR, user_role
from tests.factories import user

pytestmark = pytest.mark.django_db
User = get_user_model()


def fresh(some_user):
    return User.objects.get(pk=some_user.pk)  # as a request reads it: nothing read for it yet


def people():
    roles = [user(role) for role in ("supervisor", "compliance", "customer_service", "game_server")]
    direct = user("compliance", username="compliance-with-more")
    direct.user_permissions.add(Permission.objects.get(codename="add_resettlement"))
    only_direct = User.objects.create_user("only-direct", password="pw")
    only_direct.user_permissions.add(Permission.objects.get(codename="view_round"))
    two_roles = user("supervisor", username="two-roles")
    two_roles.groups.add(Group.objects.get(name=COMPLIANCE))
    nobody = User.objects.create_user("nobody", password="pw")
    boss = User.objects.create_superuser("boss", password="pw")
    return [*roles, direct, only_direct, two_roles, nobody, boss]


def test_permissions_and_roles_as_django_reads_them():
    for person in people():
        assert RoleBackend().get_all_permissions(fresh(person)) == ModelBackend().get_all_permissions(
            fresh(person)
        ), person.username
        assert fresh(person).get_all_permissions() == ModelBackend().get_all_permissions(fresh(person))
        assert role_names(fresh(person)) == sorted(fresh(person).groups.values_list("name", flat=True))


def test_one_query_for_permissions_and_roles_in_a_request():
    person = fresh(user("compliance"))
    with CaptureQueriesContext(connection) as queries:
        assert person.has_perm("rounds.view_round") and not person.has_perm("tables.change_table")
        assert person.has_module_perms("reports") and not person.has_module_perms("auth")
        assert role_names(person) == [COMPLIANCE] and user_role(person) == COMPLIANCE
    assert len(queries) == 1


def test_a_changed_role_holds_from_the_next_page_on(client):
    """Nothing is kept between requests: the next page reads the user's roles afresh. A change of
    role also ends the user's sessions (issue 53): they sign in again, in their new role."""
    person = user("supervisor")
    client.force_login(person)
    page = client.get("/tables/")
    assert page.status_code == 200 and f"· {SUPERVISOR}" in page.content.decode()
    person.groups.set([Group.objects.get(name=CUSTOMER_SERVICE)])
    signed_out = client.get("/tables/")
    assert signed_out.status_code == 302 and signed_out["Location"].startswith(reverse("login"))
    client.force_login(person)
    assert client.get("/tables/").status_code == 403
    assert f"· {CUSTOMER_SERVICE}" in client.get("/limits/players/").content.decode()
    Group.objects.get(name=CUSTOMER_SERVICE).permissions.remove(
        Permission.objects.get(codename="view_player")
    )
    assert client.get("/limits/players/").status_code == 403


def test_an_inactive_user_holds_nothing_and_is_not_signed_in():
    person = user("supervisor", username="gone")
    person.is_active = False
    person.save()
    assert RoleBackend().get_all_permissions(fresh(person)) == set()
    assert not fresh(person).has_perm("tables.view_table")
    assert RoleBackend().get_user(person.pk) is None


def test_get_user_reads_the_user():
    person = user("supervisor")
    assert RoleBackend().get_user(person.pk) == person
    assert RoleBackend().get_user(10**9) is None


def test_nobody_signed_in_has_no_roles():
    assert role_names(AnonymousUser()) == []
    assert user_role(AnonymousUser()) is None
