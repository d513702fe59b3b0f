"""python manage.py ingest FILE...: store round documents from files, as POST /api/rounds/ does."""

import json
import sys
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand

from config.parsers import JSONTooDeep, json_file_load
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
        parser.add_argument(
            "--summary", action="store_true", help="one line of totals instead of a line per stored file"
        )

    def handle(self, *args, files, summary, **options):
        failed = False
        outcomes: Counter[str] = Counter()
        findings: Counter[str] = Counter()
        for path in files:
            try:
                document = json_file_load(path.read_bytes())
                result = round_ingest(document=document)
            except (OSError, UnicodeDecodeError) as error:
                failed = True
                self.stderr.write(f"{path}: refused: cannot be read: {error}")
            except JSONTooDeep as error:
                failed = True
                self.stderr.write(f"{path}: refused: bad JSON: {error}")
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
                outcomes[what] += 1
                if result.created:
                    findings.update(round_.findings.values_list("code", flat=True))
                if not summary:
                    self.stdout.write(
                        f"{path}: {what}: {round_.round_id} ({round_.status}, {round_.bet_count} bets, "
                        f"{round_.finding_count} findings)"
                    )
        if summary:
            found = ", ".join(f"{code} {count}" for code, count in sorted(findings.items())) or "none"
            self.stdout.write(
                f"{outcomes['stored']} stored, {outcomes['already stored']} already stored; findings: {found}"
            )
        if failed:
            sys.exit(REFUSED)
