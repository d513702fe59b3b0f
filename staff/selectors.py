"""What the administrators' pages read: the accounts with what their list shows of each."""

from allauth.mfa.models import Authenticator
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce

from .models import AccountChange, ChangeStatus


def users_listed():
    """Every account, with its role (its one group), whether it has a TOTP second factor, signs in
    through single sign-on (allauth's SocialAccount), and how many of its changes await a decision:
    each a subquery, so a page of 50 is one query."""
    social_account = apps.get_model("socialaccount", "SocialAccount")
    pending = AccountChange.objects.filter(user=OuterRef("pk"), status=ChangeStatus.PENDING)
    pending_count = pending.order_by().values("user").annotate(count=Count("pk")).values("count")
    return get_user_model().objects.annotate(
        role=Subquery(Group.objects.filter(user=OuterRef("pk")).order_by("name").values("name")[:1]),
        second_factor=Exists(Authenticator.objects.filter(user=OuterRef("pk"), type=Authenticator.Type.TOTP)),
        single_sign_on=Exists(social_account.objects.filter(user=OuterRef("pk"))),
        pending=Coalesce(Subquery(pending_count), 0),
        has_pending=Exists(pending),
    )
