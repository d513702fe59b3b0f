"""python manage.py odds GAME|TABLE_CODE [--json]: a preset's or a table's theoretical RTP, the main
game's at best play and under automatic play, and best play's strategy chart."""

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from blackjack.odds import METHOD_VERSION, theoretical_odds
from blackjack.rules import preset
from tables.services import table_create
from tests import factories


def run_odds(*args) -> str:
    out = StringIO()
    call_command("odds", *args, stdout=out)
    return out.getvalue()


def test_it_prints_a_presets_odds_as_json():
    printed = json.loads(run_odds("classic", "--json"))

    assert printed == theoretical_odds(preset("classic")).to_dict()
    kinds = ["main", "behind", "insurance", "perfect_pairs", "twenty_one_plus_three"]
    assert list(printed) == [*kinds, "auto_play", "patterns", "strategy", "chart", "method"]
    assert printed["main"] == 99.3928  # best play
    assert printed["auto_play"] == 84.0095  # classic's automatic play stands on the first two cards
    assert printed["method"] == METHOD_VERSION
    assert printed["chart"]["columns"] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]


def test_it_prints_a_readable_table_of_kinds_and_patterns():
    printed = run_odds("classic")

    assert "Theoretical RTP of the classic preset" in printed
    assert "best play, composition-dependent" in printed
    assert "Automatic play: stand on the first two cards." in printed
    lines = [line.split() for line in printed.splitlines()]
    assert ["main", "99.3928", "0.6072"] in lines
    assert ["main,", "automatic", "play", "84.0095", "15.9905"] in lines
    assert ["insurance", "92.5301", "7.4699"] in lines
    assert ["perfect_pairs", "95.9036", "4.0964"] in lines
    assert ["perfect_pair", "0.0168674699", "59.3", "25:1"] in lines  # 7/415
    assert ["no", "win", "0.9253012048"] in lines  # 384/415
    # The chart of best play: a row per two-card hand class, a column per facilitator's first card.
    assert ["hand", "2", "3", "4", "5", "6", "7", "8", "9", "10", "A"] in lines
    assert ["hard", "11", *"DDDDDDDDDH"] in lines
    assert ["soft", "18", *"SDDDDSSHHH"] in lines
    assert ["pair", "8", *"PPPPPPPPPP"] in lines
    assert "strategy table" not in printed  # classic's automatic play follows none


def test_it_names_where_the_tables_strategy_table_differs_from_best_play():
    printed = run_odds("multiplayer")

    lines = [line.split() for line in printed.splitlines()]
    assert ["main", "99.1971", "0.8029"] in lines
    assert ["main,", "automatic", "play", "99.1667", "0.8333"] in lines
    assert (
        "Where the table's strategy table differs from best play:\n  pair A against 10: best P, "
        "strategy table H" in printed
    )


def test_it_reads_the_configuration_in_force_at_a_table(db):
    table = factories.table("DLX1")
    paytable = {"mixed_pair": "6", "coloured_pair": "10", "perfect_pair": "30", "suited_trips": "50"}
    factories.configuration_approved(
        table, {"side_options": {"pair": {"paytable": paytable}}}, reason="a richer mixed pair"
    )

    printed = json.loads(run_odds("DLX1", "--json"))

    # One more unit on a mixed pair (16/415) over the preset's 97.1154.
    assert printed["pair"] == 100.9708
    assert printed["main"] == 99.5169
    readable = run_odds("dlx1")
    assert "table DLX1 (deluxe), configuration version 2, in force since" in readable
    assert "6:1" in readable


def test_an_unknown_game_or_table_is_refused_by_name(db):
    with pytest.raises(CommandError, match="'XYZ9' is neither a game .* nor a table code"):
        run_odds("XYZ9")


def test_a_table_without_a_configuration_in_force_is_refused(db):
    table_create(
        code="CLS9",
        name="Table CLS9",
        game="classic",
        currency="EUR",
        studio="Studio A",
        created_by=factories.user("supervisor"),
        first_version_from=timezone.now() + timedelta(days=1),
    )

    with pytest.raises(CommandError, match="Table CLS9 has no configuration in force now"):
        run_odds("CLS9")
