"""Every side option pattern's words, in one list (blackjack/pattern_words.py): the label staff see on
the tables' pages and the reports, and the label and description players read on the rule sheet."""

import pytest

from blackjack.pattern_words import PATTERN_WORDS
from blackjack.rules import SIDE_OPTION_PATTERNS, pattern_label

PATTERNS = {pattern for patterns in SIDE_OPTION_PATTERNS.values() for pattern in patterns}


def test_every_pattern_has_its_words_and_only_patterns_do():
    assert set(PATTERN_WORDS) == PATTERNS


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_each_pattern_has_a_staff_label_a_players_label_and_a_description(pattern):
    words = PATTERN_WORDS[pattern]
    assert words.staff and words.player and words.description.endswith(".")
    assert pattern_label(pattern) == words.staff


@pytest.mark.parametrize(
    ("pattern", "staff", "player"),
    [
        ("unsuited_6_7_8", "Unsuited 6 7 8", "6-7-8, mixed suits"),
        ("bust_8_plus", "Bust 8 or more", "Bust with 8 or more cards"),
        ("total_19_or_20", "Total 19 or 20", "Total of 19 or 20"),
        ("perfect_pair", "Perfect pair", "Perfect pair"),
    ],
)
def test_staff_and_players_each_keep_their_own_words(pattern, staff, player):
    assert (pattern_label(pattern), PATTERN_WORDS[pattern].player) == (staff, player)


def test_a_name_that_is_no_pattern_is_shown_as_it_came():
    assert pattern_label("") == ""
    assert pattern_label("not_a_pattern") == "not_a_pattern"
