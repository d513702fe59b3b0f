"""ArgumentUrls gives exactly what reverse() gives, for any argument and under a script prefix."""

import pytest
from django.urls import NoReverseMatch, reverse, set_script_prefix

from core.links import ArgumentUrls

ARGUMENTS = [
    "BND1-S0001-001",
    "P1001",
    "with space",
    "ünïcödé-€",
    "100%",
    "a?b#c&d=e",
    "~:@!$&'()*+,;=",
    "<script>",
    "..",
    12345,
]


@pytest.mark.parametrize("name", ["rounds:round_detail", "rounds:play_record"])
@pytest.mark.parametrize("prefix", ["/", "/pitboss/"])
def test_the_same_as_reverse(name, prefix):
    set_script_prefix(prefix)
    try:
        urls = ArgumentUrls(name)
        for argument in ARGUMENTS:
            assert urls(argument) == reverse(name, args=[argument]), argument
    finally:
        set_script_prefix("/")


@pytest.mark.parametrize("argument", ["", "a/b"])
def test_an_argument_reverse_refuses_is_refused(argument):
    with pytest.raises(NoReverseMatch):
        ArgumentUrls("rounds:round_detail")(argument)
