"""python manage.py replay FILE... --game G: re-play round documents and print what the engine computes."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from rounds.engine.document import RoundFormatError
from rounds.engine.replay import replay
from rounds.engine.rules import GAMES, preset

NOT_A_ROUND = 2


class Command(BaseCommand):
    help = (
        "Re-play round documents under a game's preset rules; print one JSON line per file with every "
        "bet's computed wagered and returned and every finding. Exit 2 when a file is not a round document."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--game", required=True, choices=GAMES)

    def handle(self, *args, files, game, **options):
        rules = preset(game)
        refused = False
        for path in files:
            try:
                document = json.loads(path.read_text())
                result = replay(document, rules)
            except (OSError, UnicodeDecodeError) as error:
                refused = True
                self.stderr.write(f"{path}: cannot be read: {error}")
            except json.JSONDecodeError as error:
                refused = True
                self.stderr.write(
                    f"{path}: not a round document: bad JSON at line {error.lineno}: {error.msg}"
                )
            except RoundFormatError as error:
                refused = True
                self.stderr.write(f"{path}: not a round document: {error.field}: {error.message}")
            else:
                self.stdout.write(json.dumps(result.to_dict()))
        if refused:
            sys.exit(NOT_A_ROUND)
