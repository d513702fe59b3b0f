"""python manage.py create_user NAME --role supervisor|compliance|customer_service|game_server"""

import secrets

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from accounts.roles import GAME_SERVER, ROLE_SLUGS
from accounts.services import token_create, user_create


class Command(BaseCommand):
    help = "Create a user in one role; prints the password (and an API token for a game server)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=sorted(ROLE_SLUGS))
        parser.add_argument("--password", help="default: a new random password, printed")
        parser.add_argument("--email", default="")

    def handle(self, *args, username, role, password, email, **options):
        password = password or secrets.token_urlsafe(12)
        try:
            user = user_create(username=username, password=password, role=ROLE_SLUGS[role], email=email)
        except ValidationError as error:
            raise CommandError(
                "; ".join(f"{k}: {' '.join(v)}" for k, v in error.message_dict.items())
            ) from None
        self.stdout.write(f"{username} ({ROLE_SLUGS[role]}) password: {password}")
        if ROLE_SLUGS[role] == GAME_SERVER:
            _, key = token_create(user=user, name="made with the user")
            self.stdout.write(f"{username} API token: {key}")
