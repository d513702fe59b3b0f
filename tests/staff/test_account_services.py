"""The administrators' services (issue 54): accounts made, one role given, deactivated and
reactivated, a second factor reset, a game server's tokens issued, rotated and revoked; the rules
that hold for every one (an administrator's own account is another's to change; a role of
supervisor, compliance or administrator, and a reset, take a second administrator); every change
kept, and in the ledger once final."""

from datetime import timedelta

import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError

from accounts.models import ApiToken
from accounts.roles import ADMINISTRATOR, COMPLIANCE, CUSTOMER_SERVICE, GAME_SERVER, SUPERVISOR
from accounts.services import token_create
from core.refusals import OwnDecisionRefused, TransitionRefused
from ledger.models import LedgerEntry
from ledger.verify import ledger_verify
from staff import services
from staff.models import AccountChange, ChangeKind, ChangeStatus
from tests import factories
from tests.staff.account_support import admin, api_status, fresh, reason_of, sessions_of, signed_in

pytestmark = pytest.mark.django_db


def roles(user) -> list[str]:
    return sorted(fresh(user).groups.values_list("name", flat=True))


def ledgered(change) -> bool:
    return LedgerEntry.objects.filter(chain="account_change", source_pk=change.pk).exists()


def create(actor, username="new-user", role=CUSTOMER_SERVICE, **kwargs):
    return services.account_create(
        actor=actor, username=username, role=role, reason=kwargs.pop("reason", "joins the team"), **kwargs
    )


# --- making an account ---------------------------------------------------------------------------------


def test_a_customer_service_account_is_active_at_once_with_a_first_password_shown_once():
    created = create(admin(), "cara", email="cara@example.com")
    user = fresh(created.user)
    assert user.is_active and roles(user) == [CUSTOMER_SERVICE]
    assert len(created.password) >= 20 and user.check_password(created.password)
    assert created.password not in user.password  # kept hashed, as any password
    change = created.change
    assert (change.kind, change.status, change.role) == (
        ChangeKind.CREATED,
        ChangeStatus.APPLIED,
        CUSTOMER_SERVICE,
    )
    assert change.requested_by == admin() and change.reason == "joins the team" and ledgered(change)


def test_a_game_server_account_gets_no_password():
    created = create(admin(), "studio-a", role=GAME_SERVER)
    assert created.password is None and not fresh(created.user).has_usable_password()
    assert roles(created.user) == [GAME_SERVER] and fresh(created.user).is_active


@pytest.mark.parametrize("role", [SUPERVISOR, COMPLIANCE, ADMINISTRATOR])
def test_a_role_granted_by_two_waits_inactive_and_with_no_role_until_a_second_administrator_approves(role):
    created = create(admin("admin-a"), "sam", role=role)
    assert not fresh(created.user).is_active and roles(created.user) == []
    assert created.change.status == ChangeStatus.PENDING and not ledgered(created.change)
    assert created.password  # shown now; the account signs in once approved

    with pytest.raises(OwnDecisionRefused, match="You asked for this change"):
        services.change_approve(actor=admin("admin-a"), change=created.change)
    assert not fresh(created.user).is_active

    approved = services.change_approve(actor=admin("admin-b"), change=created.change, note="checked with HR")
    assert approved.status == ChangeStatus.APPROVED and approved.decided_by == admin("admin-b")
    assert approved.decision_note == "checked with HR" and approved.decided_at is not None
    assert fresh(created.user).is_active and roles(created.user) == [role] and ledgered(approved)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"username": ""}, "username"),
        ({"username": "no spaces allowed"}, "username"),
        ({"username": "x" * 151}, "username"),
        ({"username": "ADMIN-A"}, "username"),  # taken, whatever the case
        ({"email": "not-an-address"}, "email"),
        ({"role": "Dealer"}, "role"),
        ({"reason": "  "}, "reason"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_nothing_is_stored(fields, field):
    actor = admin()
    users, changes = get_user_model().objects.count(), AccountChange.objects.count()
    with pytest.raises(ValidationError) as refused:
        create(actor, **{"username": "ok-name", **fields})
    assert field in refused.value.message_dict
    assert get_user_model().objects.count() == users and AccountChange.objects.count() == changes


def test_only_an_administrator_makes_changes():
    for role in ("supervisor", "compliance", "customer_service", "game_server"):
        with pytest.raises(PermissionDenied):
            create(factories.user(role), f"by-{role}")
    assert not AccountChange.objects.exists()


# --- one's own account -----------------------------------------------------------------------------------


def test_an_administrator_changes_nothing_of_their_own_account():
    me = admin()
    _, key = token_create(user=me)
    attempts = [
        lambda: services.role_give(actor=me, user=me, role=CUSTOMER_SERVICE, reason="r"),
        lambda: services.deactivate(actor=me, user=me, reason="r"),
        lambda: services.second_factor_reset(actor=me, user=me, reason="r"),
        lambda: services.token_issue(actor=me, user=me, reason="r"),
        lambda: services.token_rotate(actor=me, user=me, grace=timedelta(0), reason="r"),
        lambda: services.token_revoke(actor=me, token=ApiToken.objects.get(user=me), reason="r"),
    ]
    for attempt in attempts:
        with pytest.raises(services.OwnAccountRefused) as refused:
            attempt()
        assert "your own account" in reason_of(refused.value, "user")
        assert refused.value.status_code == 403
    assert not AccountChange.objects.exists() and roles(me) == [ADMINISTRATOR]
    assert ApiToken.objects.get(user=me).revoked_at is None


def test_the_user_of_a_change_does_not_decide_it_nor_does_its_requester_a_third_administrator_does():
    a, b, c = admin("admin-a"), admin("admin-b"), admin("admin-c")
    change = services.second_factor_reset(actor=a, user=b, reason="lost phone")
    with pytest.raises(services.OwnAccountRefused, match="your own account"):
        services.change_approve(actor=b, change=change)
    with pytest.raises(OwnDecisionRefused, match="You asked for this change"):
        services.change_reject(actor=a, change=change, note="no")
    assert services.changes_awaiting(a).count() == 0 and services.changes_awaiting(b).count() == 0
    assert list(services.changes_awaiting(c)) == [change]
    services.change_approve(actor=c, change=change)
    assert not Authenticator.objects.filter(user=b).exists()


def test_a_change_is_decided_once():
    change = create(admin("admin-a"), "sup", role=SUPERVISOR).change
    services.change_reject(actor=admin("admin-b"), change=change, note="not hired after all")
    with pytest.raises(TransitionRefused, match="rejected by admin-b already"):
        services.change_approve(actor=admin("admin-c"), change=change)
    stored = AccountChange.objects.get(pk=change.pk)
    assert stored.status == ChangeStatus.REJECTED and stored.decision_note == "not hired after all"
    assert not fresh(change.user).is_active and roles(change.user) == [] and ledgered(stored)


def test_a_rejection_says_why():
    change = create(admin("admin-a"), "sup", role=SUPERVISOR).change
    with pytest.raises(ValidationError) as refused:
        services.change_reject(actor=admin("admin-b"), change=change, note=" ")
    assert "note" in refused.value.message_dict
    assert AccountChange.objects.get(pk=change.pk).status == ChangeStatus.PENDING


def test_only_its_requester_withdraws_a_change():
    change = create(admin("admin-a"), "sup", role=COMPLIANCE).change
    with pytest.raises(OwnDecisionRefused, match="Only admin-a withdraws"):
        services.change_withdraw(actor=admin("admin-b"), change=change)
    withdrawn = services.change_withdraw(actor=admin("admin-a"), change=change, note="wrong person")
    assert withdrawn.status == ChangeStatus.WITHDRAWN and ledgered(withdrawn)
    assert not fresh(change.user).is_active


def test_a_supervisor_decides_no_account_change():
    change = create(admin("admin-a"), "sup", role=SUPERVISOR).change
    with pytest.raises(PermissionDenied):
        services.change_approve(actor=factories.user("supervisor"), change=change)
    with pytest.raises(PermissionDenied):
        services.change_approve(actor=factories.user("compliance"), change=change)
    assert services.changes_awaiting(factories.user("compliance")).count() == 0


# --- roles -----------------------------------------------------------------------------------------------


def test_a_role_replaces_the_old_one_at_once_and_signs_the_user_out():
    user = factories.user("customer_service", "cara")
    browser = signed_in(user)
    change = services.role_give(actor=admin(), user=user, role=GAME_SERVER, reason="now a studio's account")
    assert change.status == ChangeStatus.APPLIED and ledgered(change)
    assert roles(user) == [GAME_SERVER] and sessions_of(user) == 0
    assert browser.get("/").status_code == 302


def test_a_role_granted_by_two_waits_and_then_replaces_the_old_one():
    user = factories.user("customer_service", "cara")
    change = services.role_give(actor=admin("admin-a"), user=user, role=ADMINISTRATOR, reason="joins IT")
    assert change.status == ChangeStatus.PENDING and roles(user) == [CUSTOMER_SERVICE]
    services.change_approve(actor=admin("admin-b"), change=change)
    assert roles(user) == [ADMINISTRATOR]  # the one role: an administrator holds no other


def test_the_same_role_twice_and_a_second_pending_change_are_refused():
    user = factories.user("customer_service", "cara")
    with pytest.raises(ValidationError) as same:
        services.role_give(actor=admin(), user=user, role=CUSTOMER_SERVICE, reason="r")
    assert "holds the role Customer service already" in reason_of(same.value, "role")
    services.role_give(actor=admin(), user=user, role=SUPERVISOR, reason="promoted")
    with pytest.raises(TransitionRefused, match="awaits a second administrator already"):
        services.role_give(actor=admin("admin-b"), user=user, role=COMPLIANCE, reason="r")
    assert AccountChange.objects.filter(user=user).count() == 1


def test_a_single_sign_on_users_role_is_the_providers():
    user = factories.user("supervisor", "sso-ana")
    user.socialaccount_set.create(provider="sso", uid="ana")
    with pytest.raises(ValidationError) as refused:
        services.role_give(actor=admin(), user=user, role=CUSTOMER_SERVICE, reason="r")
    assert "single sign-on" in reason_of(refused.value, "role") and "provider's groups" in reason_of(
        refused.value, "role"
    )
    assert roles(user) == [SUPERVISOR] and not AccountChange.objects.exists()


# --- deactivating and reactivating -----------------------------------------------------------------------


def test_deactivation_ends_the_sessions_revokes_the_tokens_and_withdraws_what_waits():
    user = factories.user("customer_service", "cara")
    browser = signed_in(user)
    token, key = token_create(user=user)
    waiting = services.role_give(actor=admin("admin-b"), user=user, role=SUPERVISOR, reason="promote")
    change = services.deactivate(actor=admin("admin-a"), user=user, reason="left the company")
    assert not fresh(user).is_active and sessions_of(user) == 0 and browser.get("/").status_code == 302
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    waiting.refresh_from_db()
    assert waiting.status == ChangeStatus.WITHDRAWN and f"change {change.pk}" in waiting.decision_note
    assert ledgered(change) and ledgered(waiting)
    with pytest.raises(ValidationError, match="deactivated already"):
        services.deactivate(actor=admin("admin-a"), user=user, reason="again")


def test_reactivation_waits_for_a_second_administrator_for_a_role_granted_by_two():
    cara = factories.user("customer_service", "cara")
    sam = factories.user("supervisor", "sam")
    for user in (cara, sam):
        services.deactivate(actor=admin(), user=user, reason="on leave")
    assert services.reactivate(actor=admin(), user=cara, reason="back").status == ChangeStatus.APPLIED
    assert fresh(cara).is_active
    waiting = services.reactivate(actor=admin("admin-a"), user=sam, reason="back")
    assert waiting.status == ChangeStatus.PENDING and not fresh(sam).is_active
    services.change_approve(actor=admin("admin-b"), change=waiting)
    assert fresh(sam).is_active and roles(sam) == [SUPERVISOR]


# --- the second factor -----------------------------------------------------------------------------------


def test_a_reset_waits_then_deletes_the_authenticators_and_ends_the_sessions():
    sam = factories.user("supervisor", "sam")
    browser = signed_in(sam)
    change = services.second_factor_reset(actor=admin("admin-a"), user=sam, reason="lost phone")
    assert change.status == ChangeStatus.PENDING and Authenticator.objects.filter(user=sam).exists()
    assert sessions_of(sam) == 1
    services.change_approve(actor=admin("admin-b"), change=change)
    assert not Authenticator.objects.filter(user=sam).exists() and sessions_of(sam) == 0
    assert browser.get("/").status_code == 302
    again = signed_in(sam)  # at the next sign-in: enrol first
    assert again.get("/")["Location"] == "/accounts/2fa/totp/activate/"
    with pytest.raises(ValidationError, match="no second factor to reset"):
        services.second_factor_reset(actor=admin("admin-a"), user=sam, reason="again")


# --- tokens ----------------------------------------------------------------------------------------------


@pytest.fixture
def studio():
    factories.table("DLX1")
    factories.player("P1001")
    return factories.user("game_server", "studio-a")


def test_a_game_servers_token_issued_works_and_revoked_is_refused(studio):
    issued = services.token_issue(actor=admin(), user=studio, name="studio A", reason="new server")
    assert issued.change.kind == ChangeKind.TOKEN_ISSUED and issued.change.token == issued.token
    assert issued.key not in str(ApiToken.objects.filter(pk=issued.token.pk).values().get())
    assert api_status(issued.key) == 200
    revoked = services.token_revoke(actor=admin(), token=issued.token, reason="server retired")
    assert revoked.kind == ChangeKind.TOKEN_REVOKED and ledgered(revoked)
    assert api_status(issued.key) == 401
    with pytest.raises(ValidationError) as again:
        services.token_revoke(actor=admin(), token=issued.token, reason="again")
    assert "revoked already" in reason_of(again.value, "token")


def test_a_rotation_gives_a_new_key_and_the_old_one_stops_after_the_grace(studio):
    old = services.token_issue(actor=admin(), user=studio, reason="first")
    rotated = services.token_rotate(actor=admin(), user=studio, grace=timedelta(0), reason="yearly")
    assert rotated.change.kind == ChangeKind.TOKEN_ROTATED and rotated.key != old.key
    assert api_status(rotated.key) == 200 and api_status(old.key) == 401
    with pytest.raises(ValidationError) as negative:
        services.token_rotate(actor=admin(), user=studio, grace=timedelta(hours=-1), reason="r")
    assert "grace" in negative.value.message_dict


@pytest.mark.parametrize("role", ["supervisor", "compliance", "customer_service", "administrator"])
def test_no_token_is_issued_to_a_member_of_staff(role):
    member = factories.user(role, f"staff-{role}")
    for attempt in (
        lambda: services.token_issue(actor=admin(), user=member, reason="r"),
        lambda: services.token_rotate(actor=admin(), user=member, grace=timedelta(0), reason="r"),
    ):
        with pytest.raises(ValidationError) as refused:
            attempt()
        assert "could act as them" in reason_of(refused.value, "user")
    assert not ApiToken.objects.filter(user=member).exists() and not AccountChange.objects.exists()


def test_a_member_of_staffs_token_is_revoked_by_an_administrator():
    sam = factories.user("supervisor", "sam")
    token, _ = token_create(user=sam)
    services.token_revoke(actor=admin(), token=token, reason="left on a shared laptop")
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None


# --- the ledger ------------------------------------------------------------------------------------------


def test_every_final_change_is_in_the_ledger_and_verifies_and_a_change_behind_it_is_found(studio):
    a, b = admin("admin-a"), admin("admin-b")
    created = create(a, "sam", role=SUPERVISOR)
    services.change_approve(actor=b, change=created.change)
    services.token_issue(actor=a, user=studio, reason="server")
    pending = services.role_give(
        actor=a, user=factories.user("customer_service"), role=COMPLIANCE, reason="r"
    )
    assert ledger_verify(kinds=["account_change"]) == []
    final = AccountChange.objects.exclude(pk=pending.pk)
    assert LedgerEntry.objects.filter(chain="account_change").count() == final.count() == 2
    assert not ledgered(pending)  # in the chain once decided

    AccountChange.objects.filter(pk=created.change.pk).update(reason="edited behind the application")
    problems = ledger_verify(kinds=["account_change"])
    assert [problem.source_pk for problem in problems] == [created.change.pk]
