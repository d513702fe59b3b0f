"""python manage.py ledger_verify [--chain KIND ...] [--month YYYY-MM]"""

import getpass
from datetime import datetime

from django.core.management.base import BaseCommand, CommandError

from ledger.chains import chains
from ledger.services import verification_run


def month_argument(text: str):
    try:
        return datetime.strptime(text, "%Y-%m").date()
    except ValueError:
        raise CommandError(f"--month must be YYYY-MM, not {text!r}.") from None


class Command(BaseCommand):
    help = (
        "Re-hash every source row of the ledger's chains (archived months read from their files) and "
        "check every entry, link and signed day head; prints each problem; exit status 1 when any."
    )

    def add_arguments(self, parser):
        parser.add_argument("--chain", action="append", dest="kinds", help="only this chain (repeatable)")
        parser.add_argument("--month", help="only the source rows of this month, YYYY-MM")

    def handle(self, *args, kinds, month, **options):
        known = [chain.kind for chain in chains()]
        unknown = [kind for kind in kinds or [] if kind not in known]
        if unknown:
            raise CommandError(f"No chain {', '.join(unknown)}; there are: {', '.join(known)}.")
        month = month_argument(month) if month else None
        record, problems = verification_run(by=getpass.getuser(), kinds=kinds, month=month)
        for note in record.notes:
            self.stdout.write(f"Note: {note}")
        for problem in problems:
            self.stdout.write(str(problem))
        verified = ", ".join(record.chains)
        if problems:
            raise CommandError(f"{len(problems)} problem(s) in {verified} ({record.seconds:.2f} s).")
        self.stdout.write(f"Ledger verified clean: {verified} ({record.seconds:.2f} s).")
