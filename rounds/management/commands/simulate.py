"""python manage.py simulate --game G --shoes N --players P --seed S --out DIR [--dealt-by ID]: write
simulated rounds."""

import json
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from blackjack.document import id_problem
from blackjack.rules import GAMES, preset
from blackjack.simulate import simulate

DEFAULT_TABLES = {"deluxe": "DLX1", "boundless": "BND1", "classic": "CLS1", "multiplayer": "MPB1"}


def _rate(value: str) -> float:
    rate = float(value)
    if not 0 <= rate <= 1:
        raise ValueError(value)
    return rate


class Command(BaseCommand):
    help = "Deal and play whole shoes under a game's preset rules; write one round document per file."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, choices=GAMES)
        parser.add_argument("--shoes", type=int, default=1)
        parser.add_argument(
            "--players", type=int, default=7, help="players at the table (Boundless: per round)"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--out", type=Path, required=True, help="folder for the round documents")
        parser.add_argument("--table", help="table code (default: DLX1, BND1, CLS1 or MPB1 by game)")
        parser.add_argument("--start", help="when the first round opens, ISO 8601 (default: today 08:00 UTC)")
        parser.add_argument(
            "--wrong-payout-rate", type=_rate, default=0.0, help="fraction of rounds paid wrong"
        )
        parser.add_argument("--cancel-rate", type=_rate, default=0.0, help="fraction of rounds cancelled")
        parser.add_argument(
            "--dealt-by", help="who deals every round: the game server's id (default: not said)"
        )

    def handle(
        self,
        *args,
        game,
        shoes,
        players,
        seed,
        out,
        table,
        start,
        wrong_payout_rate,
        cancel_rate,
        dealt_by,
        **options,
    ):
        if shoes < 1 or players < 1:
            raise CommandError("--shoes and --players must be at least 1")
        if dealt_by is not None and (problem := id_problem(dealt_by)):
            raise CommandError(f"--dealt-by {problem}")
        if start:
            try:
                opened = datetime.fromisoformat(start)
            except ValueError:
                raise CommandError(f"--start: {start!r} is not an ISO 8601 time") from None
            if opened.tzinfo is None:
                raise CommandError("--start needs a time zone, for instance a trailing Z")
        else:
            opened = datetime.now(UTC).replace(hour=8, minute=0, second=0, microsecond=0)
        out.mkdir(parents=True, exist_ok=True)
        written = 0
        for document in simulate(
            preset(game),
            table=table or DEFAULT_TABLES[game],
            shoes=shoes,
            players=players,
            seed=seed,
            start=opened,
            wrong_payout_rate=wrong_payout_rate,
            cancel_rate=cancel_rate,
            dealt_by=dealt_by,
        ):
            (out / f"{document['round_id']}.json").write_text(json.dumps(document, indent=1))
            written += 1
        self.stdout.write(f"{written} rounds of {game} in {out}")
