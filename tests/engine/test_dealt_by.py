"""`dealt_by`: the game server's id of who dealt the round. Optional; an id when given."""

import json
from pathlib import Path

import pytest

from blackjack.document import MAX_ID_LENGTH, RoundFormatError, parse_round
from blackjack.replay import replay
from blackjack.rules import preset
from tests.fixtures import round_document


def read(**changes):
    document = round_document("deluxe-split-double-play-behind") | changes
    return parse_round(document)


def test_it_reads_who_dealt_the_round():
    assert read(dealt_by="D-ANA").dealt_by == "D-ANA"
    assert read(dealt_by="studio2:dealer_07.b").dealt_by == "studio2:dealer_07.b"


def test_a_round_that_does_not_say_was_dealt_by_someone_unknown():
    document = round_document("deluxe-split-double-play-behind")
    assert "dealt_by" not in document
    assert parse_round(document).dealt_by == ""


def test_null_means_unknown_too():
    assert read(dealt_by=None).dealt_by == ""


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("D ANA", "is not an id"),
        ("D/ANA", "is not an id"),
        ("Dé", "is not an id"),
        ("...", "only dots"),
        ("", "non-empty string"),
        ("D" * (MAX_ID_LENGTH + 1), f"at most {MAX_ID_LENGTH} characters"),
        (7, "non-empty string"),
        (["D-ANA"], "non-empty string"),
        ({"id": "D-ANA"}, "non-empty string"),
        (True, "non-empty string"),
    ],
)
def test_a_bad_value_is_refused_naming_the_field(value, problem):
    with pytest.raises(RoundFormatError) as error:
        read(dealt_by=value)
    assert error.value.field == "dealt_by"
    assert problem in error.value.message


def test_the_longest_id_is_read():
    assert read(dealt_by="D" * MAX_ID_LENGTH).dealt_by == "D" * MAX_ID_LENGTH


def test_the_example_of_the_round_format_says_who_dealt():
    text = (Path(__file__).resolve().parents[2] / "docs" / "round-format.md").read_text()
    example = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    record = parse_round(example, strict_cards=True)
    assert record.dealt_by == "D-ANA"
    assert replay(example, preset("deluxe")).findings == []
