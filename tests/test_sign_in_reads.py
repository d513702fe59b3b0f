"""The prepared reads of every page (accounts/backends.py, accounts/sessions.py) give what
Django's ModelBackend and database session store give, in fewer queries."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.backends import RoleBackend, role_names
from accounts.sessions import SessionStore
from tests.factories import user

pytestmark = pytest.mark.django_db
User = get_user_model()


def fresh(some_user):
    return User.objects.get(pk=some_user.pk)  # no permission read yet


def people():
    roles = [user(role) for role in ("supervisor", "compliance", "customer_service", "game_server")]
    direct = user("compliance", username="compliance-with-more")
    direct.user_permissions.add(Permission.objects.get(codename="add_resettlement"))
    two_roles = user("supervisor", username="two-roles")
    two_roles.groups.add(Group.objects.get(name__iexact="compliance"))
    nobody = User.objects.create_user("nobody", password="pw")
    boss = User.objects.create_superuser("boss", password="pw")
    return [*roles, direct, two_roles, nobody, boss]


def test_permissions_and_roles_as_django_reads_them():
    for person in people():
        assert RoleBackend().get_all_permissions(fresh(person)) == ModelBackend().get_all_permissions(
            fresh(person)
        ), person.username
        assert role_names(fresh(person)) == sorted(fresh(person).groups.values_list("name", flat=True))


def test_one_query_for_permissions_and_roles():
    person = fresh(user("compliance"))
    groups = list(person.groups.values_list("name", flat=True))
    with CaptureQueriesContext(connection) as queries:
        assert person.has_perm("rounds.view_round") and not person.has_perm("tables.change_table")
        assert role_names(person) == groups and len(groups) == 1
    assert len(queries) == 1


def test_an_inactive_user_holds_nothing_and_is_not_signed_in():
    person = user("supervisor", username="gone")
    person.is_active = False
    person.save()
    assert RoleBackend().get_all_permissions(fresh(person)) == set()
    assert RoleBackend().get_user(person.pk) is None


def test_get_user_reads_every_field():
    person = user("supervisor")
    read = RoleBackend().get_user(person.pk)
    expected = User.objects.get(pk=person.pk)
    for field in User._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
    assert read._state.adding is False and read._state.db == "default"
    assert RoleBackend().get_user(10**9) is None
    assert RoleBackend().get_user("not a number") is None


def test_sessions_read_as_the_database_store_reads_them():
    stored = DjangoSessionStore()
    stored["answer"] = 42
    stored.create()
    assert (
        SessionStore(stored.session_key).load()
        == DjangoSessionStore(stored.session_key).load()
        == {"answer": 42}
    )

    for key in ("no-such-session-key", "", None):
        session = SessionStore(key)
        assert session.load() == {} and session.session_key is None

    expired = DjangoSessionStore()
    expired["answer"] = 1
    expired.set_expiry(timezone.now() - timedelta(seconds=1))
    expired.create()
    session = SessionStore(expired.session_key)
    assert session.load() == {} and session.session_key is None


def test_a_signed_out_session_no_longer_signs_in():
    person = user("compliance")
    client = Client()
    signed_in = client.post(
        "/accounts/login/", {"username": person.username, "password": "pw-" + person.username}
    )
    assert signed_in.status_code == 302
    assert client.get("/rounds/").status_code == 200
    cookie = client.cookies["sessionid"].value
    client.post("/accounts/logout/")
    replay = Client()
    replay.cookies["sessionid"] = cookie
    assert replay.get("/rounds/").status_code == 302
