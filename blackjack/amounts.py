"""Amounts of money as Pitboss reads them: the one definition, for round documents
(blackjack.document), the limits' forms (core.forms.StakeField) and the API's money fields
(core.api.MoneyField), so that every door takes the same amounts.

An amount is text: ASCII digits, at most 12 before the point (the money columns' width), and, after
a point, one or two digits: "10", "10.5", "10.00". Nothing else: no sign ("+5.00", "-5.00"), no
exponent ("1e3"), no separator ("5_0", "1,000.00"), no blank around it (" 5.00"), no point without
digits after it ("5.") or before it (".5"), and no digit of another script ("٥", "５"), all of which
Python's Decimal, and so Django's and DRF's decimal fields, would read. Never a number either: a JSON
number is a float to most readers, and money is never a float.
"""

import re
from decimal import Decimal

MAX_AMOUNT_DIGITS = 12
# [0-9], not \d: \d takes any script's digits. The whole text matches (the API's schema says ^...$).
AMOUNT_PATTERN = rf"[0-9]{{1,{MAX_AMOUNT_DIGITS}}}(\.[0-9]{{1,2}})?"
_AMOUNT = re.compile(AMOUNT_PATTERN)
CENT = Decimal("0.01")
AMOUNT_RULE = (
    f"ASCII digits, at most {MAX_AMOUNT_DIGITS} before the point and at most 2 after it, such as "
    "10.00: no sign, exponent, separator or space"
)


# Amounts repeat across rounds' bets ("10.00"): each distinct text is read once and kept here, so
# that the round parser's fast path takes a kept one with a plain lookup. A text that is not an
# amount raises, and so is never kept.
AMOUNTS_READ: dict[str, Decimal] = {}
_AMOUNTS_KEPT = 100_000


def amount_of(text: str) -> Decimal:
    """The amount `text` writes, to the cent; ValueError when it is not an amount (see above)."""
    amount = AMOUNTS_READ.get(text)
    if amount is None:
        if not _AMOUNT.fullmatch(text):
            raise ValueError(text)
        amount = Decimal(text).quantize(CENT)
        if len(AMOUNTS_READ) < _AMOUNTS_KEPT:
            AMOUNTS_READ[text] = amount
    return amount
