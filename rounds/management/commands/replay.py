"""python manage.py replay FILE... --game G: re-play round documents and print what the engine computes."""

import json
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

from django.core.management.base import BaseCommand

from blackjack.document import RoundFormatError
from blackjack.replay import replay
from blackjack.rules import GAMES, preset
from core.parsers import BadJSON, json_file_load

NOT_A_ROUND = 2


class Command(BaseCommand):
    help = (
        "Re-play round documents under a game's preset rules; print one JSON line per file with every "
        "bet's computed wagered and returned and every finding. Exit 2 when a file is not a round document."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--game", required=True, choices=GAMES)
        parser.add_argument(
            "--summary", action="store_true", help="print one line of totals instead of a line per file"
        )

    def handle(self, *args, files, game, summary, **options):
        rules = preset(game)
        refused = False
        totals = Totals()
        for path in files:
            try:
                document = json_file_load(path.read_bytes())
                result = replay(document, rules)
            except (OSError, UnicodeDecodeError) as error:
                refused = True
                self.stderr.write(f"{path}: cannot be read: {error}")
            except BadJSON as error:
                refused = True
                self.stderr.write(f"{path}: not a round document: bad JSON: {error}")
            except json.JSONDecodeError as error:
                refused = True
                self.stderr.write(
                    f"{path}: not a round document: bad JSON at line {error.lineno}: {error.msg}"
                )
            except RoundFormatError as error:
                refused = True
                self.stderr.write(f"{path}: not a round document: {error.field}: {error.message}")
            else:
                if summary:
                    totals.add(result)
                else:
                    self.stdout.write(json.dumps(result.to_dict()))
        if summary:
            self.stdout.write(totals.line(game))
        if refused:
            sys.exit(NOT_A_ROUND)


class Totals:
    def __init__(self):
        self.rounds = self.bets = 0
        self.wagered = self.returned = Decimal("0.00")
        self.findings = Counter()

    def add(self, result):
        self.rounds += 1
        self.bets += len(result.bets)
        for computed in result.bets.values():
            self.wagered += computed.wagered or 0
            self.returned += computed.returned or 0
        self.findings.update(finding.code for finding in result.findings)

    def line(self, game: str) -> str:
        found = ", ".join(f"{code} {count}" for code, count in sorted(self.findings.items())) or "none"
        return (
            f"{game}: {self.rounds} rounds, {self.bets} bets, wagered {self.wagered}, "
            f"returned {self.returned}; findings: {found}"
        )
