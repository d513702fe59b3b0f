"""How django-allauth's sign-in pages behave here (ACCOUNT_ADAPTER, MFA_ADAPTER): nobody signs
themself up, addresses are read as the sign-in throttling reads them, and a user whose role needs a
second factor cannot switch theirs off. With PITBOSS_OIDC_ONLY, only administrators sign in with a
password (accounts/break_glass.py)."""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.mfa.adapter import DefaultMFAAdapter
from allauth.mfa.models import Authenticator
from django.core.exceptions import ValidationError

from .break_glass import password_refusal
from .current_request import current_request
from .second_factor import code_age_seconds, has_totp, required_for
from .sign_in import client_address
from .sign_in_record import password_refused

MANAGE_WITHIN_SECONDS = 300  # seconds: a code checked this lately lets one see or regenerate recovery codes


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request) -> bool:
        return False  # accounts are made by administrators (or at a first single sign-on)

    def authenticate(self, request, **credentials):
        """A right password that PITBOSS_OIDC_ONLY refuses: the sign-in form says so, naming the
        provider (only to who typed the right one: a wrong one reads as any other)."""
        user = super().authenticate(request, **credentials)
        refusal = password_refusal(user) if user is not None else None
        if refusal is not None:
            password_refused(request, user, "password sign-in off: single sign-on only")
            raise ValidationError(refusal, code="single_sign_on_only")
        return user

    def get_client_ip(self, request) -> str:
        return client_address(request) or ""

    def is_reauthentication_required(self, *, app: str, **kwargs) -> bool:
        """A first authenticator is set up right after signing in, without the password again (a
        single sign-on user has none), and its recovery codes shown; later, seeing or regenerating
        them asks for a code, unless one was checked within the last MANAGE_WITHIN_SECONDS."""
        request = current_request()
        if app == "allauth.mfa" and request is not None and request.user.is_authenticated:
            age = code_age_seconds(request)
            if (age is not None and age <= MANAGE_WITHIN_SECONDS) or not has_totp(request.user):
                return False
        return super().is_reauthentication_required(app=app, **kwargs)


class MFAAdapter(DefaultMFAAdapter):
    def can_delete_authenticator(self, authenticator: Authenticator) -> bool:
        if authenticator.type == Authenticator.Type.TOTP and required_for(authenticator.user):
            return False
        return super().can_delete_authenticator(authenticator)
