"""The API's token authentication: `Authorization: Token <key>`, as DRF's TokenAuthentication reads
it, checked against the digests of live ApiTokens (accounts/models.py)."""

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from .models import ApiToken, key_digest
from .token_lifetime import token_refusal

# A token's last use is written when the one recorded is older than this: one UPDATE a minute per
# token at most, not one a request on the ingest path.
LAST_USED_EVERY = timedelta(minutes=1)


class ApiTokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and answers (401 with `WWW-Authenticate: Token`); `request.auth` is
    the ApiToken."""

    def authenticate_credentials(self, key):
        now = timezone.now()
        try:
            token = ApiToken.objects.select_related("user").get(digest=key_digest(key))
        except ApiToken.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        refusal = token_refusal(token, now)  # revoked, or past its end (accounts/token_lifetime.py)
        if refusal is not None:
            raise exceptions.AuthenticationFailed(refusal)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if token.last_used_at is None or token.last_used_at <= now - LAST_USED_EVERY:
            token_used(token, now)
        return (token.user, token)


def token_used(token: ApiToken, now) -> None:
    # Conditional, so that of two workers seeing the same stale time only one writes it.
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - LAST_USED_EVERY)
    ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
