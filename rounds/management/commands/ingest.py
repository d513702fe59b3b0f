"""python manage.py ingest FILE...: store round documents from files, as POST /api/rounds/ does."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from rounds.ingest import RoundConflict, RoundFormatError, round_ingest

REFUSED = 2


class Command(BaseCommand):
    help = (
        "Store round documents (one JSON round per file) as the game servers' API does: replay, findings, "
        "shoe and limit checks. One line per file: stored, already stored, conflict or refused (with the "
        "field). Exit 0 when every file is stored or already stored, 2 when any is refused or conflicting."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)

    def handle(self, *args, files, **options):
        failed = False
        for path in files:
            try:
                document = json.loads(path.read_text(encoding="utf-8"))
                result = round_ingest(document=document)
            except (OSError, UnicodeDecodeError) as error:
                failed = True
                self.stderr.write(f"{path}: refused: cannot be read: {error}")
            except json.JSONDecodeError as error:
                failed = True
                self.stderr.write(f"{path}: refused: bad JSON at line {error.lineno}: {error.msg}")
            except RoundFormatError as error:
                failed = True
                self.stderr.write(f"{path}: refused: {error.field}: {error.message}")
            except RoundConflict as conflict:
                failed = True
                self.stderr.write(f"{path}: conflict: {conflict.field}: {conflict.message}")
            else:
                round_ = result.round
                what = "stored" if result.created else "already stored"
                self.stdout.write(
                    f"{path}: {what}: {round_.round_id} ({round_.status}, {round_.bet_count} bets, "
                    f"{round_.finding_count} findings)"
                )
        if failed:
            sys.exit(REFUSED)
