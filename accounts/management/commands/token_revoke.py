"""python manage.py token_revoke USERNAME [--prefix PREFIX]: revoke the user's API tokens (or the one
whose key starts with PREFIX, as token_list shows it); they are refused from now on."""

from django.core.management.base import BaseCommand, CommandError

from accounts.management.commands.token_rotate import user_named
from accounts.services import tokens_revoke


class Command(BaseCommand):
    help = "Revoke a user's API tokens (all, or the one with --prefix)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--prefix", help="only the token whose key starts with this (see token_list)")

    def handle(self, *args, username, prefix, **options):
        tokens = user_named(username).api_tokens.all()
        count = tokens_revoke(tokens if prefix is None else tokens.filter(prefix=prefix))
        if prefix is not None and count == 0:
            raise CommandError(f"{username} has no unrevoked token {prefix}… (see token_list).")
        self.stdout.write(f"{username}: {count} API token{'' if count == 1 else 's'} revoked")
