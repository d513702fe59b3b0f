"""Break-glass (accounts/break_glass.py): with single sign-on configured, an administrator's sign-in
with a local password is flagged on the sign-in record for compliance, with whether the provider
answered at that moment: the real test provider (tests/oidc_provider/) up, or a loopback port that
nobody listens on. A sign-in through the provider, a non-administrator's, or one without a provider
configured is not flagged. PITBOSS_OIDC_ONLY refuses every other password, naming the provider; a
refused single sign-on is a failure on the record."""

import html

import pytest
import requests
from django.core.checks import Warning
from django.test import Client

from accounts.checks import sign_in_roles
from accounts.models import SignInEvent
from accounts.roles import ADMINISTRATOR, CUSTOMER_SERVICE
from accounts.services import user_create
from accounts.sign_in_record import break_glass_unreviewed
from tests.accounts.test_single_sign_on import CALLBACK, signed_in_through_provider
from tests.benchmarks.support import free_port
from tests.oidc_provider.support import oidc_provider
from tests.second_factor_support import CODE_AT_SIGN_IN, ENROL, LOGIN, enrol, signed_in_with_code

pytestmark = pytest.mark.django_db(transaction=True)

PROVIDER_NAME = "Casino SSO"
GROUP_ROLES = {"it-admins": "administrator", "service-desk": "customer_service"}


@pytest.fixture(scope="module")
def provider(live_server, tmp_path_factory):
    with oidc_provider(tmp_path_factory.mktemp("oidc-provider"), live_server.url + CALLBACK) as running:
        yield running


def configured(settings, server_url: str, client_id: str = "pitboss", secret: str = "secret") -> None:
    """Single sign-on as PITBOSS_OIDC_SERVER_URL and the client's settings would configure it."""
    settings.PITBOSS_OIDC_SERVER_URL = server_url
    settings.SOCIALACCOUNT_PROVIDERS = {
        "openid_connect": {
            "OAUTH_PKCE_ENABLED": True,
            "APPS": [
                {
                    "provider_id": settings.PITBOSS_OIDC_PROVIDER_ID,
                    "name": PROVIDER_NAME,
                    "client_id": client_id,
                    "secret": secret,
                    "settings": {"server_url": server_url, "oauth_pkce_enabled": True},
                }
            ],
        }
    }
    settings.PITBOSS_OIDC_GROUP_ROLES = GROUP_ROLES
    settings.PITBOSS_OIDC_TRUSTED_AMR = []


@pytest.fixture
def provider_up(provider, settings):
    configured(settings, provider.url, provider.client_id, provider.client_secret)
    return provider


@pytest.fixture
def provider_down(settings):
    """A provider configured at a loopback port nobody listens on."""
    configured(settings, f"http://127.0.0.1:{free_port()}/o")


def administrator(username: str = "root-ada"):
    return enrol(user_create(username=username, password="pw-" + username, role=ADMINISTRATOR))


def the_sign_in(username: str) -> SignInEvent:
    return SignInEvent.objects.get(kind="success", username=username)


def test_an_administrators_password_sign_in_with_the_provider_up_is_flagged_and_it_answered(provider_up):
    ada = administrator()

    assert signed_in_with_code(Client(), ada)["Location"] == "/"

    event = the_sign_in("root-ada")
    assert (event.break_glass, event.provider_answered, event.method) == (True, True, "password")
    assert (event.reviewed_at, event.reviewed_by) == (None, None)
    assert list(break_glass_unreviewed()) == [event]


def test_an_administrators_password_sign_in_with_the_provider_down_says_it_did_not_answer(provider_down):
    ada = administrator()

    assert signed_in_with_code(Client(), ada)["Location"] == "/"

    event = the_sign_in("root-ada")
    assert (event.break_glass, event.provider_answered) == (True, False)
    assert list(break_glass_unreviewed()) == [event]


def test_without_a_provider_configured_no_sign_in_is_break_glass(settings):
    settings.PITBOSS_OIDC_SERVER_URL = None
    assert signed_in_with_code(Client(), administrator())["Location"] == "/"

    event = the_sign_in("root-ada")
    assert (event.break_glass, event.provider_answered) == (False, None)
    assert not break_glass_unreviewed().exists()


def test_another_roles_password_sign_in_is_not_break_glass(provider_down):
    user_create(username="desk-cy", password="pw-desk-cy", role=CUSTOMER_SERVICE)

    assert Client().post(LOGIN, {"login": "desk-cy", "password": "pw-desk-cy"})["Location"] == "/"

    assert (the_sign_in("desk-cy").break_glass, the_sign_in("desk-cy").provider_answered) == (False, None)


def test_an_administrators_sign_in_through_the_provider_is_not_break_glass(provider_up, live_server):
    password = provider_up.user_set("sso-root", ["it-admins"])

    answer = signed_in_through_provider(requests.Session(), live_server.url, "sso-root", password)

    assert answer.status_code == 200 and answer.url.endswith(ENROL)  # an administrator enrols first
    event = the_sign_in("sso-root")
    assert (event.method, event.break_glass, event.provider_answered) == ("single_sign_on", False, None)
    assert event.user.groups.get().name == ADMINISTRATOR
    assert not break_glass_unreviewed().exists()


def test_a_single_sign_on_the_groups_refuse_is_one_failure(provider_up, live_server):
    password = provider_up.user_set("sso-eve", ["all-staff"])

    answer = signed_in_through_provider(requests.Session(), live_server.url, "sso-eve", password)

    assert answer.status_code == 403
    assert list(SignInEvent.objects.values_list("kind", "username", "method", "detail")) == [
        ("failure", "sso-eve", "single_sign_on", "no mapped group")
    ]


def test_oidc_only_refuses_a_non_administrators_password_naming_the_provider(provider_down, settings):
    settings.PITBOSS_OIDC_ONLY = True
    user_create(username="desk-cy", password="pw-desk-cy", role=CUSTOMER_SERVICE)
    client = Client()

    refused = client.post(LOGIN, {"login": "desk-cy", "password": "pw-desk-cy"})

    assert refused.status_code == 200
    page = html.unescape(refused.content.decode())
    assert f"use the “Log in with {PROVIDER_NAME}” button below" in page
    assert client.get("/").status_code == 302  # not signed in
    wrong = html.unescape(client.post(LOGIN, {"login": "desk-cy", "password": "not it"}).content.decode())
    assert PROVIDER_NAME + "”" not in wrong  # a wrong password reads as any other
    assert list(SignInEvent.objects.order_by("id").values_list("kind", "detail")) == [
        ("failure", "password sign-in off: single sign-on only"),
        ("failure", "wrong password"),
    ]


def test_oidc_only_lets_an_administrator_in_break_glass(provider_down, settings):
    settings.PITBOSS_OIDC_ONLY = True
    ada = administrator()
    client = Client()

    assert client.post(LOGIN, {"login": "root-ada", "password": "pw-root-ada"})["Location"].startswith(
        CODE_AT_SIGN_IN
    )
    assert signed_in_with_code(client, ada)["Location"] == "/"
    assert client.get("/").status_code == 200
    event = the_sign_in("root-ada")
    assert (event.break_glass, event.provider_answered) == (True, False)


def test_oidc_only_without_a_provider_is_warned_of(settings):
    settings.PITBOSS_OIDC_ONLY = True
    settings.PITBOSS_OIDC_SERVER_URL = None

    warnings = [message for message in sign_in_roles(None) if message.id == "accounts.W004"]

    assert len(warnings) == 1 and isinstance(warnings[0], Warning)
    assert "PITBOSS_OIDC_ONLY" in warnings[0].msg
    settings.PITBOSS_OIDC_ONLY = False
    assert not [message for message in sign_in_roles(None) if message.id == "accounts.W004"]
