"""API tokens (accounts/models.py ApiToken): several per user, stored hashed, rotated with a grace
period, revoked by a password change or a deactivation, and their last use recorded at most once a
minute; the DRF tokens of before keep working after the data migration."""

import importlib
import io
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth.hashers import identify_hasher
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from freezegun import freeze_time
from rest_framework.authtoken.models import Token as DrfToken
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import token_create, token_rotate
from tests.api_support import make_table, user

pytestmark = pytest.mark.django_db
URL = "/api/tables/"  # a read a compliance user may make
PASSWORD = "pw-api-compliance"  # tests/api_support.py's password of user("compliance")
NEW_PASSWORD = "a-new-long-passphrase"


def status(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get(URL).status_code


def printed_key(output: str) -> str:
    """The key a command printed: the last word of its line naming the token."""
    return next(line.split()[-1] for line in output.splitlines() if "token:" in line)


@pytest.fixture
def compliance():
    make_table()
    return user("compliance")


def test_a_token_works_and_its_key_is_not_stored(compliance):
    token, key = token_create(user=compliance, name="laptop")
    assert status(key) == 200
    stored = ApiToken.objects.filter(pk=token.pk).values().get()
    assert key not in {str(value) for value in stored.values()}
    assert key.startswith(stored["prefix"]) and len(stored["prefix"]) < len(key)


def test_unknown_and_malformed_tokens_are_401(compliance):
    token_create(user=compliance)
    for header in ["Token not-a-token", "Token", "Token two words", "token " + "0" * 40]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.get(URL)
        assert response.status_code == 401, header
        assert response["WWW-Authenticate"] == "Token"
        assert response.json()["detail"]


def test_a_user_holds_several_tokens(compliance):
    keys = [token_create(user=compliance, name=f"server {n}")[1] for n in range(3)]
    assert [status(key) for key in keys] == [200, 200, 200]


def test_rotation_keeps_the_old_token_for_the_grace_period_only(compliance):
    _, old = token_create(user=compliance)
    out = io.StringIO()
    call_command("token_rotate", compliance.username, "--grace", "24h", stdout=out)
    new = printed_key(out.getvalue())
    assert new != old
    assert out.getvalue().count(new) == 1  # shown once
    assert (status(old), status(new)) == (200, 200)
    with freeze_time(timezone.now() + timedelta(hours=23, minutes=59)):
        assert (status(old), status(new)) == (200, 200)
    with freeze_time(timezone.now() + timedelta(hours=24, seconds=1)):
        assert (status(old), status(new)) == (401, 200)


def test_rotation_never_lengthens_an_old_tokens_life(compliance):
    soon = timezone.now() + timedelta(hours=1)
    old, _ = token_create(user=compliance, expires_at=soon)
    token_rotate(user=compliance, grace=timedelta(days=7))
    old.refresh_from_db()
    assert old.expires_at == soon


def test_rotation_with_no_grace_ends_the_old_token_now(compliance):
    _, old = token_create(user=compliance)
    _, new = token_rotate(user=compliance, grace=timedelta(0))
    assert (status(old), status(new)) == (401, 200)


@pytest.mark.parametrize("grace", ["", "tomorrow", "-1h", "24x"])
def test_token_rotate_refuses_a_bad_grace(compliance, grace):
    with pytest.raises(CommandError):
        call_command("token_rotate", compliance.username, "--grace", grace, stdout=io.StringIO())
    assert not ApiToken.objects.exists()


def test_changing_the_password_on_its_page_revokes_every_token(compliance):
    keys = [token_create(user=compliance)[1] for _ in range(2)]
    browser = Client()
    browser.force_login(compliance)
    response = browser.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302, response.content
    assert [status(key) for key in keys] == [401, 401]
    assert status(token_create(user=compliance)[1]) == 200  # a new one, issued after, works


def test_a_password_set_in_the_admin_revokes_the_tokens(compliance):
    _, key = token_create(user=compliance)
    admin = Client()
    admin.force_login(apps.get_model("auth", "User").objects.create_superuser("root", password="pw-root"))
    response = admin.post(
        f"/admin/auth/user/{compliance.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302, response.content
    assert status(key) == 401


def test_a_stronger_hash_of_the_same_password_at_sign_in_revokes_nothing(compliance, settings):
    """Django re-hashes a password with its preferred hasher when the user signs in: the password
    is the same, so the tokens stay."""
    _, key = token_create(user=compliance)
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    signed_in = Client().post("/accounts/login/", {"login": compliance.username, "password": PASSWORD})
    assert signed_in.status_code == 302  # the password right: on to the code
    compliance.refresh_from_db()
    assert identify_hasher(compliance.password).algorithm == "pbkdf2_sha256"  # it was re-hashed
    assert status(key) == 200


def test_deactivating_a_user_in_the_admin_revokes_the_tokens(compliance):
    _, key = token_create(user=compliance)
    admin = Client()
    admin.force_login(apps.get_model("auth", "User").objects.create_superuser("root", password="pw-root"))
    page = f"/admin/auth/user/{compliance.pk}/change/"
    form = admin.get(page).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update(
        groups=[group.pk for group in compliance.groups.all()],
        user_permissions=[],
        last_login_0="",
        last_login_1="",
        date_joined_0=compliance.date_joined.strftime("%Y-%m-%d"),
        date_joined_1=compliance.date_joined.strftime("%H:%M:%S"),
    )
    data.pop("is_active")  # the box unticked
    data = {name: value for name, value in data.items() if value is not False}
    response = admin.post(page, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    compliance.refresh_from_db()
    assert not compliance.is_active
    assert ApiToken.objects.get().revoked_at is not None
    # Active again, the old token stays revoked: a new one must be issued.
    compliance.is_active = True
    compliance.save()
    assert status(key) == 401


def test_deactivating_a_user_anywhere_revokes_the_tokens(compliance):
    _, key = token_create(user=compliance)
    compliance.is_active = False
    compliance.save()
    compliance.is_active = True
    compliance.save()
    assert status(key) == 401


def test_token_revoke_revokes_one_token_or_all(compliance):
    first, first_key = token_create(user=compliance)
    _, second_key = token_create(user=compliance)
    call_command("token_revoke", compliance.username, "--prefix", first.prefix, stdout=io.StringIO())
    assert (status(first_key), status(second_key)) == (401, 200)
    call_command("token_revoke", compliance.username, stdout=io.StringIO())
    assert status(second_key) == 401


def test_token_list_shows_each_token_without_its_key(compliance):
    token, key = token_create(user=compliance, name="studio A")
    status(key)
    out = io.StringIO()
    call_command("token_list", compliance.username, stdout=out)
    assert token.prefix in out.getvalue() and "studio A" in out.getvalue()
    assert key not in out.getvalue()


def test_last_use_is_written_at_most_once_a_minute(compliance):
    token, key = token_create(user=compliance)
    assert token.last_used_at is None
    started = timezone.now()
    with freeze_time(started):
        status(key)
        token.refresh_from_db()
        assert token.last_used_at == started
    with freeze_time(started + timedelta(seconds=59)):
        with CaptureQueriesContext(connection) as queries:
            status(key)
        assert not [query for query in queries if query["sql"].startswith("UPDATE")]
        token.refresh_from_db()
        assert token.last_used_at == started
    with freeze_time(started + timedelta(seconds=61)):
        status(key)
        token.refresh_from_db()
        assert token.last_used_at == started + timedelta(seconds=61)


def test_create_user_prints_a_working_token_for_a_game_server():
    out = io.StringIO()
    call_command("create_user", "gs9", "--role", "game_server", stdout=out)
    key = printed_key(out.getvalue())
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.post("/api/limits/check", {}).status_code == 400  # authenticated: the body is wrong


def test_the_migration_moves_drf_tokens_and_their_keys_keep_working(compliance):
    """A deployed game server's DRF token, made before the migration, works after it with the same
    key; the key itself is no longer stored."""
    old = DrfToken.objects.create(user=compliance)
    migration = importlib.import_module("accounts.migrations.0002_drf_tokens_moved")
    migration.drf_tokens_move(apps, connection.schema_editor())  # it reads only the editor's connection
    assert not DrfToken.objects.exists()
    moved = ApiToken.objects.get()
    assert (moved.user, moved.created_at, moved.expires_at) == (compliance, old.created, None)
    assert status(old.key) == 200


def test_the_admin_revokes_the_selected_tokens(compliance):
    token, key = token_create(user=compliance)
    _, other_key = token_create(user=compliance)
    admin = Client()
    admin.force_login(apps.get_model("auth", "User").objects.create_superuser("root", password="pw-root"))
    response = admin.post(
        "/admin/accounts/apitoken/", {"action": "revoke", "_selected_action": [token.pk]}, follow=True
    )
    assert response.status_code == 200
    assert (status(key), status(other_key)) == (401, 200)
