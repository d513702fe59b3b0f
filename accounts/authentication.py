"""The API's token authentication: `Authorization: Token <key>`, as DRF's TokenAuthentication reads
it, checked against the digests of live ApiTokens (accounts/models.py)."""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from core.gaming_day import gaming_day_of

from .models import UNKNOWN_ADDRESS, ApiToken, TokenUse, key_digest
from .sign_in import client_address
from .sign_in_record import stored_address
from .token_lifetime import token_refusal

# A token's last use is written when the one recorded is older than this: one UPDATE a minute per
# token at most, not one a request on the ingest path. Its use by day (TokenUse) is written with it.
LAST_USED_EVERY = timedelta(minutes=1)


class ApiTokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and answers (401 with `WWW-Authenticate: Token`); `request.auth` is
    the ApiToken."""

    def authenticate(self, request):
        answer = super().authenticate(request)
        if answer is not None:
            token, now = answer[1], timezone.now()
            if token.last_used_at is None or token.last_used_at <= now - LAST_USED_EVERY:
                token_used(token, now, client_address(request))
        return answer

    def authenticate_credentials(self, key):
        try:
            token = ApiToken.objects.select_related("user").get(digest=key_digest(key))
        except ApiToken.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        refusal = token_refusal(
            token, timezone.now()
        )  # revoked, or past its end (accounts/token_lifetime.py)
        if refusal is not None:
            raise exceptions.AuthenticationFailed(refusal)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)


def token_used(token: ApiToken, now, address: str | None = None) -> None:
    """The token's last use, and its use that gaming day from `address`: written by the one request
    (of any process) that finds the recorded last use stale, so at most once a minute a token."""
    # Conditional, so that of two workers seeing the same stale time only one writes it.
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - LAST_USED_EVERY)
    written = ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
    if written:
        token_use_add(token, now, stored_address(address) or UNKNOWN_ADDRESS)


def token_use_add(token: ApiToken, now, address: str) -> None:
    """One more minute of `token` from `address` on the gaming day of `now`: the day's row gains it,
    or is made (the unique constraint settles two processes making it at once: the second adds)."""
    day = gaming_day_of(now)
    row = TokenUse.objects.filter(token=token, day=day, address=address)
    if row.update(last_at=now, minutes=F("minutes") + 1):
        return
    try:
        with transaction.atomic():
            TokenUse.objects.create(token=token, day=day, address=address, first_at=now, last_at=now)
    except IntegrityError:
        row.update(last_at=now, minutes=F("minutes") + 1)
