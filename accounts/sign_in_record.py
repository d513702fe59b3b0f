"""The sign-in record (SignInEvent): every sign-in, failure, lockout and wrong second-factor code, each
written once, from the signals of the sign-in's own steps (connected in AccountsConfig.ready):

- success: django-allauth's user_logged_in, sent once a sign-in is complete (after the code, with a
  second factor), with `sociallogin` when it came through the provider; never for a sign-in not
  made on the pages (a test's force_login). An administrator's with a password while a provider is
  configured is flagged break-glass (accounts/break_glass.py) for compliance to review;
- failure: Django's user_login_failed, sent for a wrong password (by authenticate()) and for a
  refused single sign-on (accounts/single_sign_on.py); a password sign-in that PITBOSS_OIDC_ONLY
  refuses is written by the sign-in form (accounts.sign_in_pages.AccountAdapter);
- lockout: django-axes's user_locked_out (a username locked at an address, and each attempt it
  refuses meanwhile, which Django also reports as a failure: written once, as the lockout), and
  guesses.sign_in_refused (an address locked, a username's wait not over: accounts/sign_in.py);
- second_factor_failure: django-allauth's mfa authentication_failed (a wrong code, at sign-in or
  asked again), which accounts/second_factor_forms.py also reports to Django as a failure: written
  once, as this.
"""

import ipaddress
from datetime import date

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from core.gaming_day import gaming_day_of
from core.refusals import OwnDecisionRefused, TransitionRefused

from .break_glass import is_break_glass, provider_answers
from .guesses import TURN_ATTRIBUTE, SignInRefused, codes_of
from .models import SignInEvent, TokenUse
from .second_factor import PROVIDER_SECOND_FACTOR
from .sign_in import client_address

Kind = SignInEvent.Kind
Method = SignInEvent.Method

# Set on a request by a refused single sign-on (accounts/single_sign_on.py) before it reports the
# failure: why it was refused.
REFUSAL_DETAIL = "pitboss_sign_in_refusal"
# Set on a request whose attempt django-axes reported as locked out (written as the lockout).
LOCKOUT_RECORDED = "pitboss_lockout_recorded"
# Set on the request whose code was right at sign-in: what it was (totp, recovery_codes).
CODE_TYPE = "pitboss_code_type"
# The session's first step (password or single sign-on), for a wrong code after it.
FIRST_STEP = "pitboss_first_step"
FIRST_STEPS = {"password": Method.PASSWORD, "socialaccount": Method.SINGLE_SIGN_ON}
SECOND_FACTOR_SENDER = "accounts.second_factor_forms"
SINGLE_SIGN_ON_SENDER = "accounts.single_sign_on"
CODES_SUFFIX = codes_of("")
NOTE_LENGTH = 2000
DETAIL_LENGTH = SignInEvent._meta.get_field("detail").max_length


def stored_address(text: str | None) -> str | None:
    """An address as stored: None for anything that is not an IP address."""
    try:
        return str(ipaddress.ip_address(text)) if text else None
    except ValueError:
        return None


def record(kind: str, request, username: str, user=None, **fields) -> SignInEvent:
    now = timezone.now()
    address = stored_address(client_address(request)) if request is not None else None
    fields["detail"] = fields.get("detail", "")[:DETAIL_LENGTH]
    return SignInEvent.objects.create(
        at=now,
        day=gaming_day_of(now),
        kind=kind,
        username=(username or "")[:255],
        user=user,
        address=address,
        **fields,
    )


def signed_in(sender, request, user, sociallogin=None, **kwargs) -> None:
    """allauth's user_logged_in: a sign-in, complete."""
    through_provider = sociallogin is not None
    if getattr(request, PROVIDER_SECOND_FACTOR, False):
        second_factor = SignInEvent.SecondFactor.PROVIDER
    else:
        second_factor = getattr(request, CODE_TYPE, "")
    break_glass = is_break_glass(user, through_provider=through_provider)
    record(
        Kind.SUCCESS,
        request,
        user.get_username(),
        user,
        method=Method.SINGLE_SIGN_ON if through_provider else Method.PASSWORD,
        second_factor=second_factor,
        break_glass=break_glass,
        provider_answered=provider_answers() if break_glass else None,
    )


def failed(sender, credentials, request=None, **kwargs) -> None:
    """Django's user_login_failed."""
    if request is None or sender == SECOND_FACTOR_SENDER:
        return  # a wrong code is written from allauth's own signal (code_failed)
    username = str((credentials or {}).get(get_user_model().USERNAME_FIELD) or "")
    if sender == SINGLE_SIGN_ON_SENDER:
        detail = getattr(request, REFUSAL_DETAIL, "") or "refused by the provider"
        record(Kind.FAILURE, request, username, method=Method.SINGLE_SIGN_ON, detail=detail)
        return
    if getattr(request, LOCKOUT_RECORDED, False) and getattr(request, TURN_ATTRIBUTE, None) is None:
        return  # django-axes refused it before its password was checked: written as the lockout
    user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: username}).first()
    if user is None:
        detail = "unknown username"
    elif not user.is_active:
        detail = "account deactivated"
    else:
        detail = "wrong password"
    record(Kind.FAILURE, request, username, user, method=Method.PASSWORD, detail=detail)


def password_refused(request, user, reason: str) -> None:
    """A right password that PITBOSS_OIDC_ONLY refuses (accounts.sign_in_pages)."""
    record(Kind.FAILURE, request, user.get_username(), user, method=Method.PASSWORD, detail=reason)


def locked_out(sender, request, username=None, ip_address=None, **kwargs) -> None:
    """django-axes's user_locked_out: the attempt that locked the username at its address (its
    password or code was checked: it took its turn, or the provider refused it), or one refused
    while it is locked."""
    if request is None:
        return
    checked = getattr(request, TURN_ATTRIBUTE, None) is not None or hasattr(request, REFUSAL_DETAIL)
    limit = settings.AXES_FAILURE_LIMIT
    detail = (
        f"username locked at this address after {limit} failures"
        if checked
        else "refused: username locked at this address"
    )
    setattr(request, LOCKOUT_RECORDED, True)
    record(Kind.LOCKOUT, request, str(username or ""), method=_first_step(request), detail=detail)


def refused(sender, request, refused: SignInRefused, **kwargs) -> None:
    """guesses.sign_in_refused: an attempt held up before its password or code was checked."""
    username = refused.username
    code = username.endswith(CODES_SUFFIX)
    what = "code" if code else "password"
    if refused.reason == "address":
        detail = f"address locked, {refused.retry_after} s more ({what} not checked)"
    else:
        detail = f"delayed {refused.retry_after} s: the username's wait ({what} not checked)"
    record(
        Kind.LOCKOUT,
        request,
        username.removesuffix(CODES_SUFFIX),
        method=_first_step(request) if code else Method.PASSWORD,
        detail=detail,
    )


def code_failed(sender, request, user, reauthentication=False, **kwargs) -> None:
    """allauth's mfa authentication_failed: a wrong code (TOTP or recovery code)."""
    detail = "wrong code, asked again" if reauthentication else "wrong code at sign-in"
    record(
        Kind.SECOND_FACTOR_FAILURE,
        request,
        user.get_username(),
        user,
        method=_first_step(request),
        detail=detail,
    )


def code_used(sender, request, user, authenticator, reauthenticated=False, **kwargs) -> None:
    """allauth's mfa authenticator_used: at sign-in, what the code was, for the success that follows."""
    if request is not None and not reauthenticated:
        setattr(request, CODE_TYPE, authenticator.type)


def step_completed(sender, request, user, method, **kwargs) -> None:
    """allauth's authentication_step_completed: the first step, kept for a wrong code after it."""
    if method in FIRST_STEPS and hasattr(request, "session"):
        request.session[FIRST_STEP] = method


def _first_step(request) -> str:
    session = getattr(request, "session", None)
    return FIRST_STEPS.get(session.get(FIRST_STEP) if session is not None else None, "")


def break_glass_unreviewed() -> QuerySet:
    """The break-glass sign-ins compliance has not reviewed yet, the oldest first."""
    return SignInEvent.objects.filter(break_glass=True, reviewed_at__isnull=True).order_by("at", "id")


def break_glass_review(*, event: SignInEvent, by, note: str) -> SignInEvent:
    """`event` reviewed by `by` with `note`: once only, and only a break-glass sign-in of someone
    else's. Nothing is stored when refused."""
    note = (note or "").strip()
    if not note:
        raise ValidationError({"note": "Say what you found: the review is kept with its note."})
    if len(note) > NOTE_LENGTH:
        raise ValidationError({"note": f"At most {NOTE_LENGTH} characters."})
    if not event.break_glass:
        raise TransitionRefused("Only a break-glass sign-in is reviewed; this one is not.")
    if event.user_id is not None and event.user_id == by.pk:
        raise OwnDecisionRefused("Your own break-glass sign-in is reviewed by someone else.")
    now = timezone.now()
    # Conditional: of two reviews at once, one is kept.
    updated = SignInEvent.objects.filter(pk=event.pk, break_glass=True, reviewed_at__isnull=True).update(
        reviewed_by=by, reviewed_at=now, review_note=note
    )
    if not updated:
        raise TransitionRefused("This break-glass sign-in was reviewed already.")
    event.refresh_from_db()
    return event


DAY_COUNTS = {
    "successes": Q(kind=Kind.SUCCESS),
    "failures": Q(kind=Kind.FAILURE),
    "lockouts": Q(kind=Kind.LOCKOUT),
    "second_factor_failures": Q(kind=Kind.SECOND_FACTOR_FAILURE),
    "break_glass": Q(break_glass=True),
}


def sign_in_days(day_from: date | None = None, day_to: date | None = None) -> list[dict]:
    """Each gaming day from `day_from` to `day_to` (both included; None: unbounded) with an event or
    a token use, the newest first: its events counted by kind, its break-glass sign-ins, its token
    uses (`token_minutes`: minutes a token authenticated, from any address) and the distinct tokens."""
    within = Q()
    if day_from is not None:
        within &= Q(day__gte=day_from)
    if day_to is not None:
        within &= Q(day__lte=day_to)
    counts = {name: Count("pk", filter=condition) for name, condition in DAY_COUNTS.items()}
    days: dict[date, dict] = {}
    for row in SignInEvent.objects.filter(within).order_by().values("day").annotate(**counts):
        days[row["day"]] = {**row, "token_minutes": 0, "tokens": 0}
    token_rows = (
        TokenUse.objects.filter(within)
        .order_by()
        .values("day")
        .annotate(token_minutes=Sum("minutes"), tokens=Count("token", distinct=True))
    )
    for row in token_rows:
        days.setdefault(row["day"], {"day": row["day"], **dict.fromkeys(DAY_COUNTS, 0)}).update(row)
    return [days[day] for day in sorted(days, reverse=True)]


def connect() -> None:
    from allauth.account.signals import authentication_step_completed
    from allauth.account.signals import user_logged_in as allauth_logged_in
    from allauth.mfa.signals import authentication_failed, authenticator_used
    from axes.signals import user_locked_out
    from django.contrib.auth.signals import user_login_failed

    from .guesses import sign_in_refused

    allauth_logged_in.connect(signed_in, dispatch_uid="accounts_sign_in_record_success")
    user_login_failed.connect(failed, dispatch_uid="accounts_sign_in_record_failure")
    user_locked_out.connect(locked_out, dispatch_uid="accounts_sign_in_record_lockout")
    sign_in_refused.connect(refused, dispatch_uid="accounts_sign_in_record_refused")
    authentication_failed.connect(code_failed, dispatch_uid="accounts_sign_in_record_code_failed")
    authenticator_used.connect(code_used, dispatch_uid="accounts_sign_in_record_code_used")
    authentication_step_completed.connect(step_completed, dispatch_uid="accounts_sign_in_record_step")
