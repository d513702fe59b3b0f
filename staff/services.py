"""Every write of the administrators' pages (issue 54): staff accounts made, their one role given,
deactivated and reactivated, their second factor reset, game servers' API tokens issued, rotated and
revoked; and the decisions on the changes that need a second administrator.

Each change is an AccountChange kept with who asked, when and why. Giving a role of
ROLES_GRANTED_BY_TWO (by making the account, giving the role, or reactivating an account that holds
it) and resetting a second factor wait, `pending`, for another administrator's approval, and are
applied then; the rest are applied at once. An administrator never changes their own account, nor
decides a change of it or one they asked for. A change goes into the ledger when it reaches its
final state, in the transaction that puts it there.
"""

import secrets
from dataclasses import dataclass
from datetime import timedelta

from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from accounts import services as account_services
from accounts.models import ApiToken
from accounts.roles import GAME_SERVER, ROLES, ROLES_GRANTED_BY_TWO
from accounts.session_end import sessions_end
from accounts.single_sign_on import role_set
from core.refusals import OwnDecisionRefused, TransitionRefused, refused_when_taken, require_reason
from ledger.services import ledger_append

from .models import AccountChange, ChangeKind, ChangeStatus

VIEW = "staff.view_accountchange"
CHANGE = "staff.add_accountchange"  # an administrator: makes the changes
DECIDE = "staff.decide_accountchange"  # approves or rejects another administrator's
CHAIN = "account_change"
PASSWORD_BYTES = 18  # secrets.token_urlsafe: 24 characters
TOKEN_NAME_LENGTH = ApiToken._meta.get_field("name").max_length


class OwnAccountRefused(OwnDecisionRefused):
    """An administrator's own account is another administrator's to change (HTTP 403)."""


@dataclass(frozen=True)
class Created:
    user: object
    change: AccountChange
    password: str | None  # a member of staff's first password, shown once; None for a game server


@dataclass(frozen=True)
class Issued:
    change: AccountChange
    token: ApiToken
    key: str  # shown once, never stored


# --- the rules every change follows -------------------------------------------------------------------


def _administrator(actor, permission: str = CHANGE) -> None:
    if not actor.has_perm(permission):
        raise PermissionDenied("Only an administrator changes staff accounts.")


def _not_own(actor, user) -> None:
    if user.pk == actor.pk:
        raise OwnAccountRefused(
            {"user": "You cannot change your own account: another administrator does it."}
        )


def _locked(user):
    """The account read afresh and locked until the transaction ends: one change to it at a time."""
    return get_user_model().objects.select_for_update().get(pk=user.pk)


def single_sign_on(user) -> bool:
    """Whether `user` signs in through the provider (a SocialAccount of allauth's)."""
    return user.socialaccount_set.exists()


def roles_held(user) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))


def _no_pending(user, kind: str) -> None:
    waiting = AccountChange.objects.filter(user=user, kind=kind, status=ChangeStatus.PENDING).first()
    if waiting is not None:
        raise TransitionRefused(
            {
                "__all__": f"Change {waiting.pk} ({waiting.get_kind_display().lower()}) of {user} awaits "
                "a second administrator already: it is approved, rejected or withdrawn first."
            }
        )


def _recorded(*, actor, user, kind: str, reason: str, pending: bool = False, **fields) -> AccountChange:
    """The change kept; in the ledger at once unless it waits for a second administrator."""
    status = ChangeStatus.PENDING if pending else ChangeStatus.APPLIED
    with refused_when_taken(
        "__all__", f"A change of this kind of {user} awaits a second administrator already."
    ):
        change = AccountChange.objects.create(
            user=user, kind=kind, reason=reason, requested_by=actor, status=status, **fields
        )
    if not pending:
        ledger_append(CHAIN, [change])
    return change


@transaction.atomic
def command_recorded(*, user, kind: str, reason: str, **fields) -> AccountChange:
    """A change made on the server by a management command (create_user, token_rotate, token_revoke),
    kept as the portal's are and in the ledger; no administrator asked: requested_by is empty."""
    return _recorded(actor=None, user=user, kind=kind, reason=reason, **fields)


def _role_refusal(user, role: str) -> None:
    if role not in ROLES:
        raise ValidationError({"role": f"Unknown role {role!r} (one of {', '.join(ROLES)})."})
    if single_sign_on(user):
        raise ValidationError(
            {
                "role": f"{user} signs in through single sign-on: their role comes from the provider's "
                "groups at each sign-in. Change their groups there."
            }
        )


def _game_server_only(user) -> None:
    held = roles_held(user)
    if held != [GAME_SERVER]:
        what = f"a member of staff ({', '.join(held)})" if held else "an account with no role"
        raise ValidationError(
            {
                "user": f"Tokens are issued here to game-server accounts only: {user} is {what}, and an "
                "administrator who held a member of staff's key could act as them."
            }
        )
    if not user.is_active:
        raise ValidationError({"user": f"{user} is deactivated: reactivate the account first."})


# --- the changes --------------------------------------------------------------------------------------


@transaction.atomic
def account_create(*, actor, username: str, email: str = "", role: str, reason: str) -> Created:
    """A new account in `role`. Of a role of ROLES_GRANTED_BY_TWO it is made inactive, with no role,
    until a second administrator approves; of the others, active at once. A member of staff gets a
    random first password, shown once, that they change at /accounts/password/; a game server none
    (it uses tokens)."""
    _administrator(actor)
    reason = require_reason(reason)
    if role not in ROLES:
        raise ValidationError({"role": f"Unknown role {role!r} (one of {', '.join(ROLES)})."})
    User = get_user_model()
    user = User(username=username, email=email)
    user.full_clean(exclude=["password"])  # the username's characters and length, the e-mail address
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": f"The user {username} already exists."})
    password = None if role == GAME_SERVER else secrets.token_urlsafe(PASSWORD_BYTES)
    user.set_password(password)  # None: no usable password
    pending = role in ROLES_GRANTED_BY_TWO
    user.is_active = not pending
    with refused_when_taken("username", f"The user {username} already exists."):
        user.save()
    if not pending:
        role_set(user, role)
    change = _recorded(
        actor=actor, user=user, kind=ChangeKind.CREATED, reason=reason, pending=pending, role=role
    )
    return Created(user, change, password)


@transaction.atomic
def role_give(*, actor, user, role: str, reason: str) -> AccountChange:
    """`role` in place of the user's (a user holds exactly one). A role of ROLES_GRANTED_BY_TWO waits
    for a second administrator; the others are given at once (the user's sessions end and their
    tokens are revoked: accounts.session_end)."""
    _administrator(actor)
    reason = require_reason(reason)
    user = _locked(user)
    _not_own(actor, user)
    _role_refusal(user, role)
    if not user.is_active:
        raise ValidationError({"role": f"{user} is deactivated: reactivate the account first."})
    if roles_held(user) == [role]:
        raise ValidationError({"role": f"{user} holds the role {role} already."})
    _no_pending(user, ChangeKind.ROLE_GIVEN)
    pending = role in ROLES_GRANTED_BY_TWO
    if not pending:
        role_set(user, role)
    return _recorded(
        actor=actor, user=user, kind=ChangeKind.ROLE_GIVEN, reason=reason, pending=pending, role=role
    )


@transaction.atomic
def deactivate(*, actor, user, reason: str) -> AccountChange:
    """At once: the user can no longer sign in, their sessions end and their tokens are revoked
    (accounts.session_end); their changes awaiting a decision are withdrawn."""
    _administrator(actor)
    reason = require_reason(reason)
    user = _locked(user)
    _not_own(actor, user)
    if not user.is_active:
        raise ValidationError({"user": f"{user} is deactivated already."})
    user.is_active = False
    user.save(update_fields=["is_active"])
    change = _recorded(actor=actor, user=user, kind=ChangeKind.DEACTIVATED, reason=reason)
    for waiting in AccountChange.objects.filter(user=user, status=ChangeStatus.PENDING):
        _decided(
            waiting,
            ChangeStatus.WITHDRAWN,
            actor,
            f"Withdrawn: the account was deactivated (change {change.pk}).",
        )
    return change


@transaction.atomic
def reactivate(*, actor, user, reason: str) -> AccountChange:
    """The account active again, in the role it holds: of ROLES_GRANTED_BY_TWO, once a second
    administrator approves. Its tokens stay revoked."""
    _administrator(actor)
    reason = require_reason(reason)
    user = _locked(user)
    _not_own(actor, user)
    if user.is_active:
        raise ValidationError({"user": f"{user} is active already."})
    _no_pending(user, ChangeKind.CREATED)
    held = roles_held(user)
    if len(held) != 1:
        raise ValidationError(
            {"user": f"{user} holds no role (their creation was rejected): make a new account instead."}
        )
    _no_pending(user, ChangeKind.REACTIVATED)
    pending = held[0] in ROLES_GRANTED_BY_TWO
    if not pending:
        user.is_active = True
        user.save(update_fields=["is_active"])
    return _recorded(
        actor=actor, user=user, kind=ChangeKind.REACTIVATED, reason=reason, pending=pending, role=held[0]
    )


@transaction.atomic
def second_factor_reset(*, actor, user, reason: str) -> AccountChange:
    """Awaits a second administrator; applied, the user's authenticator and recovery codes are
    deleted and their sessions end: they enrol again at their next sign-in."""
    _administrator(actor)
    reason = require_reason(reason)
    user = _locked(user)
    _not_own(actor, user)
    if not Authenticator.objects.filter(user=user).exists():
        raise ValidationError({"user": f"{user} has no second factor to reset."})
    _no_pending(user, ChangeKind.SECOND_FACTOR_RESET)
    return _recorded(actor=actor, user=user, kind=ChangeKind.SECOND_FACTOR_RESET, reason=reason, pending=True)


@transaction.atomic
def token_issue(*, actor, user, name: str = "", reason: str) -> Issued:
    """A new API token of a game server's; its key is shown once."""
    _administrator(actor)
    reason = require_reason(reason)
    user = _locked(user)
    _not_own(actor, user)
    _game_server_only(user)
    name = (name or "").strip()
    if len(name) > TOKEN_NAME_LENGTH:
        raise ValidationError({"name": f"A token's name holds {TOKEN_NAME_LENGTH} characters at most."})
    token, key = account_services.token_create(user=user, name=name)
    change = _recorded(actor=actor, user=user, kind=ChangeKind.TOKEN_ISSUED, reason=reason, token=token)
    return Issued(change, token, key)


@transaction.atomic
def token_rotate(*, actor, user, grace: timedelta, reason: str) -> Issued:
    """A new token of a game server's (its key shown once); its other tokens keep working for `grace`."""
    _administrator(actor)
    reason = require_reason(reason)
    user = _locked(user)
    _not_own(actor, user)
    _game_server_only(user)
    token, key = account_services.token_rotate(user=user, grace=grace)
    change = _recorded(actor=actor, user=user, kind=ChangeKind.TOKEN_ROTATED, reason=reason, token=token)
    return Issued(change, token, key)


@transaction.atomic
def token_revoke(*, actor, token: ApiToken, reason: str) -> AccountChange:
    """Any account's token but the administrator's own: refused from now on."""
    _administrator(actor)
    reason = require_reason(reason)
    token = ApiToken.objects.select_for_update().get(pk=token.pk)
    user = _locked(token.user)
    _not_own(actor, user)
    if token.revoked_at is not None:
        raise ValidationError({"token": f"Token {token.prefix}… is revoked already."})
    account_services.tokens_revoke(ApiToken.objects.filter(pk=token.pk))
    return _recorded(actor=actor, user=user, kind=ChangeKind.TOKEN_REVOKED, reason=reason, token=token)


# --- the decisions ------------------------------------------------------------------------------------


def _decided(change: AccountChange, status: str, by, note: str) -> AccountChange:
    """The decision kept, and the change, final now, appended to the ledger."""
    change.status = status
    change.decided_by = by
    change.decided_at = timezone.now()
    change.decision_note = note
    change.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
    ledger_append(CHAIN, [change])
    return change


def _open(actor, change: AccountChange, permission: str) -> AccountChange:
    """The change read afresh under its lock, refused unless it still awaits a decision."""
    _administrator(actor, permission)
    change = AccountChange.objects.select_for_update().get(pk=change.pk)
    if change.status != ChangeStatus.PENDING:
        by = f" by {change.decided_by}" if change.decided_by_id else ""
        raise TransitionRefused(
            {
                "__all__": f"Change {change.pk} was {change.get_status_display().lower()}{by} already: "
                "it is decided once."
            }
        )
    return change


def _decidable(actor, change: AccountChange) -> AccountChange:
    change = _open(actor, change, DECIDE)
    if change.user_id == actor.pk:
        raise OwnAccountRefused(
            {"__all__": "This change is of your own account: another administrator decides it."}
        )
    if change.requested_by_id == actor.pk:
        raise OwnDecisionRefused(
            {"__all__": "You asked for this change: another administrator approves or rejects it."}
        )
    return change


def _apply(change: AccountChange) -> None:
    user = _locked(change.user)
    if change.kind == ChangeKind.SECOND_FACTOR_RESET:
        Authenticator.objects.filter(user=user).delete()
        sessions_end({user.pk})
        return
    if change.kind == ChangeKind.ROLE_GIVEN:
        _role_refusal(user, change.role)
        role_set(user, change.role)
        return
    if change.kind == ChangeKind.CREATED:
        role_set(user, change.role)
    user.is_active = True  # created, or reactivated
    user.save(update_fields=["is_active"])


@transaction.atomic
def change_approve(*, actor, change: AccountChange, note: str = "") -> AccountChange:
    """Another administrator (neither the one who asked nor the account's user) approves a pending
    change: it is applied now."""
    change = _decidable(actor, change)
    _apply(change)
    _decided(change, ChangeStatus.APPROVED, actor, (note or "").strip())
    return change


@transaction.atomic
def change_reject(*, actor, change: AccountChange, note: str) -> AccountChange:
    """Another administrator rejects a pending change, saying why: it is never applied."""
    if not note or not note.strip():
        raise ValidationError({"note": "Say why: a rejection is kept with its note."})
    change = _decidable(actor, change)
    _decided(change, ChangeStatus.REJECTED, actor, note.strip())
    return change


@transaction.atomic
def change_withdraw(*, actor, change: AccountChange, note: str = "") -> AccountChange:
    """The administrator who asked for a pending change takes it back."""
    change = _open(actor, change, CHANGE)
    if change.requested_by_id != actor.pk:
        raise OwnDecisionRefused(
            {"__all__": f"Only {change.requested_by or 'the one who asked'} withdraws this change."}
        )
    _decided(change, ChangeStatus.WITHDRAWN, actor, (note or "").strip())
    return change


def changes_awaiting(user):
    """The pending changes `user` may decide (for their home page's queue): none unless they may
    decide, never one they asked for or one of their own account."""
    if not user.is_authenticated or not user.has_perm(DECIDE):
        return AccountChange.objects.none()
    return (
        AccountChange.objects.filter(status=ChangeStatus.PENDING)
        .exclude(requested_by=user)
        .exclude(user=user)
        .select_related("user", "requested_by")
    )
