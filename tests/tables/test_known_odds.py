"""Figures known in advance (tables/known_odds.py): a version whose rules are in a known-odds file of
the present engine takes its figures at once; a file of another engine is never used; and the files
Pitboss ships and the tests use are of the present engine, written by `manage.py odds_known`."""

import json
import shutil
from io import StringIO

import pytest
from django.core.management import call_command

from blackjack.odds import METHOD_VERSION
from blackjack.rules import RuleSet, preset
from tables.known_odds import ENGINE_ROOT, SHIPPED_FILE, engine_fingerprint, source_fingerprint
from tables.models import ConfigurationOdds
from tables.odds import configuration_odds_compute, rule_set_digest
from tests import factories
from tests.conftest import TESTS_KNOWN_ODDS

pytestmark = pytest.mark.django_db
REWRITE = (
    "run `python manage.py odds_known` (and `--file tests/fixtures/known_odds.json`) and commit the files"
)


@pytest.mark.parametrize("path", [SHIPPED_FILE, TESTS_KNOWN_ODDS], ids=["shipped", "tests"])
def test_the_files_are_of_the_present_engine(path):
    content = json.loads(path.read_text())
    assert (content["method"], content["engine"]) == (METHOD_VERSION, engine_fingerprint()), REWRITE
    for digest, entry in content["odds"].items():
        assert rule_set_digest(RuleSet.from_dict(entry["rules"])) == digest


def test_the_shipped_file_holds_every_preset():
    shipped = json.loads(SHIPPED_FILE.read_text())["odds"]
    assert {entry["rules"]["game"] for entry in shipped.values()} == {
        "deluxe",
        "boundless",
        "classic",
        "multiplayer",
    }


def test_the_command_writes_what_the_engine_works_out(tmp_path):
    """Boundless (its main game takes a second): the command's figures for it are the shipped ones."""
    written = tmp_path / "known.json"
    out = StringIO()
    call_command(
        "odds_known", "--file", written, "--add", json.dumps(preset("boundless").to_dict()), stdout=out
    )
    assert "boundless: main 99.5169 %" in out.getvalue()
    digest = rule_set_digest(preset("boundless"))
    shipped = json.loads(SHIPPED_FILE.read_text())["odds"][digest]
    assert json.loads(written.read_text())["odds"] == {digest: shipped}


def test_a_version_of_known_rules_takes_the_known_figures(settings):
    settings.PITBOSS_KNOWN_ODDS_FILES = [SHIPPED_FILE]
    table = factories.table("CLS1")
    odds = configuration_odds_compute(configuration=table.configurations.get())
    shipped = json.loads(SHIPPED_FILE.read_text())["odds"][odds.rules_sha256]
    assert (odds.figures, odds.method, odds.seconds, odds.copied_from) == (
        shipped["figures"],
        METHOD_VERSION,
        0,
        None,
    )
    assert odds.known_in_advance


def test_the_table_page_says_where_known_figures_come_from(settings, client):
    settings.PITBOSS_KNOWN_ODDS_FILES = [SHIPPED_FILE]
    table = factories.table("CLS1")
    configuration_odds_compute(configuration=table.configurations.get())
    client.force_login(factories.user("supervisor"))
    page = client.get(f"/tables/{table.code}/").content.decode()
    assert "taken from the figures Pitboss ships for these rules, worked out by this same engine" in page
    assert " in 0.0 s" not in page
    # The classic game's sheet says dealer, not facilitator, in the figures' words as on the page.
    assert "the hand's cards and the dealer's first card" in page
    assert "facilitator" not in page


def test_a_file_of_another_engine_is_not_used(settings, tmp_path):
    content = json.loads(SHIPPED_FILE.read_text())
    content["engine"] = "0" * 64
    digest = rule_set_digest(preset("boundless"))
    content["odds"][digest]["figures"]["rtp"]["main"] = "150.0000"
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps(content))
    settings.PITBOSS_KNOWN_ODDS_FILES = [stale]
    odds = configuration_odds_compute(configuration=factories.table("BND1").configurations.get())
    assert odds.figures["rtp"]["main"] == "99.5169" and odds.seconds > 0 and not odds.known_in_advance
    assert ConfigurationOdds.objects.get().figures["rtp"]["main"] == "99.5169"


@pytest.mark.parametrize(
    ("module", "counts"),
    [
        ("odds/main_game.py", True),
        ("hand.py", True),
        ("rules.py", True),
        ("replay.py", False),
        ("document.py", False),
    ],
)
def test_the_fingerprint_is_of_what_the_odds_engine_runs(tmp_path, module, counts):
    """A change to the odds package or to a module it imports makes the files stale; one to the replay
    or the document reader, which the odds never run, does not."""
    copy = tmp_path / "blackjack"
    shutil.copytree(ENGINE_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_fingerprint(copy) == engine_fingerprint()
    with (copy / module).open("a") as source:
        source.write("\n# changed\n")
    assert (source_fingerprint(copy) != engine_fingerprint()) is counts
