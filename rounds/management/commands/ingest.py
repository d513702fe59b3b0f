"""python manage.py ingest FILE...: store round documents from files, as POST /api/rounds/ does."""

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand
from tqdm import tqdm

from core.parsers import BadJSON, json_file_load
from rounds.ingest import RoundConflict, RoundFormatError, round_ingest

REFUSED = 2


class Unended:
    """A command's output without the line ending Django adds to each write: tqdm draws its bar a
    piece at a time."""

    def __init__(self, output):
        self.output = output

    def write(self, text: str) -> None:
        self.output.write(text, ending="")

    def flush(self) -> None:
        self.output.flush()


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
        parser.add_argument(
            "--progress",
            action=argparse.BooleanOptionalAction,
            help="a progress bar with rounds per second on stderr (default: with several files, on a "
            "terminal)",
        )

    def handle(self, *args, files, summary, progress, **options):
        failed = False
        outcomes: Counter[str] = Counter()
        findings: Counter[str] = Counter()
        if progress is None:
            progress = len(files) > 1 and self.stderr.isatty()
        bar = tqdm(
            files,
            disable=not progress,
            file=Unended(self.stderr),
            unit=" rounds",
            desc="Ingest",
            mininterval=0.5,
            dynamic_ncols=True,
        )
        say = self.line_writer(bar if progress else None)
        for path in bar:
            try:
                document = json_file_load(path.read_bytes())
                result = round_ingest(document=document)
            except (OSError, UnicodeDecodeError) as error:
                failed = True
                say(self.stderr, f"{path}: refused: cannot be read: {error}")
            except BadJSON as error:
                failed = True
                say(self.stderr, f"{path}: refused: bad JSON: {error}")
            except json.JSONDecodeError as error:
                failed = True
                say(self.stderr, f"{path}: refused: bad JSON at line {error.lineno}: {error.msg}")
            except RoundFormatError as error:
                failed = True
                say(self.stderr, f"{path}: refused: {error.field}: {error.message}")
            except RoundConflict as conflict:
                failed = True
                say(self.stderr, f"{path}: conflict: {conflict.field}: {conflict.message}")
            else:
                round_ = result.round
                what = "stored" if result.created else "already stored"
                outcomes[what] += 1
                if result.created:
                    findings.update(round_.findings.values_list("code", flat=True))
                if not summary:
                    say(
                        self.stdout,
                        f"{path}: {what}: {round_.round_id} ({round_.status}, {round_.bet_count} bets, "
                        f"{round_.finding_count} findings)",
                    )
        bar.close()
        if summary:
            found = ", ".join(f"{code} {count}" for code, count in sorted(findings.items())) or "none"
            self.stdout.write(
                f"{outcomes['stored']} stored, {outcomes['already stored']} already stored; findings: {found}"
            )
        if failed:
            sys.exit(REFUSED)

    @staticmethod
    def line_writer(bar):
        """Lines written to stdout or stderr; with a progress bar, above it (tqdm clears and redraws it)."""

        def say(output, line: str) -> None:
            if bar is None:
                output.write(line)
            else:
                bar.write(line, file=Unended(output), end="\n")

        return say
