"""python manage.py token_rotate USERNAME [--grace 24h] [--name NAME]

A new API token for the user, printed once; the user's other tokens keep working for the grace
period (s, m, h or d; 0 ends them now), so the game server can be given the new key without a gap.
Kept as an account change made by a command (staff.services.command_recorded), with --reason.
"""

import re
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.management.arguments import user_named
from accounts.services import token_rotate
from accounts.token_lifetime import token_end, token_works
from staff.models import ChangeKind
from staff.services import command_recorded

UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def grace_period(text: str) -> timedelta:
    match = re.fullmatch(r"(\d+)([smhd]?)", text.strip())
    if match is None or (not match[2] and match[1] != "0"):
        raise CommandError(f"--grace: {text!r} is not a period such as 24h, 90m, 2d or 0.")
    return timedelta(**{UNITS[match[2] or "s"]: int(match[1])})


class Command(BaseCommand):
    help = "Rotate a user's API token: a new one, printed once; the old ones end after --grace."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--grace", default="24h", help="how long the old tokens still work (default 24h)")
        parser.add_argument("--name", default="", help="what the new token is for (default: the date)")
        parser.add_argument("--reason", default="Rotated on the server", help="kept with the change")

    def handle(self, *args, username, grace, name, reason, **options):
        period = grace_period(grace)
        user = user_named(username)
        if not user.is_active:
            raise CommandError(f"{username} is deactivated: its tokens would be refused.")
        with transaction.atomic():
            token, key = token_rotate(user=user, grace=period, name=name)
            command_recorded(user=user, kind=ChangeKind.TOKEN_ROTATED, reason=reason, token=token)
        self.stdout.write(f"{username} new API token: {key}")
        self.stdout.write(f"  ({token.prefix}…, shown only now: Pitboss keeps only its digest)")
        others = list(user.api_tokens.exclude(pk=token.pk))
        for other in others:
            other.user = user  # its role read once
        for old in [other for other in others if token_works(other, token.created_at)]:
            name = old.name or "unnamed"
            self.stdout.write(
                f"  old token {old.prefix}… ({name}) works until {token_end(old).at:%Y-%m-%d %H:%M:%S %Z}"
            )
