"""The code forms of django-allauth's second-factor pages (MFA_FORMS), counted like passwords.

Each code typed takes its turn as a password does (accounts/guesses.py: the account's growing wait,
the address's lock) before it is checked, and a wrong one is also a failed sign-in for django-axes
(Django's user_login_failed signal, which django-axes counts per username and address). A right one
gives its turn back (accounts.guesses.sign_in_succeeded). Codes take their turns under a name of their
own (accounts.guesses.codes_of), so wrong passwords from elsewhere never hold up the real user's code;
and from any address: the exemption of a username's known addresses is for passwords only, since the
password may be what a guesser of codes already has.
"""

from allauth.account.signals import authentication_step_completed
from allauth.mfa.adapter import get_adapter as get_mfa_adapter
from allauth.mfa.base.forms import AuthenticateForm as AllauthAuthenticateForm
from allauth.mfa.base.forms import ReauthenticateForm as AllauthReauthenticateForm
from allauth.mfa.signals import authentication_failed
from allauth.mfa.totp.forms import ActivateTOTPForm as AllauthActivateTOTPForm
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.utils import timezone

from .current_request import current_request
from .guesses import TURN_ATTRIBUTE, codes_of, sign_in_succeeded, turn_forgive, turn_take
from .second_factor import TOTP, code_checked, second_factor_remember
from .sign_in import client_address


class TurnTaking:
    """Before the code is checked: the attempt's turn (SignInRefused if it must wait: answered by
    accounts.sign_in.SignInRefusals)."""

    def clean_code(self):
        request = current_request()
        if request is not None:
            codes, address = codes_of(self.user.get_username()), client_address(request)
            turn = turn_take(codes, address, timezone.now(), known_exempt=False)
            setattr(request, TURN_ATTRIBUTE, turn)
        return super().clean_code()


class AuthenticateForm(TurnTaking, AllauthAuthenticateForm):
    pass


class ReauthenticateForm(TurnTaking, AllauthReauthenticateForm):
    pass


class ActivateTOTPForm(AllauthActivateTOTPForm):
    """Enrolment: the code that proves the new authenticator is also the session's code checked."""

    def clean_code(self):
        code = super().clean_code()
        request = current_request()
        if request is not None:
            second_factor_remember(request, self.user, TOTP)
            code_checked(request, self.user)
        return code


def code_valid(request, user, code: str) -> bool:
    """Whether `code` is one of `user`'s (TOTP or an unused recovery code), checked as on the page
    that asks again for a code: its turn taken, used once, counted when wrong. Nothing is kept in a
    session (the API's Pitboss-Code header)."""
    form = ReauthenticateForm(user=user, data={"code": code})
    return form.is_valid()


def failure_counted(sender, request, user, **kwargs) -> None:
    """allauth's authentication_failed (a wrong code): a failed sign-in for django-axes."""
    username_field = get_user_model().USERNAME_FIELD
    user_login_failed.send(
        sender=__name__,
        credentials={username_field: user.get_username()},
        request=request,
    )


def step_completed(sender, request, user, method, **kwargs) -> None:
    """allauth's authentication_step_completed. A right password before a second factor is no wrong
    guess, nor yet a sign-in (its address becomes a known one only when the code is right, at
    user_logged_in); a right code asked for again gives its turn back."""
    if method == "password" and get_mfa_adapter().is_mfa_enabled(user):
        turn_forgive(request)
    elif method == "mfa":
        sign_in_succeeded(sender, request, user)


def connect() -> None:
    authentication_failed.connect(failure_counted, dispatch_uid="accounts_second_factor_failure_counted")
    authentication_step_completed.connect(step_completed, dispatch_uid="accounts_second_factor_turns")
