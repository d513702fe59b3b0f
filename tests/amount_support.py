"""Amounts at the round format's bounds in tests (issue 44): the largest amount it takes, and how a
stored figure is checked against the exact sum of what was sent."""

from decimal import Decimal

from django.db import connection

from blackjack.document import MAX_AMOUNT_DIGITS

MOST = Decimal("9" * MAX_AMOUNT_DIGITS + ".99")  # the largest amount the format takes
CENT = Decimal("0.01")


def assert_figure(stored: Decimal, expected: Decimal) -> None:
    """Exact on PostgreSQL. SQLite keeps a decimal as a float (Django's documented SQLite
    limitation): exact there up to 15 significant digits, and to those 15 beyond."""
    significant = "".join(map(str, expected.as_tuple().digits)).strip("0")
    if connection.vendor == "postgresql" or len(significant) <= 15:
        assert stored == expected, (stored, expected)
    else:
        assert abs(stored - expected) <= abs(expected) * Decimal("1e-14"), (stored, expected)
