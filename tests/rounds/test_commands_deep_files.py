"""`manage.py ingest` and `manage.py replay` read files a game server wrote: a file nested deeper
than the API reads is refused by name, as the API refuses it, instead of a RecursionError traceback
(issue 16)."""

import io

import pytest
from django.core.management import call_command

from rounds.models import Round

DEEP = "[" * 1500 + "]" * 1500
TOO_DEEP = "bad JSON: arrays and objects nested more than 64 levels deep"


@pytest.mark.django_db
def test_ingest_refuses_a_deeply_nested_file_naming_it(tmp_path, capsys):
    call_command("seed_demo", stdout=io.StringIO())
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    with pytest.raises(SystemExit) as exit_:
        call_command("ingest", str(deep))
    assert exit_.value.code == 2
    assert (
        "deep.json: refused: bad JSON: arrays and objects nested more than 64 levels deep"
        in capsys.readouterr().err
    )
    assert not Round.objects.exists()


def test_replay_refuses_a_deeply_nested_file_naming_it(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    with pytest.raises(SystemExit) as exit_:
        call_command("replay", str(deep), "--game", "deluxe")
    assert exit_.value.code == 2
    assert (
        "deep.json: not a round document: bad JSON: arrays and objects nested more than 64 levels deep"
        in (capsys.readouterr().err)
    )
