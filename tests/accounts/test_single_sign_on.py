"""Single sign-on, the real round trip (accounts/single_sign_on.py): Pitboss served by the live server,
an OpenID Connect provider in a process of its own (tests/oidc_provider/), and a browser played by
requests: Pitboss's log-in button, the provider's sign-in form, back to Pitboss with a code that
Pitboss exchanges at the provider. Nothing is mocked.

The provider's groups name the role; supervisors need a second factor (a Pitboss TOTP, or the
provider's when its `amr` is trusted); a provider user with no role, or two, is refused and counted
as a failed sign-in."""

import html
import re
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.roles import COMPLIANCE, CUSTOMER_SERVICE, SUPERVISOR
from demo.second_factor import totp_code
from tests.oidc_provider.support import oidc_provider
from tests.second_factor_support import (
    CODE_AT_SIGN_IN,
    ENROL,
    LOGIN,
    enrol,
    secret_of,
    secret_on_enrol_page,
)

pytestmark = pytest.mark.django_db(transaction=True)

CALLBACK = "/accounts/oidc/sso/login/callback/"
GROUP_ROLES = {
    "floor-supervisors": "supervisor",
    "compliance-team": "compliance",
    "service-desk": "customer_service",
}
MFA_GROUP = "mfa-done"  # the provider's users in it sign in with a second factor there: amr ["pwd", "mfa"]
TIMEOUT = 20
HOME = "/"
RECOVERY_CODES = "/accounts/2fa/recovery-codes/"


@pytest.fixture(scope="module")
def provider(live_server, tmp_path_factory):
    with oidc_provider(tmp_path_factory.mktemp("oidc-provider"), live_server.url + CALLBACK) as running:
        yield running


@pytest.fixture(autouse=True)
def single_sign_on(provider, settings):
    """Pitboss with the provider as its single sign-on (as PITBOSS_OIDC_SERVER_URL and the client's
    id and secret would configure it), no `amr` trusted."""
    settings.SOCIALACCOUNT_PROVIDERS = {
        "openid_connect": {
            "OAUTH_PKCE_ENABLED": True,
            "APPS": [
                {
                    "provider_id": settings.PITBOSS_OIDC_PROVIDER_ID,
                    "name": "Casino SSO",
                    "client_id": provider.client_id,
                    "secret": provider.client_secret,
                    "settings": {"server_url": provider.discovery_url, "oauth_pkce_enabled": True},
                }
            ],
        }
    }
    settings.PITBOSS_OIDC_GROUP_ROLES = GROUP_ROLES
    settings.PITBOSS_OIDC_TRUSTED_AMR = []
    assert reverse("home") == HOME


@pytest.fixture
def pitboss(live_server) -> str:
    return live_server.url


def browser() -> requests.Session:
    return requests.Session()


def _csrf(text: str) -> str:
    return html.unescape(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)[1])


def _path(response: requests.Response) -> str:
    return urlsplit(response.url).path


def signed_in_through_provider(session: requests.Session, pitboss: str, username: str, password: str):
    """Pitboss's log-in page, its "Log in with Casino SSO" button, the provider's sign-in form, and
    every redirect after: the last answer."""
    page = session.get(pitboss + LOGIN, timeout=TIMEOUT)
    assert page.status_code == 200
    button = re.search(r'<form method="post" action="([^"]+)" class="sso">(.*?)</form>', page.text, re.S)
    assert button and "Log in with Casino SSO" in button[2], page.text
    action = html.unescape(button[1])
    assert action == "/accounts/oidc/sso/login/?process=login"
    at_provider = session.post(
        urljoin(pitboss + LOGIN, action), data={"csrfmiddlewaretoken": _csrf(button[2])}, timeout=TIMEOUT
    )
    assert at_provider.status_code == 200 and _path(at_provider) == "/login/", at_provider.text
    next_url = html.unescape(re.search(r'name="next" value="([^"]*)"', at_provider.text)[1])
    assert next_url.startswith("/o/authorize/?") and "code_challenge=" in next_url
    return session.post(
        at_provider.url,
        data={
            "csrfmiddlewaretoken": _csrf(at_provider.text),
            "username": username,
            "password": password,
            "next": next_url,
        },
        timeout=TIMEOUT,
    )


def code_given(session: requests.Session, page: requests.Response, username: str) -> requests.Response:
    """A code of `username`'s Pitboss TOTP given on the page that asks for one at sign-in."""
    assert _path(page) == CODE_AT_SIGN_IN
    answer = session.post(
        page.url,
        data={"csrfmiddlewaretoken": _csrf(page.text), "code": totp_code(secret_of(username))},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert answer.status_code == 302, answer.text
    return session.get(urljoin(page.url, answer.headers["Location"]), timeout=TIMEOUT)


def pitboss_user(username: str):
    return get_user_model().objects.get(username=username)


def roles_of(username: str) -> list[str]:
    return list(pitboss_user(username).groups.values_list("name", flat=True))


def test_a_supervisors_first_sign_in_makes_their_account_and_sends_them_to_enrol(provider, pitboss):
    password = provider.user_set("sso-ana", ["floor-supervisors", "all-staff"])

    answer = signed_in_through_provider(browser(), pitboss, "sso-ana", password)

    assert answer.status_code == 200 and _path(answer) == ENROL
    assert roles_of("sso-ana") == [SUPERVISOR]
    assert pitboss_user("sso-ana").socialaccount_set.get().provider == "sso"
    assert not pitboss_user("sso-ana").has_usable_password()
    assert pitboss_user("sso-ana").email == "sso-ana@casino.test"


def test_a_supervisor_from_the_provider_enrols_a_pitboss_totp(provider, pitboss):
    password = provider.user_set("sso-abe", ["floor-supervisors"])
    session = browser()
    page = signed_in_through_provider(session, pitboss, "sso-abe", password)
    assert _path(page) == ENROL

    enrolled = session.post(
        page.url,
        data={"csrfmiddlewaretoken": _csrf(page.text), "code": totp_code(secret_on_enrol_page(page.text))},
        timeout=TIMEOUT,
    )

    assert enrolled.status_code == 200 and _path(enrolled) == RECOVERY_CODES
    assert _path(session.get(pitboss + HOME, timeout=TIMEOUT)) == HOME


def test_a_supervisor_with_a_pitboss_totp_gives_a_code_after_the_provider(provider, pitboss):
    password = provider.user_set("sso-ben", ["floor-supervisors"])
    assert _path(signed_in_through_provider(browser(), pitboss, "sso-ben", password)) == ENROL
    enrol(pitboss_user("sso-ben"))
    session = browser()

    asked = signed_in_through_provider(session, pitboss, "sso-ben", password)
    assert asked.status_code == 200 and _path(asked) == CODE_AT_SIGN_IN
    asked = session.get(pitboss + HOME, timeout=TIMEOUT)
    assert _path(asked) == CODE_AT_SIGN_IN  # not signed in before the code

    home = code_given(session, asked, "sso-ben")

    assert home.status_code == 200 and _path(home) == HOME
    assert roles_of("sso-ben") == [SUPERVISOR]


def test_customer_service_reaches_home_directly(provider, pitboss):
    password = provider.user_set("sso-cy", ["service-desk"])

    answer = signed_in_through_provider(browser(), pitboss, "sso-cy", password)

    assert answer.status_code == 200 and _path(answer) == HOME
    assert roles_of("sso-cy") == [CUSTOMER_SERVICE]


def test_the_role_is_set_at_each_sign_in_and_a_change_ends_the_earlier_sessions(provider, pitboss):
    password = provider.user_set("sso-dee", ["service-desk"])
    earlier = browser()
    assert _path(signed_in_through_provider(earlier, pitboss, "sso-dee", password)) == HOME
    assert _path(signed_in_through_provider(browser(), pitboss, "sso-dee", password)) == HOME
    assert _path(earlier.get(pitboss + HOME, timeout=TIMEOUT)) == HOME  # the same role: nothing ended

    provider.user_set("sso-dee", ["compliance-team"])
    answer = signed_in_through_provider(browser(), pitboss, "sso-dee", password)

    assert _path(answer) == ENROL  # compliance needs a second factor
    assert roles_of("sso-dee") == [COMPLIANCE]
    assert get_user_model().objects.filter(username__startswith="sso-dee").count() == 1
    assert _path(earlier.get(pitboss + HOME, timeout=TIMEOUT)) == LOGIN


@pytest.mark.parametrize(
    ("groups", "says"),
    [
        (["all-staff"], ["None of your groups at the identity provider gives you a Pitboss role."]),
        (
            ["floor-supervisors", "service-desk"],
            ["more than one Pitboss role", f"{SUPERVISOR}, {CUSTOMER_SERVICE}"],
        ),
    ],
    ids=["no mapped group", "groups of two roles"],
)
def test_a_user_without_exactly_one_role_is_refused_and_counted(provider, pitboss, groups, says):
    password = provider.user_set("sso-eve", groups)

    answer = signed_in_through_provider(browser(), pitboss, "sso-eve", password)

    assert answer.status_code == 403 and _path(answer) == CALLBACK
    page = html.unescape(answer.text)
    assert "Sign-in refused" in page and "sso-eve" in page
    for words in says:
        assert words in page
    assert not get_user_model().objects.filter(username="sso-eve").exists()
    attempt = AccessAttempt.objects.get(username="sso-eve")
    assert attempt.failures_since_start == 1

    signed_in_through_provider(browser(), pitboss, "sso-eve", password)
    assert AccessAttempt.objects.get(username="sso-eve").failures_since_start == 2


def test_two_groups_of_the_same_role_are_one_role(provider, pitboss, settings):
    settings.PITBOSS_OIDC_GROUP_ROLES = {**GROUP_ROLES, "pit-bosses": "supervisor"}
    password = provider.user_set("sso-fay", ["floor-supervisors", "pit-bosses"])

    answer = signed_in_through_provider(browser(), pitboss, "sso-fay", password)

    assert _path(answer) == ENROL
    assert roles_of("sso-fay") == [SUPERVISOR]


def test_a_trusted_amr_is_the_supervisors_second_factor(provider, pitboss, settings):
    settings.PITBOSS_OIDC_TRUSTED_AMR = ["mfa"]
    password = provider.user_set("sso-gus", ["floor-supervisors", MFA_GROUP])
    session = browser()

    answer = signed_in_through_provider(session, pitboss, "sso-gus", password)

    assert answer.status_code == 200 and _path(answer) == HOME
    assert roles_of("sso-gus") == [SUPERVISOR]
    assert _path(session.get(pitboss + "/tables/", timeout=TIMEOUT)) == "/tables/"


def test_an_amr_without_the_trusted_value_leaves_the_supervisor_to_enrol(provider, pitboss, settings):
    settings.PITBOSS_OIDC_TRUSTED_AMR = ["mfa"]
    password = provider.user_set("sso-hal", ["floor-supervisors"])

    answer = signed_in_through_provider(browser(), pitboss, "sso-hal", password)

    assert _path(answer) == ENROL


def test_the_provider_second_factor_counts_only_when_trusted(provider, pitboss):
    password = provider.user_set("sso-ida", ["floor-supervisors", MFA_GROUP])

    answer = signed_in_through_provider(browser(), pitboss, "sso-ida", password)

    assert _path(answer) == ENROL  # amr ["pwd", "mfa"], but PITBOSS_OIDC_TRUSTED_AMR is empty
