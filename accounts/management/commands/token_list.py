"""python manage.py token_list [USERNAME]: every API token (of one user), without its key: prefix,
name, when it was made, last used, and whether it works, expires or was revoked."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from accounts.management.arguments import user_named
from accounts.models import ApiToken
from accounts.token_lifetime import token_end, token_works

FORMAT = "%Y-%m-%d %H:%M %Z"


def when(moment) -> str:
    return moment.strftime(FORMAT) if moment else "never"


class Command(BaseCommand):
    help = "List API tokens (all users', or one user's): never their keys."

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?")

    def handle(self, *args, username, **options):
        tokens = ApiToken.objects.select_related("user")
        if username is not None:
            tokens = tokens.filter(user=user_named(username))
        now = timezone.now()
        for token in tokens:
            ends = token_end(token).at  # its lifetime's end or its own (accounts/token_lifetime.py)
            if token.revoked_at is not None:
                state = f"revoked {when(token.revoked_at)}"
            elif not token_works(token, now):
                state = f"expired {when(ends)}"
            elif ends is not None:
                state = f"works until {when(ends)}"
            else:
                state = "works"
            self.stdout.write(
                f"{token.user.username}  {token.prefix}…  {token.name or '-'}  made {when(token.created_at)}"
                f"  last used {when(token.last_used_at)}  {state}"
            )
        if not tokens:
            self.stdout.write("no API tokens")
