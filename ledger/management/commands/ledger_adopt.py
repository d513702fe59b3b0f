"""python manage.py ledger_adopt [--chain KIND]"""

import getpass

from django.core.management.base import BaseCommand, CommandError

from ledger.adoption import ledger_adopt
from ledger.chains import chains


class Command(BaseCommand):
    help = (
        "Append to the ledger every source row written before it existed (each entry marked adopted), "
        "per chain in primary key order; once, after upgrading, before the first ledger_verify. Running "
        "it again adopts nothing. Prints what it adopted per chain."
    )

    def add_arguments(self, parser):
        parser.add_argument("--chain", dest="kind", help="only this chain")

    def handle(self, *args, kind, **options):
        known = [chain.kind for chain in chains()]
        if kind is not None and kind not in known:
            raise CommandError(f"No chain {kind}; there are: {', '.join(known)}.")
        outcomes = ledger_adopt(kind, adopted_by=getpass.getuser())
        for outcome in outcomes:
            self.stdout.write(str(outcome))
        total = sum(outcome.entries for outcome in outcomes)
        self.stdout.write(f"{total} row(s) adopted. Now run ledger_verify.")
