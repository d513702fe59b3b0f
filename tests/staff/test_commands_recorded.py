"""The account commands run on the server (create_user, token_rotate, token_revoke) keep their changes
as the portal's are: in the record of account changes, with no administrator (a command), and in the
ledger's account_change chain."""

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import ApiToken
from ledger.models import LedgerEntry
from staff.models import AccountChange, ChangeKind, ChangeStatus

pytestmark = pytest.mark.django_db


def run(*arguments: str) -> str:
    out = StringIO()
    call_command(*arguments, stdout=out)
    return out.getvalue()


def changes(username: str) -> list[tuple]:
    return list(
        AccountChange.objects.filter(user__username=username)
        .order_by("pk")
        .values_list("kind", "role", "status", "requested_by", "reason")
    )


def test_the_first_administrator_made_on_the_server_is_recorded():
    run("create_user", "alex", "--role", "administrator", "--reason", "First administrator, ticket IT-7")
    assert changes("alex") == [
        (ChangeKind.CREATED, "Administrator", ChangeStatus.APPLIED, None, "First administrator, ticket IT-7")
    ]
    (change,) = AccountChange.objects.filter(user__username="alex")
    assert LedgerEntry.objects.filter(chain="account_change", source_pk=change.pk).count() == 1


def test_a_game_servers_token_rotated_and_revoked_on_the_server_is_recorded_each_time():
    run("create_user", "gs9", "--role", "game_server")
    run("token_rotate", "gs9", "--grace", "0", "--reason", "Studio B moved")
    run("token_revoke", "gs9", "--reason", "Studio B closed")
    kinds = [(kind, status, requested_by) for kind, _, status, requested_by, _ in changes("gs9")]
    applied = ChangeStatus.APPLIED
    assert kinds == [
        (ChangeKind.CREATED, applied, None),
        (ChangeKind.TOKEN_ISSUED, applied, None),
        (ChangeKind.TOKEN_ROTATED, applied, None),
        # Both tokens: the first had expired at the rotation (grace 0) but was not revoked yet.
        (ChangeKind.TOKEN_REVOKED, applied, None),
        (ChangeKind.TOKEN_REVOKED, applied, None),
    ]
    tokens = ApiToken.objects.filter(user__username="gs9").order_by("pk")
    revoked = AccountChange.objects.filter(user__username="gs9", kind=ChangeKind.TOKEN_REVOKED).order_by("pk")
    assert [change.token for change in revoked] == list(tokens)
    assert all(token.revoked_at is not None for token in tokens)
    assert LedgerEntry.objects.filter(chain="account_change").count() == 5
