"""python manage.py simulate writes one round document per round; they replay clean."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args):
    return subprocess.run(
        [sys.executable, "manage.py", *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_it_writes_a_shoe_that_replays_without_finding(tmp_path):
    result = manage(
        "simulate", "--game", "classic", "--shoes", "1", "--players", "5", "--seed", "3", "--out", tmp_path
    )
    assert result.returncode == 0, result.stderr
    files = sorted(tmp_path.glob("*.json"))
    documents = [json.loads(path.read_text()) for path in files]
    assert len(files) >= 10 and result.stdout.startswith(f"{len(files)} rounds of classic")
    assert [d["number"] for d in documents] == list(range(1, len(files) + 1))
    assert [d["cut_card"] for d in documents].count(True) == 1 and documents[-1]["cut_card"]
    replayed = manage("replay", *files, "--game", "classic")
    lines = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert len(lines) == len(files) and all(line["findings"] == [] for line in lines)


def test_the_same_seed_writes_the_same_rounds(tmp_path):
    for folder in ("a", "b"):
        manage("simulate", "--game", "multiplayer", "--seed", "9", "--out", tmp_path / folder)
    names = sorted(path.name for path in (tmp_path / "a").glob("*.json"))
    assert names and names == sorted(path.name for path in (tmp_path / "b").glob("*.json"))
    assert all((tmp_path / "a" / n).read_text() == (tmp_path / "b" / n).read_text() for n in names)


def test_planted_wrong_payouts_are_found(tmp_path):
    manage("simulate", "--game", "deluxe", "--seed", "5", "--wrong-payout-rate", "1", "--out", tmp_path)
    summary = manage("replay", *sorted(tmp_path.glob("*.json")), "--game", "deluxe", "--summary").stdout
    rounds = len(list(tmp_path.glob("*.json")))
    assert f"deluxe: {rounds} rounds" in summary and f"wrong_returned {rounds}" in summary


def test_it_refuses_a_rate_outside_0_to_1(tmp_path):
    result = manage("simulate", "--game", "deluxe", "--cancel-rate", "2", "--out", tmp_path)
    assert result.returncode != 0 and "--cancel-rate" in result.stderr


def test_dealt_by_names_who_dealt_every_round_and_a_bad_id_is_refused(tmp_path):
    result = manage(
        "simulate", "--game", "deluxe", "--seed", "4", "--dealt-by", "D-ANA", "--out", tmp_path / "a"
    )
    assert result.returncode == 0, result.stderr
    documents = [json.loads(path.read_text()) for path in (tmp_path / "a").glob("*.json")]
    assert documents and {d["dealt_by"] for d in documents} == {"D-ANA"}
    refused = manage("simulate", "--game", "deluxe", "--dealt-by", "D ANA", "--out", tmp_path / "b")
    assert refused.returncode != 0 and "--dealt-by" in refused.stderr and "is not an id" in refused.stderr
    assert not (tmp_path / "b").exists()
