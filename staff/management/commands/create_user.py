"""python manage.py create_user NAME --role supervisor|compliance|customer_service|game_server|administrator

On the server, with no second administrator: the first administrator is made so. Kept as an account
change made by a command (staff.services.command_recorded), with --reason."""

import secrets

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.roles import GAME_SERVER, ROLE_SLUGS
from accounts.services import token_create, user_create
from staff.models import ChangeKind
from staff.services import command_recorded


class Command(BaseCommand):
    help = "Create a user in one role; prints the password (and an API token for a game server)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=sorted(ROLE_SLUGS))
        parser.add_argument("--password", help="default: a new random password, printed")
        parser.add_argument("--email", default="")
        parser.add_argument("--reason", default="Created on the server", help="kept with the change")

    def handle(self, *args, username, role, password, email, reason, **options):
        password = password or secrets.token_urlsafe(12)
        try:
            with transaction.atomic():
                user = user_create(username=username, password=password, role=ROLE_SLUGS[role], email=email)
                command_recorded(user=user, kind=ChangeKind.CREATED, reason=reason, role=ROLE_SLUGS[role])
        except ValidationError as error:
            raise CommandError(
                "; ".join(f"{k}: {' '.join(v)}" for k, v in error.message_dict.items())
            ) from None
        self.stdout.write(f"{username} ({ROLE_SLUGS[role]}) password: {password}")
        if ROLE_SLUGS[role] == GAME_SERVER:
            with transaction.atomic():
                token, key = token_create(user=user, name="made with the user")
                command_recorded(user=user, kind=ChangeKind.TOKEN_ISSUED, reason=reason, token=token)
            self.stdout.write(f"{username} API token: {key}")
