"""python manage.py odds GAME|TABLE_CODE [--json]: the theoretical RTP of a game or of a table's rules
(the main game's at best play and under the table's automatic play), and best play's strategy chart."""

import json

from django.core.management.base import BaseCommand, CommandError

from blackjack.odds import Odds, StrategyChart, theoretical_odds
from blackjack.odds.chart import ACTION_CODES
from blackjack.rules import GAMES, RuleSet, preset
from tables.models import Table
from tables.selectors import configuration_in_force


class Command(BaseCommand):
    help = (
        "Print the theoretical RTP of every bet kind (the main game's at best play and under the table's "
        "automatic play), the probability of every side-option pattern and best play's strategy chart, "
        f"for a game's preset rules ({', '.join(GAMES)}) or for the configuration in force now at a table "
        "(by its code)."
    )

    def add_arguments(self, parser):
        parser.add_argument("game_or_table", metavar="GAME|TABLE_CODE")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print one JSON object")

    def handle(self, *args, game_or_table: str, as_json: bool, **options):
        rules, source = rules_for(game_or_table)
        odds = theoretical_odds(rules)
        if as_json:
            self.stdout.write(json.dumps(odds.to_dict()))
        else:
            self.stdout.write(readable(odds, rules, source))


def rules_for(game_or_table: str) -> tuple[RuleSet, str]:
    """The rules to price and a line saying where they come from."""
    if game_or_table in GAMES:
        return preset(game_or_table), f"the {game_or_table} preset"
    table = Table.objects.filter(code=game_or_table.upper()).first()
    if table is None:
        raise CommandError(f"{game_or_table!r} is neither a game ({', '.join(GAMES)}) nor a table code.")
    configuration = configuration_in_force(table)
    if configuration is None:
        raise CommandError(f"Table {table.code} has no configuration in force now.")
    in_force = (
        f"version {configuration.version}, in force since {configuration.valid_from:%Y-%m-%d %H:%M} UTC"
    )
    return configuration.rule_set, f"table {table.code} ({table.game}), configuration {in_force}"


def readable(odds: Odds, rules: RuleSet, source: str) -> str:
    lines = [f"Theoretical RTP of {source}", f"Main game: {odds.strategy}", ""]
    lines.append(f"{'bet kind':<24}{'RTP %':>10}{'house edge %':>15}")
    for kind, rtp in odds.rtp.items():
        lines.append(f"{kind:<24}{rtp:>10}{odds.house_edge(kind):>15}")
    lines.append(f"{'main, automatic play':<24}{odds.auto_play_rtp:>10}{100 - odds.auto_play_rtp:>15}")
    for kind, probabilities in odds.patterns.items():
        paytable = dict(rules.side_option(kind).paytable)
        lines += ["", f"{kind:<24}{'probability':>16}{'1 in':>12}{'odds':>10}"]
        for pattern, probability in probabilities.items():
            one_in = f"{1 / probability:,.1f}" if probability else "never"
            lines.append(f"  {pattern:<22}{float(probability):>16.10f}{one_in:>12}{paytable[pattern]:>8}:1")
        no_win = 1 - sum(probabilities.values())
        lines.append(f"  {'no win':<22}{float(no_win):>16.10f}")
    return "\n".join(lines + chart_lines(odds.chart, rules))


def chart_lines(chart: StrategyChart, rules: RuleSet) -> list[str]:
    """Best play's chart, a column per facilitator's first card, and where a strategy table differs."""
    legend = ", ".join(f"{code} {action}" for action, code in ACTION_CODES.items())
    lines = ["", f"Strategy chart of best play ({legend}; * card-dependent)"]
    lines.append(f"{'hand':<8}" + "".join(f"{column:>3} " for column in chart.columns).rstrip())
    for hand, cells in chart.rows:
        codes = "".join(f"{cell.best:>3}{'*' if cell.card_dependent else ' '}" for cell in cells)
        lines.append(f"{hand:<8}{codes}".rstrip())
    if rules.auto_play == "strategy":
        differences = chart.differences()
        lines += ["", "Where the table's strategy table differs from best play:"]
        lines += [
            f"  {hand} against {column}: best {best}, strategy table {automatic}"
            for hand, column, best, automatic in differences
        ] or ["  nowhere"]
    return lines
