"""python manage.py sign_in_reset [--username NAME]... [--address ADDRESS]...: lift early what holds up
sign-ins with those usernames or from those addresses (README, "Security"). For a username: its wait
(the per-account delay) and django-axes's locks of it at every address. For an address: its lock
and django-axes's locks of every username there. What a success made known stays known."""

import ipaddress

from axes.utils import reset
from django.core.management.base import BaseCommand, CommandError

from accounts.guesses import forget


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class Command(BaseCommand):
    help = "Lift early a username's sign-in wait and locks, or an address's lock."

    def add_arguments(self, parser):
        parser.add_argument("--username", action="append", default=[], help="a username (repeatable)")
        parser.add_argument("--address", action="append", default=[], help="an IP address (repeatable)")

    def handle(self, *args, username, address, **options):
        if not username and not address:
            raise CommandError("Name at least one --username or --address.")
        for where in address:
            try:
                ipaddress.ip_address(where)
            except ValueError:
                raise CommandError(f"{where!r} is not an IP address.") from None
        for name in username:
            forgotten, records = forget(username=name), reset(username=name)
            self.stdout.write(
                f"{name}: {plural(forgotten, 'wrong password')} forgotten, "
                f"{plural(records, 'django-axes record')} reset"
            )
        for where in address:
            forgotten, records = forget(address=where), reset(ip=where)
            self.stdout.write(
                f"{where}: {plural(forgotten, 'wrong password')} forgotten, "
                f"{plural(records, 'django-axes record')} reset"
            )
