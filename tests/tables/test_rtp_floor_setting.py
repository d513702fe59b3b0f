"""PITBOSS_RTP_FLOOR_PERCENT: a percentage from 0 to 100, parsed strictly at start-up."""

from decimal import Decimal

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.env import env_percent

NAME = "PITBOSS_RTP_FLOOR_PERCENT"


def test_it_reads_a_percentage_and_defaults_when_unset():
    assert env_percent(NAME, "90", environ={NAME: "92.5"}) == Decimal("92.5")
    assert env_percent(NAME, "90", environ={}) == Decimal(90)
    assert env_percent(NAME, "90", environ={NAME: " "}) == Decimal(90)


@pytest.mark.parametrize("value", ["ninety", "-1", "100.01", "NaN", "Infinity", "90%", "9,5"])
def test_it_refuses_anything_but_a_percentage_naming_the_variable(value):
    with pytest.raises(ImproperlyConfigured, match=NAME):
        env_percent(NAME, "90", environ={NAME: value})
