"""The current second-factor code of a demo user (demo.second_factor): for trying the demo without
an authenticator app. It knows only the demo's secrets; a real user's it cannot work out."""

import time

from django.core.management.base import BaseCommand

from demo.second_factor import demo_code, demo_secret


class Command(BaseCommand):
    help = "Print a demo user's current TOTP code (and, with --secret, the secret to add to an app)."

    def add_arguments(self, parser):
        parser.add_argument("username", help="A demo user: supervisor, supervisor-2 or compliance.")
        parser.add_argument("--secret", action="store_true", help="Also print the base32 secret.")

    def handle(self, username, secret, **options):
        if secret:
            self.stdout.write(f"secret {demo_secret(username)}")
        left = 30 - int(time.time()) % 30
        self.stdout.write(f"{demo_code(username)} (for {left} s more)")
