"""python manage.py token_revoke USERNAME [--prefix PREFIX]: revoke the user's API tokens (or the one
whose key starts with PREFIX, as token_list shows it); they are refused from now on. Each is kept as an
account change made by a command (staff.services.command_recorded), with --reason."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.management.arguments import user_named
from accounts.services import tokens_revoke
from staff.models import ChangeKind
from staff.services import command_recorded


class Command(BaseCommand):
    help = "Revoke a user's API tokens (all, or the one with --prefix)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--prefix", help="only the token whose key starts with this (see token_list)")
        parser.add_argument("--reason", default="Revoked on the server", help="kept with the change")

    def handle(self, *args, username, prefix, reason, **options):
        user = user_named(username)
        tokens = user.api_tokens.filter(revoked_at__isnull=True)
        tokens = tokens if prefix is None else tokens.filter(prefix=prefix)
        with transaction.atomic():
            revoked = list(tokens.select_for_update())
            count = tokens_revoke(tokens.filter(pk__in=[token.pk for token in revoked]))
            for token in revoked:
                command_recorded(user=user, kind=ChangeKind.TOKEN_REVOKED, reason=reason, token=token)
        if prefix is not None and count == 0:
            raise CommandError(f"{username} has no unrevoked token {prefix}… (see token_list).")
        self.stdout.write(f"{username}: {count} API token{'' if count == 1 else 's'} revoked")
