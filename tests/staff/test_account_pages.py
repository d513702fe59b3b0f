"""The administrators' pages (issue 54): the accounts, a new account and its first password shown
once, one account with its forms, a game server's key shown once, and the record of every change with
the decisions a second administrator makes (with a code checked lately). Every other role is refused
every page but the record, which compliance reads; anonymous visitors are sent to sign in."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from accounts.roles import COMPLIANCE, CUSTOMER_SERVICE, GAME_SERVER, SUPERVISOR
from staff import services
from staff.models import AccountChange, ChangeStatus
from tests import factories
from tests.second_factor_support import CODE_AGAIN, deciding_client
from tests.staff.account_support import admin, api_status, fresh

pytestmark = pytest.mark.django_db
OTHER_ROLES = ["supervisor", "compliance", "customer_service", "game_server"]


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def html(response) -> str:
    return response.content.decode()


@pytest.fixture
def cara():
    return factories.user("customer_service", "cara")


@pytest.fixture
def pending_change():
    """A supervisor's account asked for by admin-a, awaiting a second administrator."""
    return services.account_create(
        actor=admin("admin-a"), username="sam", role=SUPERVISOR, reason="new floor supervisor"
    ).change


def admin_pages(user_pk: int, token_pk: int, change_pk: int) -> dict[str, list[str]]:
    """Every administrator page by method: (url, method)."""
    return {
        "get": [
            reverse("staff:users"),
            reverse("staff:user_create"),
            reverse("staff:user", args=[user_pk]),
        ],
        "post": [
            reverse("staff:user_create"),
            reverse("staff:user_role", args=[user_pk]),
            reverse("staff:user_deactivate", args=[user_pk]),
            reverse("staff:user_reactivate", args=[user_pk]),
            reverse("staff:user_second_factor_reset", args=[user_pk]),
            reverse("staff:token_issue", args=[user_pk]),
            reverse("staff:token_rotate", args=[user_pk]),
            reverse("staff:token_revoke", args=[token_pk]),
            reverse("staff:change_approve", args=[change_pk]),
            reverse("staff:change_reject", args=[change_pk]),
            reverse("staff:change_withdraw", args=[change_pk]),
        ],
    }


RECORD = ["staff:changes", "staff:change"]


# --- who may open what -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", OTHER_ROLES)
def test_every_other_role_is_refused_every_administrator_page(role, cara, pending_change):
    token, _ = ApiToken.objects.get_or_create(user=cara, digest="d" * 64, defaults={"prefix": "dddddddd"})
    member = factories.user(role)
    client = deciding_client(member)  # even with a code checked
    pages = admin_pages(cara.pk, token.pk, pending_change.pk)
    for url in pages["get"]:
        assert client.get(url).status_code == 403, url
    for url in pages["post"]:
        assert client.post(url, {"reason": "r", "role-role": CUSTOMER_SERVICE}).status_code == 403, url
    record = (
        client.get(reverse("staff:changes")),
        client.get(reverse("staff:change", args=[pending_change.pk])),
    )
    expected = 200 if role == "compliance" else 403
    assert [answer.status_code for answer in record] == [expected, expected]
    assert AccountChange.objects.count() == 1 and fresh(cara).is_active


def test_anonymous_visitors_are_sent_to_sign_in(cara, pending_change):
    client = Client()
    pages = admin_pages(cara.pk, 1, pending_change.pk)
    urls = pages["get"] + [reverse("staff:changes"), reverse("staff:change", args=[pending_change.pk])]
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/"), url
    for url in pages["post"]:
        answer = client.post(url, {"reason": "r"})
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/"), url


def test_compliance_reads_the_record_and_a_change_but_decides_nothing(pending_change):
    client = deciding_client(factories.user("compliance"))
    page = client.get(reverse("staff:change", args=[pending_change.pk]))
    assert page.status_code == 200 and "new floor supervisor" in html(page)
    assert 'id="decision"' not in html(page) and 'id="withdraw"' not in html(page)
    assert "The account</a>" not in html(page)  # the account's page is an administrator's
    assert "sam" in html(client.get(reverse("staff:changes")))


# --- the accounts ----------------------------------------------------------------------------------------


def test_the_list_shows_each_account_with_its_role_factor_and_waiting_changes_and_exports(
    cara, pending_change
):
    sso = factories.user("supervisor", "sso-ana")
    sso.socialaccount_set.create(provider="sso", uid="ana")
    client = client_as(admin())
    page = client.get(reverse("staff:users"))
    text = html(page)
    assert page.status_code == 200 and "Create a user" in text
    for name in ("cara", "sam", "sso-ana", "admin-a"):
        assert name in text
    assert "Single sign-on" in text and "Enrolled" in text
    only = html(client.get(reverse("staff:users"), {"role": SUPERVISOR, "sign_in": "single_sign_on"}))
    assert "sso-ana" in only and "cara" not in only
    waiting = html(client.get(reverse("staff:users"), {"pending": "yes"}))
    assert ">sam<" in waiting and ">cara<" not in waiting
    csv = client.get(reverse("staff:users"), {"_export": "csv"})
    body = b"".join(csv.streaming_content).decode() if csv.streaming else html(csv)
    assert csv.status_code == 200 and "cara,Customer service,Yes,None,Local,0" in body


def test_a_new_staff_account_shows_its_first_password_once_and_not_stored(cara):
    client = client_as(admin())
    form = client.get(reverse("staff:user_create"))
    assert form.status_code == 200 and "second administrator approves" in html(form)
    answer = client.post(
        reverse("staff:user_create"),
        {"username": "dora", "email": "", "role": CUSTOMER_SERVICE, "reason": "joins support"},
    )
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    dora = get_user_model().objects.get(username="dora")
    password = answer.context["created"].password
    assert password in html(answer) and dora.check_password(password) and dora.is_active
    assert password not in html(client.get(reverse("staff:user", args=[dora.pk])))


def test_a_new_supervisor_awaits_a_second_administrator():
    answer = client_as(admin()).post(
        reverse("staff:user_create"), {"username": "sam", "role": SUPERVISOR, "reason": "new supervisor"}
    )
    assert answer.status_code == 200 and "until another administrator approves" in html(answer)
    assert not get_user_model().objects.get(username="sam").is_active


def test_a_new_game_server_gets_no_password_and_a_link_to_issue_its_token():
    answer = client_as(admin()).post(
        reverse("staff:user_create"), {"username": "studio-b", "role": GAME_SERVER, "reason": "new studio"}
    )
    studio = get_user_model().objects.get(username="studio-b")
    assert "Issue its token" in html(answer) and reverse("staff:user", args=[studio.pk]) in html(answer)
    assert not studio.has_usable_password()


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"username": "", "role": CUSTOMER_SERVICE, "reason": "r"}, "username", "required"),
        ({"username": "cara", "role": CUSTOMER_SERVICE, "reason": "r"}, "username", "already exists"),
        ({"username": "bad name!", "role": CUSTOMER_SERVICE, "reason": "r"}, "username", "valid username"),
        (
            {"username": "ok", "email": "nope", "role": CUSTOMER_SERVICE, "reason": "r"},
            "email",
            "valid email",
        ),
        ({"username": "ok", "role": "Dealer", "reason": "r"}, "role", "valid choice"),
        ({"username": "ok", "role": CUSTOMER_SERVICE, "reason": ""}, "reason", "Say why"),
    ],
)
def test_bad_input_on_the_new_account_form_names_the_field_and_stores_nothing(cara, data, field, words):
    client = client_as(admin())
    users = get_user_model().objects.count()
    answer = client.post(reverse("staff:user_create"), data)
    assert answer.status_code == 200
    errors = answer.context["form"].errors
    assert field in errors and words.lower() in " ".join(errors[field]).lower()
    assert get_user_model().objects.count() == users and not AccountChange.objects.exists()


# --- one account -----------------------------------------------------------------------------------------


def test_an_account_page_shows_its_forms_tokens_and_changes(cara):
    services.role_give(actor=admin("admin-b"), user=cara, role=COMPLIANCE, reason="moves to compliance")
    page = client_as(admin()).get(reverse("staff:user", args=[cara.pk]))
    text = html(page)
    assert page.status_code == 200
    for form in ('id="role"', 'id="deactivate"', 'id="tokens"', 'id="pending"'):
        assert form in text, form
    assert "moves to compliance" in text and 'id="token-issue"' not in text  # tokens: game servers only


def test_ones_own_account_shows_no_form_and_a_post_is_refused():
    me = admin()
    client = client_as(me)
    page = client.get(reverse("staff:user", args=[me.pk]))
    assert "another administrator changes it" in html(page)
    assert 'id="deactivate"' not in html(page) and 'id="role"' not in html(page)
    refused = client.post(reverse("staff:user_deactivate", args=[me.pk]), {"deactivate-reason": "r"})
    assert refused.status_code == 403 and "your own account" in html(refused)
    assert fresh(me).is_active and not AccountChange.objects.exists()


def test_giving_a_role_at_once_and_one_that_waits(cara):
    client = client_as(admin())
    url = reverse("staff:user_role", args=[cara.pk])
    done = client.post(url, {"role-role": GAME_SERVER, "role-reason": "a studio's account"})
    assert done.status_code == 302 and fresh(cara).groups.get().name == GAME_SERVER
    waits = client.post(url, {"role-role": SUPERVISOR, "role-reason": "promoted"}, follow=True)
    assert "awaits a second administrator" in html(waits) and fresh(cara).groups.get().name == GAME_SERVER
    refused = client.post(url, {"role-role": SUPERVISOR, "role-reason": ""})
    assert refused.status_code == 400 and "Say why" in html(refused)


def test_a_single_sign_on_users_role_form_is_refused_with_why():
    sso = factories.user("supervisor", "sso-ana")
    sso.socialaccount_set.create(provider="sso", uid="ana")
    client = client_as(admin())
    page = html(client.get(reverse("staff:user", args=[sso.pk])))
    assert 'id="role-from-provider"' in page and 'id="role"' not in page
    refused = client.post(
        reverse("staff:user_role", args=[sso.pk]), {"role-role": COMPLIANCE, "role-reason": "r"}
    )
    assert refused.status_code == 400 and "provider&#x27;s groups" in html(refused)
    assert not AccountChange.objects.exists()


def test_deactivate_reactivate_and_a_reset_asked_for(cara):
    client = client_as(admin())
    sam = factories.user("supervisor", "sam")
    answer = client.post(reverse("staff:user_deactivate", args=[cara.pk]), {"deactivate-reason": "left"})
    assert answer.status_code == 302 and not fresh(cara).is_active
    client.post(reverse("staff:user_reactivate", args=[cara.pk]), {"reactivate-reason": "back"})
    assert fresh(cara).is_active
    asked = client.post(
        reverse("staff:user_second_factor_reset", args=[sam.pk]), {"second_factor_reset-reason": "lost phone"}
    )
    assert asked.status_code == 302
    assert AccountChange.objects.get(user=sam).status == ChangeStatus.PENDING


@pytest.fixture
def studio():
    factories.table("DLX1")
    factories.player("P1001")
    return factories.user("game_server", "studio-a")


def test_a_game_servers_key_is_shown_once_works_and_is_revoked_on_the_pages(studio):
    client = client_as(admin())
    issued = client.post(
        reverse("staff:token_issue", args=[studio.pk]),
        {"token_issue-name": "rack 1", "token_issue-reason": "new"},
    )
    key = issued.context["issued"].key
    assert issued.status_code == 200 and key in html(issued) and "no-store" in issued["Cache-Control"]
    assert api_status(key) == 200
    page = html(client.get(reverse("staff:user", args=[studio.pk])))
    assert key not in page and key[:8] in page

    rotated = client.post(
        reverse("staff:token_rotate", args=[studio.pk]),
        {"token_rotate-grace_hours": "0", "token_rotate-reason": "yearly"},
    )
    new_key = rotated.context["issued"].key
    assert new_key in html(rotated) and api_status(new_key) == 200 and api_status(key) == 401

    token = ApiToken.objects.get(user=studio, revoked_at__isnull=True, expires_at__isnull=True)
    revoked = client.post(
        reverse("staff:token_revoke", args=[token.pk]), {f"revoke_{token.pk}-reason": "moved"}
    )
    assert revoked.status_code == 302 and api_status(new_key) == 401


def test_a_staff_token_is_not_issued_and_a_bad_grace_is_named(studio, cara):
    client = client_as(admin())
    refused = client.post(reverse("staff:token_issue", args=[cara.pk]), {"token_issue-reason": "r"})
    assert refused.status_code == 400 and "could act as them" in html(refused)
    grace = client.post(
        reverse("staff:token_rotate", args=[studio.pk]),
        {"token_rotate-grace_hours": "-1", "token_rotate-reason": "r"},
    )
    assert grace.status_code == 400 and "grace_hours" in grace.context["forms"]["token_rotate"].errors
    assert not ApiToken.objects.exists() and not AccountChange.objects.exists()


# --- the record and its decisions ------------------------------------------------------------------------


def test_the_record_lists_filters_and_exports_every_change(pending_change, cara):
    services.deactivate(actor=admin("admin-b"), user=cara, reason="left")
    client = client_as(admin())
    page = html(client.get(reverse("staff:changes")))
    assert "new floor supervisor" in page and "left" in page
    only = html(client.get(reverse("staff:changes"), {"status": "pending", "requested_by": "admin-a"}))
    assert "new floor supervisor" in only and ">left<" not in only
    for export in ("csv", "xlsx"):
        answer = client.get(reverse("staff:changes"), {"_export": export})
        assert answer.status_code == 200, export
    bad = client.get(reverse("staff:changes"), {"day_from": "yesterday"})
    assert bad.status_code == 400


def test_a_second_administrator_approves_with_a_fresh_code_and_the_change_applies(pending_change):
    url = reverse("staff:change_approve", args=[pending_change.pk])
    second = admin("admin-b")
    no_code = client_as(second).post(url, {"decision-note": "ok"})
    assert no_code.status_code == 302 and no_code["Location"].startswith(CODE_AGAIN)
    assert AccountChange.objects.get(pk=pending_change.pk).status == ChangeStatus.PENDING

    client = deciding_client(second)
    page = html(client.get(reverse("staff:change", args=[pending_change.pk])))
    assert 'id="decision"' in page and 'id="withdraw"' not in page
    answer = client.post(url, {"decision-note": "checked"})
    assert answer.status_code == 302
    assert AccountChange.objects.get(pk=pending_change.pk).status == ChangeStatus.APPROVED
    assert fresh(pending_change.user).is_active


def test_the_requester_cannot_approve_but_withdraws(pending_change):
    client = deciding_client(admin("admin-a"))
    page = html(client.get(reverse("staff:change", args=[pending_change.pk])))
    assert "You asked for this change" in page and 'id="decision"' not in page and 'id="withdraw"' in page
    refused = client.post(reverse("staff:change_approve", args=[pending_change.pk]), {"decision-note": ""})
    assert refused.status_code == 403 and "another administrator approves" in html(refused)
    withdrawn = client.post(reverse("staff:change_withdraw", args=[pending_change.pk]), {"withdraw-note": ""})
    assert withdrawn.status_code == 302
    assert AccountChange.objects.get(pk=pending_change.pk).status == ChangeStatus.WITHDRAWN


def test_a_rejection_needs_a_note_and_then_holds(pending_change):
    client = deciding_client(admin("admin-b"))
    url = reverse("staff:change_reject", args=[pending_change.pk])
    refused = client.post(url, {"decision-note": ""})
    assert refused.status_code == 400 and "Say why" in html(refused)
    assert client.post(url, {"decision-note": "not hired"}).status_code == 302
    assert AccountChange.objects.get(pk=pending_change.pk).status == ChangeStatus.REJECTED
    again = client.post(reverse("staff:change_approve", args=[pending_change.pk]), {"decision-note": ""})
    assert again.status_code == 409 and not fresh(pending_change.user).is_active


def test_the_user_of_a_change_cannot_decide_it():
    change = services.second_factor_reset(actor=admin("admin-a"), user=admin("admin-b"), reason="lost phone")
    client = deciding_client(admin("admin-b"))
    page = html(client.get(reverse("staff:change", args=[change.pk])))
    assert "This change is of your own account" in page and 'id="decision"' not in page
    refused = client.post(reverse("staff:change_approve", args=[change.pk]), {"decision-note": ""})
    assert refused.status_code == 403
    assert AccountChange.objects.get(pk=change.pk).status == ChangeStatus.PENDING
