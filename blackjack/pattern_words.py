"""Every side option pattern's words, in one list: the label staff see on the tables' pages and in the
reports ("Unsuited 6 7 8", as a paytable writes it), and the label and description players read on the
rule sheet ("6-7-8, mixed suits"; `%(dealer)s` is who deals, in the game's word).

The engine imports no Django, so the players' words are plain English here: `gettext_noop` marks them
for `make messages`, which puts them in the Filipino catalogue, and the rule sheet translates them when
it renders (sheets/content.py).
"""

from typing import NamedTuple


def gettext_noop(message: str) -> str:
    """Marks a players' message for translation and returns it untranslated. `make messages` extracts
    every call by this name (a keyword of Django's makemessages), as it does Django's own."""
    return message


class PatternWords(NamedTuple):
    staff: str
    player: str
    description: str


# Every pattern of rules.SIDE_OPTION_PATTERNS, in its order (tests/engine/test_pattern_words.py).
PATTERN_WORDS = {
    "mixed_pair": PatternWords(
        "Mixed pair",
        gettext_noop("Mixed pair"),
        gettext_noop("The first two cards are of one rank and of different colours."),
    ),
    "coloured_pair": PatternWords(
        "Coloured pair",
        gettext_noop("Coloured pair"),
        gettext_noop("The first two cards are of one rank and one colour, in different suits."),
    ),
    "perfect_pair": PatternWords(
        "Perfect pair",
        gettext_noop("Perfect pair"),
        gettext_noop("The first two cards are of one rank and one suit."),
    ),
    "suited_trips": PatternWords(
        "Suited trips",
        gettext_noop("Suited trips"),
        gettext_noop(
            "The first two cards and the %(dealer)s's first card are the same card (same rank and suit)."
        ),
    ),
    "flush": PatternWords(
        "Flush",
        gettext_noop("Flush"),
        gettext_noop("The three cards are of one suit, and not in sequence."),
    ),
    "straight": PatternWords(
        "Straight",
        gettext_noop("Straight"),
        gettext_noop(
            "The three cards are in sequence, not all of one suit (an ace plays high or low, never both)."
        ),
    ),
    "three_of_a_kind": PatternWords(
        "Three of a kind",
        gettext_noop("Three of a kind"),
        gettext_noop("The three cards are of one rank, not all of one suit."),
    ),
    "straight_flush": PatternWords(
        "Straight flush",
        gettext_noop("Straight flush"),
        gettext_noop("The three cards are in sequence and of one suit."),
    ),
    "total_19_or_20": PatternWords(
        "Total 19 or 20",
        gettext_noop("Total of 19 or 20"),
        gettext_noop("The three cards add up to 19 or 20."),
    ),
    "unsuited_21": PatternWords(
        "Unsuited 21",
        gettext_noop("21, mixed suits"),
        gettext_noop("The three cards add up to 21, not all of one suit."),
    ),
    "suited_21": PatternWords(
        "Suited 21",
        gettext_noop("21, one suit"),
        gettext_noop("The three cards add up to 21, all of one suit."),
    ),
    "unsuited_6_7_8": PatternWords(
        "Unsuited 6 7 8",
        gettext_noop("6-7-8, mixed suits"),
        gettext_noop("The cards are a 6, a 7 and an 8, not all of one suit."),
    ),
    "unsuited_7_7_7": PatternWords(
        "Unsuited 7 7 7",
        gettext_noop("7-7-7, mixed suits"),
        gettext_noop("The cards are three 7s, not all of one suit."),
    ),
    "suited_6_7_8": PatternWords(
        "Suited 6 7 8",
        gettext_noop("6-7-8, one suit"),
        gettext_noop("The cards are a 6, a 7 and an 8, all of one suit."),
    ),
    "suited_7_7_7": PatternWords(
        "Suited 7 7 7",
        gettext_noop("7-7-7, one suit"),
        gettext_noop("The cards are three 7s, all of one suit."),
    ),
    "bust_3": PatternWords(
        "Bust 3", gettext_noop("Bust with 3 cards"), gettext_noop("The %(dealer)s busts holding 3 cards.")
    ),
    "bust_4": PatternWords(
        "Bust 4", gettext_noop("Bust with 4 cards"), gettext_noop("The %(dealer)s busts holding 4 cards.")
    ),
    "bust_5": PatternWords(
        "Bust 5", gettext_noop("Bust with 5 cards"), gettext_noop("The %(dealer)s busts holding 5 cards.")
    ),
    "bust_6": PatternWords(
        "Bust 6", gettext_noop("Bust with 6 cards"), gettext_noop("The %(dealer)s busts holding 6 cards.")
    ),
    "bust_7": PatternWords(
        "Bust 7", gettext_noop("Bust with 7 cards"), gettext_noop("The %(dealer)s busts holding 7 cards.")
    ),
    "bust_8_plus": PatternWords(
        "Bust 8 or more",
        gettext_noop("Bust with 8 or more cards"),
        gettext_noop("The %(dealer)s busts holding 8 cards or more."),
    ),
}
