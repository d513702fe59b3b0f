"""python manage.py replay: one JSON line per round file, exit 2 for a file that is not a round."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.fixtures import round_document, round_path

ROOT = Path(__file__).resolve().parents[2]


def run_replay(*args):
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_prints_the_computed_amounts_of_each_file():
    files = [round_path("deluxe-split-double-play-behind"), round_path("deluxe-surrender-auto-play")]
    result = run_replay(*files, "--game", "deluxe")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["round_id"] for line in lines] == ["DLX1-S0412-023", "DLX1-S0412-025"]
    assert lines[0]["bets"]["D23-1"] == {"wagered": "45.00", "returned": "90.00"}
    assert lines[0]["findings"] == [] and lines[1]["findings"] == []


def test_it_prints_the_findings_of_a_wrong_round(tmp_path):
    document = round_document("deluxe-split-double-play-behind")
    document["bets"][0]["returned"] = "70.00"
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(document))
    line = json.loads(run_replay(path, "--game", "deluxe").stdout)
    assert [(f["code"], f["bet"], f["spot"]) for f in line["findings"]] == [("wrong_returned", "D23-1", "2")]
    assert "returned 70.00; the rules pay 90.00" in line["findings"][0]["message"]


def test_it_exits_2_naming_the_field_of_a_file_that_is_not_a_round(tmp_path):
    good = tmp_path / "good.json"
    shutil.copy(round_path("multiplayer-facilitator-blackjack-no-hole-card"), good)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 1, "round_id": "X"')
    negative = tmp_path / "negative.json"
    document = json.loads(good.read_text())
    document["bets"][0]["stake"] = "-10.00"
    negative.write_text(json.dumps(document))
    result = run_replay(good, broken, negative, "--game", "multiplayer")
    assert result.returncode == 2
    assert json.loads(result.stdout)["round_id"] == "MPB1-S0150-012"
    assert "broken.json: not a round document: bad JSON" in result.stderr
    assert "negative.json: not a round document: bets[0].stake" in result.stderr
