"""CI only: replay the operators' example rounds (../shared/examples, when present beside the
checkout) through the engine and require what their README promises: no finding, and every bet's
computed wagered and returned equal to the amounts the document reports. The project's own tests
never read that folder; this is an extra cross-check against an outside source."""

import json
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackjack.replay import replay  # noqa: E402
from blackjack.rules import GAMES, preset  # noqa: E402


def main(examples: Path) -> int:
    files = sorted(examples.glob("*.json"))
    if not files:
        print(f"no example rounds in {examples}")
        return 1
    failures = 0
    for path in files:
        game = path.name.split("-")[0]  # deluxe-..., boundless-..., classic-..., multiplayer-...
        if game not in GAMES:
            print(f"{path.name}: no game is named by its prefix")
            failures += 1
            continue
        document = json.loads(path.read_text())
        result = replay(document, preset(game))
        problems = [f"{finding.code}: {finding.message}" for finding in result.findings]
        for bet in document["bets"]:
            computed = result.bets[bet["bet_id"]]
            for field in ("wagered", "returned"):
                if Decimal(bet[field]) != getattr(computed, field):
                    problems.append(f"{bet['bet_id']} {field} {bet[field]} != {getattr(computed, field)}")
        print(f"{path.name}: {'ok' if not problems else '; '.join(problems)}")
        failures += bool(problems)
    print(f"{len(files) - failures} of {len(files)} example rounds replay as their README says")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
