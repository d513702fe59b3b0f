"""python manage.py odds_known: write a known-odds file (tables/known_odds.py) with the present engine.

Without arguments it writes tables/known_odds.json, the presets' figures that Pitboss ships. With
--file it works out again every rule set already in that file (the tests' fixture), and --add puts
another rule set (a JSON object, as RuleSet.to_dict writes it) in it first.
"""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from blackjack.odds import METHOD_VERSION, theoretical_odds
from blackjack.rules import PRESETS, RuleSet
from tables.known_odds import SHIPPED_FILE, engine_fingerprint
from tables.odds import odds_figures, rule_set_digest


class Command(BaseCommand):
    help = (
        "Work out and write the figures of a known-odds file: the presets', or those of --file's rule sets."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--file", type=Path, help="a known-odds file to work out again (default: the presets')"
        )
        parser.add_argument(
            "--add", action="append", default=[], metavar="RULES", help="a rule set (JSON) to add to --file"
        )

    def handle(self, *args, file: Path | None, add: list[str], **options):
        if file is None:
            if add:
                raise CommandError("--add needs --file: the shipped file holds the presets only.")
            file, rule_sets = SHIPPED_FILE, list(PRESETS.values())
        else:
            rule_sets = [RuleSet.from_dict(entry["rules"]) for entry in self.entries(file)]
            try:
                rule_sets += [RuleSet.from_dict(json.loads(text)) for text in add]
            except ValueError as error:  # RuleError is one
                raise CommandError(f"--add: {error}") from None
        odds = {}
        for rule_set in rule_sets:
            digest = rule_set_digest(rule_set)
            if digest in odds:
                continue
            started = time.perf_counter()
            odds[digest] = {"rules": rule_set.to_dict(), "figures": odds_figures(theoretical_odds(rule_set))}
            main = odds[digest]["figures"]["rtp"]["main"]
            self.stdout.write(f"{rule_set.game}: main {main} % ({time.perf_counter() - started:.1f} s)")
        content = {"method": METHOD_VERSION, "engine": engine_fingerprint(), "odds": odds}
        file.write_text(json.dumps(content, indent=1, sort_keys=True) + "\n")
        self.stdout.write(f"Wrote {len(odds)} rule set(s) to {file}.")

    @staticmethod
    def entries(file: Path) -> list[dict]:
        if not file.is_file():
            return []
        try:
            return list(json.loads(file.read_text())["odds"].values())
        except (ValueError, KeyError, TypeError) as error:
            raise CommandError(f"{file} is not a known-odds file: {error}") from None
